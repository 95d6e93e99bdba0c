// `npm run bench:image`: how long the image pipeline takes for a 12-megapixel JPEG (median of 5
// runs) and the process's peak resident memory while it works. It runs the app's own pipeline
// (app/features/images/images.service.server.ts), loaded through Vite, on a generated photo.
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { createServer } from 'vite';

const RUNS = 5;
const WIDTH = 4000;
const HEIGHT = 3000;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Smooth colour fields with fine grain: compresses and decodes like a real photo, unlike a flat fill. */
async function twelveMegapixelJpeg() {
  const small = Buffer.alloc(400 * 300 * 3);
  for (let i = 0; i < small.length; i++) small[i] = Math.floor(Math.random() * 256);
  const smooth = await sharp(small, { raw: { width: 400, height: 300, channels: 3 } })
    .resize(WIDTH, HEIGHT, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  for (let i = 0; i < smooth.length; i += 7) smooth[i] = Math.min(255, smooth[i] + ((i * 31) % 13));
  return sharp(smooth, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

const vite = await createServer({
  configFile: false,
  logLevel: 'error',
  server: { middlewareMode: true, hmr: false },
  appType: 'custom',
  resolve: { alias: { '~': fileURLToPath(new URL('../app', import.meta.url)) } },
});
try {
  const { processImage } = await vite.ssrLoadModule('/app/features/images/images.service.server.ts');
  const jpeg = await twelveMegapixelJpeg();
  const meta = await sharp(jpeg).metadata();
  await processImage(jpeg); // warm-up: loads libvips' codecs once, as a running server has

  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const times = [];
  let output = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    output = await processImage(jpeg);
    times.push(performance.now() - started);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  clearInterval(sampler);
  times.sort((a, b) => a - b);

  console.log(`input: ${meta.width}×${meta.height} JPEG (${((meta.width * meta.height) / 1e6).toFixed(1)} MP), ${mb(jpeg.length)}`);
  console.log(`output: ${output.map((v) => `${v.width}w ${(v.body.length / 1024).toFixed(0)} kB`).join(', ')} (WebP)`);
  console.log(`runs (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
  console.log(`median: ${times[Math.floor(RUNS / 2)].toFixed(0)} ms`);
  console.log(`peak RSS while processing: ${mb(peak)} (baseline ${mb(baseline)}, +${mb(peak - baseline)}); max RSS of the process: ${mb(process.resourceUsage().maxRSS * 1024)}`);
} finally {
  await vite.close();
}
