// Another site's picture host for `npm run bench:import-live`, in a process of its own so serving
// is not counted against the app or the load generator: GET /img/<n>.jpg answers a 1200×800
// photo-like JPEG whose bytes differ for every n (a comment segment carries n), so each is a new
// image to the importer, not one it already stored. GET /stats answers how many were served.
// Prints its port.
import { createServer } from 'node:http';
import sharp from 'sharp';

const WIDTH = 1200;
const HEIGHT = 800;
// Smooth colour with grain, as a photograph has: re-encoding it costs what a real one does.
const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
let seed = 7;
const grain = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) >>> 27) - 16;
for (let y = 0; y < HEIGHT; y++) {
  for (let x = 0; x < WIDTH; x++) {
    const i = (y * WIDTH + x) * 3;
    pixels[i] = Math.max(0, Math.min(255, 255 - (y * 120) / HEIGHT + grain()));
    pixels[i + 1] = Math.max(0, Math.min(255, 90 + (x * 100) / WIDTH + grain()));
    pixels[i + 2] = Math.max(0, Math.min(255, 60 + (y * 150) / HEIGHT + grain()));
  }
}
const base = await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();

/** The base JPEG with a COM segment after its SOI marker: valid, and unique to n. */
function photo(n) {
  const text = Buffer.from(`bench photo ${n}`);
  const segment = Buffer.alloc(4 + text.length);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  text.copy(segment, 4);
  return Buffer.concat([base.subarray(0, 2), segment, base.subarray(2)]);
}

let served = 0;
const server = createServer((req, res) => {
  const match = /^\/img\/(\d+)\.jpg$/.exec(req.url ?? '');
  if (match) {
    served++;
    const body = photo(Number(match[1]));
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(body.length) }).end(body);
  } else if (req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served, bytes: base.length }));
  } else {
    res.writeHead(404).end();
  }
});
server.listen(0, '127.0.0.1', () => console.log(String(server.address().port)));
