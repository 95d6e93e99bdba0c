import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ACHIEVEMENTS_FORMAT, type AchievementsSetting, parseAchievements, SPEC_FIGURES } from '~/features/home/site-figures';

const onOff = z.enum(['on', 'off']);
const optionalUrl = (protocols: string[], example: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL like ${example}`)
    .optional();

/** Every variable optional (docs/product.md#operators); a bad value stops the start naming the variable. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  SITE_NAME: z.string().trim().min(1).max(60).default('Afterglow'),
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PUBLIC_URL: optionalUrl(['http:', 'https:'], 'https://blog.example.org').transform((v) =>
    v?.replace(/\/+$/, ''),
  ),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:'], 'postgres://user:pass@host:5432/db'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  S3_ENDPOINT: optionalUrl(['http:', 'https:'], 'https://s3.example.org'),
  S3_BUCKET: z.string().trim().min(1).optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  S3_PUBLIC_URL: optionalUrl(['http:', 'https:'], 'https://cdn.example.org/bucket'),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:'], 'smtp://user:pass@mail.example.org:587'),
  MAIL_FROM: z.string().trim().min(3).default('Afterglow <no-reply@localhost>'),
  // The send queue (docs/decisions/023). 60 a minute stays under what small relays and
  // consumer SMTP accounts accept; a dedicated mail service takes far more.
  MAIL_RATE_PER_MINUTE: z.coerce.number({ message: 'must be a number of mails' }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000').default(60),
  MAIL_RETRY_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).positive('must be above 0').max(86_400, 'must be at most 86400').default(60),
  MAIL_CLAIM_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).positive('must be above 0').max(86_400, 'must be at most 86400').default(300),
  MAIL_DIGEST_HOUR: z.coerce.number({ message: 'must be an hour from 0 to 23' }).int('must be a whole hour').min(0, 'must be an hour from 0 to 23').max(23, 'must be an hour from 0 to 23').default(7),
  // The spam hold for new accounts (docs/decisions/029): 0 days turns it off.
  SPAM_HOLD_DAYS: z.coerce.number({ message: 'must be a number of days' }).int('must be a whole number of days').min(0, 'must be 0 or more').max(365, 'must be at most 365').default(3),
  SPAM_HOLD_MAX_LINKS: z.coerce.number({ message: 'must be a number of links' }).int('must be a whole number').min(0, 'must be 0 or more').max(1000, 'must be at most 1000').default(2),
  REDIS_URL: optionalUrl(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  REDIS_PREFIX: z.string().trim().min(1).max(100).default('afterglow:rate:'),
  RATE_LIMITS: onOff.default('on'),
  /** Feed items carry the whole post, not only its summary (docs/decisions/066). */
  FEED_FULL_CONTENT: onOff.default('on'),
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [])),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_ISSUER: optionalUrl(['http:', 'https:'], 'https://id.example.org'),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(40).default('OpenID'),
  // How old a view count (and a list's like and comment counts) on a kept page may be
  // (docs/decisions/024, 032). Views are written within a sixth of it, at most every 5 s.
  COUNTS_MAX_AGE_S: z.coerce.number({ message: 'must be a number of seconds' }).int('must be a whole number').min(1, 'must be at least 1').max(3600, 'must be at most 3600').default(30),
  // Megabytes of anonymous pages and public JSON kept per instance, compressed forms included
  // (docs/decisions/019, 055); 0 keeps none and renders every read.
  PAGE_CACHE_MB: z.coerce.number({ message: 'must be a number of megabytes' }).min(0, 'must be 0 or more').max(1024, 'must be at most 1024').default(32),
  // Megabytes of signed-in page renders kept per instance (docs/decisions/043); 0 renders every time.
  RENDER_MEMO_MB: z.coerce.number({ message: 'must be a number of megabytes' }).min(0, 'must be 0 or more').max(1024, 'must be at most 1024').default(16),
  // A bearer token for GET /metrics from anywhere; unset, only loopback and private addresses (docs/decisions/052).
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  // The home page's four achievement figures (docs/decisions/051): the product's fixed ones unless set.
  ACHIEVEMENTS: z
    .string()
    .optional()
    .transform((value, ctx): AchievementsSetting => {
      if (value === undefined) return { kind: 'fixed', figures: SPEC_FIGURES };
      const setting = parseAchievements(value);
      if (!setting) ctx.addIssue({ code: 'custom', message: ACHIEVEMENTS_FORMAT });
      return setting ?? { kind: 'counted' };
    }),
  // The longest one Markdown body may take to render in the pool (docs/decisions/047).
  MARKDOWN_RENDER_S: z.coerce.number({ message: 'must be a number of seconds' }).min(1, 'must be at least 1').max(120, 'must be at most 120').default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAX_UPLOAD_MB: z.coerce
    .number({ message: 'must be a number of megabytes' })
    .positive('must be above 0')
    .max(100, 'must be at most 100')
    .default(10),
  // How long a made export is kept and its mailed link works (docs/decisions/074).
  EXPORT_KEEP_HOURS: z.coerce.number({ message: 'must be a number of hours' }).int('must be a whole number of hours').min(1, 'must be at least 1').max(720, 'must be at most 720').default(72),
  // Test-only: lets the server fetch a blog photo from a loopback address (a test's own image
  // server). Never in production: it opens this host's own services to anyone who writes a blog
  // (docs/decisions/050).
  IMAGE_FETCH_ALLOW_LOOPBACK: onOff.default('off'),
  // Federation (docs/decisions/068): on whenever PUBLIC_URL is set, unless this is off.
  FEDERATION: onOff.default('on'),
  // Test-only: federation may reach loopback and private addresses (instances and peers on one
  // machine). Refused with an https PUBLIC_URL: a real site must never fetch its own network.
  FEDERATION_ALLOW_PRIVATE: onOff.default('off'),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Omit<Env, 'SESSION_SECRET'> {
  SESSION_SECRET: string;
  SQLITE_PATH: string;
  isProduction: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const EMPTY_MEANS_UNSET = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));

export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const result = EnvSchema.safeParse(EMPTY_MEANS_UNSET(env));
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`${name} ${issue.message.replace(/^Invalid input: /, '')} (got "${env[name] ?? ''}")`);
  }
  const parsed = result.data;
  const pairs: [keyof Env, keyof Env][] = [
    ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
    ['OIDC_CLIENT_ID', 'OIDC_ISSUER'],
    ['OIDC_CLIENT_SECRET', 'OIDC_CLIENT_ID'],
    ['S3_BUCKET', 'S3_ENDPOINT'],
  ];
  for (const [a, b] of pairs) {
    if (parsed[a] && !parsed[b]) throw new ConfigError(`${b} must be set when ${a} is set`);
    if (parsed[b] && !parsed[a] && a !== 'S3_BUCKET') throw new ConfigError(`${a} must be set when ${b} is set`);
  }
  if (parsed.FEDERATION_ALLOW_PRIVATE === 'on' && parsed.PUBLIC_URL?.startsWith('https://')) {
    throw new ConfigError('FEDERATION_ALLOW_PRIVATE must be off when PUBLIC_URL is https (it is for tests on one machine)');
  }
  return parsed;
}

/** Parses the environment and prepares DATA_DIR; keeps a generated secret there when unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = parseEnv(env);
  const dataDir = path.resolve(parsed.DATA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`DATA_DIR cannot be created: ${(error as Error).message}`);
  }
  return {
    ...parsed,
    DATA_DIR: dataDir,
    SESSION_SECRET: parsed.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    SQLITE_PATH: path.join(dataDir, 'afterglow.db'),
    isProduction: parsed.NODE_ENV === 'production',
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    try {
      writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another instance sharing DATA_DIR wrote it first: use theirs.
      return readFileSync(file, 'utf8').trim();
    }
  }
}
