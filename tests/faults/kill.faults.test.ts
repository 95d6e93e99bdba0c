import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';

const WRITES = 500;
const CONCURRENCY = 25;
const KILL_AFTER = [100, 200, 300, 400];

const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-faults-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const writer = { email: 'writer@faults.test', name: 'Fault Writer' };

describe('a killed server loses nothing it acknowledged', () => {
  it(`survives kill -9 at ${KILL_AFTER.length} points during ${WRITES} concurrent writes`, async () => {
    let server: RunningServer = await startServer({ DATA_DIR: dataDir });
    let token = (await apiSession(server.url, writer)).token;
    const acknowledged = new Map<string, string>();
    let next = 0;
    let failedInFlight = 0;
    let kills = 0;

    while (next < WRITES) {
      const killAt = KILL_AFTER[kills];
      // A wave of concurrent writes; the kill lands while some are in flight.
      const wave = Array.from({ length: Math.min(CONCURRENCY, WRITES - next) }, () => next++).map(async (i) => {
        const title = `Fault test blog ${i}`;
        try {
          const res = await fetch(`${server.url}/api/blogs`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({
              title,
              category: 'Technology',
              type: 'written content',
              short_description: `Short ${i}`,
              long_description: `Long description ${i} `.repeat(20),
              availability: 'Public',
              photo: '/uploads/fault-test.webp',
            }),
          });
          if (res.ok) acknowledged.set(((await res.json()) as { insertedId: string }).insertedId, title);
          else failedInFlight++;
        } catch {
          failedInFlight++; // the connection died with the process: never acknowledged
        }
      });
      if (killAt !== undefined && next >= killAt) {
        await new Promise((r) => setTimeout(r, 5));
        await server.signal('SIGKILL');
        kills++;
        await Promise.all(wave);
        server = await startServer({ DATA_DIR: dataDir });
        token = (await apiSession(server.url, writer, 'sign-in')).token;
      } else {
        await Promise.all(wave);
      }
    }
    await server.stop();

    const db = new Database(path.join(dataDir, 'afterglow.db'), { readonly: true });
    try {
      const rows = db.prepare('select id, title, short_description, long_description, category, availability from blogs').all() as {
        id: string;
        title: string;
        short_description: string;
        long_description: string;
      }[];
      const stored = new Map(rows.map((r) => [r.id, r]));
      const lost = [...acknowledged.entries()].filter(([id, title]) => stored.get(id)?.title !== title);
      const halfWritten = rows.filter((r) => !r.title || !r.short_description || !r.long_description.startsWith('Long description'));
      const integrity = (db.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check;
      console.log(
        `faults: ${WRITES} writes, ${acknowledged.size} acknowledged, ${failedInFlight} failed in flight, ${kills} kills, ` +
          `${lost.length} acknowledged lost, ${halfWritten.length} half-written, integrity_check ${integrity}`,
      );
      expect(kills).toBe(KILL_AFTER.length);
      expect(acknowledged.size).toBeGreaterThan(WRITES / 2);
      expect(lost).toEqual([]);
      expect(halfWritten).toEqual([]);
      expect(integrity).toBe('ok');
    } finally {
      db.close();
    }
  });
});
