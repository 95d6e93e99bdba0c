import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';

// DATA_DIR on a tiny tmpfs of its own: filling it up harms nothing else on the machine. Room for
// an empty database with every migration run and a few posts; the writes below fill the rest.
const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-diskfull-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dataDir]).status === 0;
if (!mounted) console.log('Disk-full fault test skipped: this machine does not let us mount a tmpfs.');

describe.runIf(mounted)('the SQLite disk filling up', () => {
  let server: RunningServer;
  let token = '';
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: dataDir });
    token = (await apiSession(server.url, { email: 'full@faults.test', name: 'Disk Filler' })).token;
  });
  afterAll(async () => {
    await server?.stop();
    spawnSync('umount', [dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const write = (i: number) =>
    fetch(`${server.url}/api/blogs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        title: `Filling blog ${i}`,
        category: 'Personal',
        type: 'written content',
        short_description: 'Filling the disk',
        long_description: `${'All work and no play. '.repeat(4000)}${i}`,
        availability: 'Public',
        photo: '/uploads/full.webp',
      }),
    });

  it('refuses writes with 503 while full, keeps serving, and takes writes again when space returns', async () => {
    const acknowledged: string[] = [];
    let refusal: Response | undefined;
    for (let i = 0; i < 200 && !refusal; i++) {
      const res = await write(i);
      if (res.ok) acknowledged.push(((await res.json()) as { insertedId: string }).insertedId);
      else refusal = res;
    }
    expect(refusal, 'the disk never filled up').toBeDefined();
    expect([503, 507]).toContain(refusal!.status);
    expect(((await refusal!.json()) as { message: string }).message).toMatch(/unavailable/i);
    // The process is alive and still reads.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/blogs?limit=1`)).status).toBe(200);

    expect(spawnSync('mount', ['-o', 'remount,size=64m', dataDir]).status).toBe(0);
    let recovered = false;
    for (let i = 0; i < 20 && !recovered; i++) {
      const res = await write(1000 + i);
      if (res.ok) {
        recovered = true;
        acknowledged.push(((await res.json()) as { insertedId: string }).insertedId);
      } else await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(true);
    await server.stop();

    const db = new Database(path.join(dataDir, 'afterglow.db'), { readonly: true });
    try {
      const ids = new Set((db.prepare('select id from blogs').all() as { id: string }[]).map((r) => r.id));
      const lost = acknowledged.filter((id) => !ids.has(id));
      const integrity = (db.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check;
      console.log(`faults: disk full after ${acknowledged.length - 1} blogs: answered ${refusal!.status}, process stayed up, ${lost.length} acknowledged lost, writes resumed after space returned, integrity_check ${integrity}`);
      expect(lost).toEqual([]);
      expect(integrity).toBe('ok');
    } finally {
      db.close();
    }
  });
});
