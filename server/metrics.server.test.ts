import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { findLastBackup, instanceWarnings } from '~/features/moderation/instance.service.server';
import { DURATION_BUCKETS, DurationTally } from '~/lib/render/metrics.server';
import routes from '~/routes';
// @ts-expect-error plain JavaScript operator scripts
import { backup } from '../scripts/backup.js';
import { isPrivateAddress, pagePatternsOf, routeLabeler } from './metrics.server';

describe('who may read /metrics', () => {
  it('takes loopback and private networks as private, and nothing else', () => {
    for (const ip of ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.1.1', '::1', 'fd12:3456::1', 'fe80::1%eth0']) expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '172.32.0.1', '203.0.113.7', '2001:db8::1', '::ffff:8.8.8.8', 'unknown', '']) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});

/** app/routes.ts as React Router's build lists it: every route a child of the root layout. */
interface RouteEntry {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
}
const build = {
  root: { id: 'root', path: '' },
  ...Object.fromEntries((routes as RouteEntry[]).map((r) => [r.id ?? r.file, { id: r.id ?? r.file, parentId: 'root', path: r.path, index: r.index }])),
};

describe('request labels', () => {
  const label = routeLabeler(pagePatternsOf(build), (p) => p === '/assets/app-1.js' || p === '/favicon.svg');

  it('are the declared patterns, never the URL', () => {
    const cases: [string, string, string][] = [
      ['GET', '/', '/'],
      ['GET', '/_root.data', '/'],
      ['GET', '/blogs/0199-abc', '/blogs/:id'],
      ['GET', '/blogs/0199-abc.data', '/blogs/:id'],
      ['POST', '/blogs/0199-abc/like', '/blogs/:id/like'],
      ['GET', '/wishlist/add', '/wishlist/add'],
      ['GET', '/wishList', '/wishList/:email?'],
      ['GET', '/wishlist/someone@example.com', '/wishList/:email?'],
      ['GET', '/authors/u1/feed.xml', '/authors/:id/feed.xml'],
      ['GET', '/moderation/instance', '/moderation/instance'],
      ['POST', '/login', '/login'],
      ['GET', '/no/such/page', '/*'],
      ['GET', '/api/blogs/0199-abc', '/api/blogs/{id}'],
      ['HEAD', '/api/blogs/0199-abc', '/api/blogs/{id}'],
      ['PATCH', '/api/blogs/0199-abc/view', '/api/blogs/{id}/view'],
      ['POST', '/api/auth/sign-in/email', '/api/auth/sign-in/email'],
      ['GET', '/api/no-such-thing', '/api/*'],
      ['GET', '/metrics', '/metrics'],
      ['GET', '/uploads/abc-1600.webp', '/uploads/:name'],
      ['GET', '/assets/app-1.js', '/assets/*'],
      ['GET', '/favicon.svg', 'static file'],
    ];
    expect(cases.map(([method, url]) => label(method, url))).toEqual(cases.map(([, , want]) => want));
  });

  it('go into one series per route, status and method, with cumulative buckets', () => {
    const tally = new DurationTally();
    tally.observe('/', 200, 'GET', 0.0005);
    tally.observe('/', 200, 'GET', 0.02);
    tally.observe('/', 200, 'GET', 99);
    tally.observe('/', 304, 'GET', 0.001);
    tally.observe('/', 200, 'BREW', 0.001);
    const series = [...tally.series()];
    expect(series.map((s) => `${s.method} ${s.route} ${s.status} ${s.count}`)).toEqual(['GET / 200 3', 'OTHER / 200 1', 'GET / 304 1']);
    const first = series[0]!;
    expect(first.buckets[0]).toBe(1);
    expect(first.buckets[DURATION_BUCKETS.indexOf(0.025)]).toBe(1);
    expect(first.buckets[DURATION_BUCKETS.length]).toBe(1);
    expect(first.sum).toBeCloseTo(99.0205);
  });
});

describe('the instance page', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('warns of a missing PUBLIC_URL and SMTP, a runtime near or past its end, and an old or missing backup', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const setUp = { DATA_DIR: '/data', PUBLIC_URL: 'https://blog.example.org', SMTP_URL: 'smtp://mail.example.org' };
    const fresh = { at: '2026-11-25T12:00:00Z', name: 'b', database: 'sqlite' };
    const codes = (...args: Parameters<typeof instanceWarnings>) => instanceWarnings(...args).map((w) => w.code);
    expect(codes(setUp, '24.11.0', fresh, now)).toEqual([]);
    expect(codes({ DATA_DIR: '/data' }, '24.11.0', fresh, now)).toEqual(['public-url', 'smtp']);
    // Node 22's end (April 2027) is within six months; Node 20's is past.
    expect(instanceWarnings(setUp, '22.12.0', fresh, now)[0]!.text).toContain('stops getting security fixes on 2027-04-30');
    expect(instanceWarnings(setUp, '20.19.0', fresh, now)[0]!.text).toContain('no security fixes since 2026-04-30');
    expect(codes(setUp, '24.11.0', fresh, new Date('2027-12-01T00:00:00Z'))).toEqual(['runtime', 'backup']);
    expect(codes(setUp, '24.11.0', null, now)).toEqual(['backup']);
    expect(instanceWarnings(setUp, '24.11.0', { ...fresh, at: '2026-11-10T12:00:00Z' }, now)[0]!.text).toContain('16 days old');
  });

  it('finds the newest backup npm run backup wrote, by its manifest', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-backups-'));
    dirs.push(dataDir);
    const db = new Database(path.join(dataDir, 'afterglow.db'));
    db.exec('create table blogs (id text)');
    db.close();
    const backups = path.join(dataDir, 'backups');
    expect(await findLastBackup(backups)).toBeNull();
    await backup({ dataDir, out: path.join(backups, 'first') });
    const second = (await backup({ dataDir, out: path.join(backups, 'second') })) as { createdAt: string };
    // A folder without a manifest (a backup that did not finish) is not one.
    mkdirSync(path.join(backups, 'unfinished'));
    writeFileSync(path.join(backups, 'stray.txt'), 'x');
    const last = await findLastBackup(backups);
    expect(last?.at).toBe(second.createdAt);
    expect(last?.database).toBe('sqlite');
    expect(['first', 'second']).toContain(last?.name);
  });
});
