import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SPEC_FIGURES } from '~/features/home/site-figures';
import { ConfigError, loadConfig, parseEnv } from './config.server';
import { tempDirs } from '../tests/support/temp-dirs';

const dirs = tempDirs();
const dataDir = () => dirs.make('afterglow-config-');
afterAll(() => dirs.removeAll());

describe('configuration', () => {
  it('has working defaults for every variable', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.DATA_DIR).toBe('./data');
    expect(env.RATE_LIMITS).toBe('on');
    expect(env.MAX_UPLOAD_MB).toBe(10);
    expect(env.TRUST_PROXY).toEqual([]);
    expect([env.MAIL_RATE_PER_MINUTE, env.MAIL_RETRY_SECONDS, env.MAIL_CLAIM_SECONDS, env.MAIL_DIGEST_HOUR]).toEqual([60, 60, 300, 7]);
    // The home page's achievements are the product's fixed figures unless set.
    expect(env.ACHIEVEMENTS).toEqual({ kind: 'fixed', figures: SPEC_FIGURES });
    expect(SPEC_FIGURES.map((f) => `${f.label} ${f.end}${f.suffix}`)).toEqual(['Total Blog 24000+', 'Share rate 70%', 'Subscriber 8000+', 'Active Blogger 60']);
  });

  it('takes the operator’s own achievement figures, or the site’s counts', () => {
    expect(parseEnv({ ACHIEVEMENTS: ' 120+, 45%,900+ ,12 ' }).ACHIEVEMENTS).toEqual({
      kind: 'fixed',
      figures: [
        { label: 'Total Blog', end: 120, suffix: '+' },
        { label: 'Share rate', end: 45, suffix: '%' },
        { label: 'Subscriber', end: 900, suffix: '+' },
        { label: 'Active Blogger', end: 12, suffix: '' },
      ],
    });
    expect(parseEnv({ ACHIEVEMENTS: 'counted' }).ACHIEVEMENTS).toEqual({ kind: 'counted' });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a port number/],
    [{ PORT: '70000' }, /^PORT must be between 0 and 65535/],
    [{ DATABASE_URL: 'nonsense' }, /^DATABASE_URL must be a URL like postgres:/],
    [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL must be a URL/],
    [{ RATE_LIMITS: 'maybe' }, /^RATE_LIMITS /],
    [{ MAX_UPLOAD_MB: '-1' }, /^MAX_UPLOAD_MB must be above 0/],
    [{ MAIL_RATE_PER_MINUTE: 'fast' }, /^MAIL_RATE_PER_MINUTE must be a number of mails/],
    [{ MAIL_RATE_PER_MINUTE: '0' }, /^MAIL_RATE_PER_MINUTE must be at least 1/],
    [{ MAIL_DIGEST_HOUR: '24' }, /^MAIL_DIGEST_HOUR must be an hour from 0 to 23/],
    [{ MAIL_RETRY_SECONDS: '-5' }, /^MAIL_RETRY_SECONDS must be above 0/],
    [{ SESSION_SECRET: 'short' }, /^SESSION_SECRET must be at least 32 characters/],
    [{ GOOGLE_CLIENT_ID: 'id' }, /^GOOGLE_CLIENT_SECRET must be set when GOOGLE_CLIENT_ID is set/],
    [{ ACHIEVEMENTS: '24000+,70%,8000+' }, /^ACHIEVEMENTS must be "counted" or four figures .* like 24000\+,70%,8000\+,60 \(got "24000\+,70%,8000\+"\)$/],
    [{ ACHIEVEMENTS: 'lots,70%,8000+,60' }, /^ACHIEVEMENTS must be "counted" or four figures/],
  ])('refuses %o with one line naming the variable', (env, message) => {
    let error: unknown;
    try {
      parseEnv(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('treats empty values as unset', () => {
    expect(parseEnv({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });

  it('generates the session secret once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim()).toBe(first.SESSION_SECRET);
    expect(first.SQLITE_PATH).toBe(path.join(dir, 'afterglow.db'));
  });

  it('prefers SESSION_SECRET from the environment', () => {
    const secret = 'x'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir(), SESSION_SECRET: secret }).SESSION_SECRET).toBe(secret);
  });
});
