import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { DatabaseKvStore } from './federation-store.server';

const duration = (ms: number) => ({ total: () => ms }) as unknown as Temporal.Duration;

describeOnDialects('the federation key-value store (%s)', (t) => {
  it('gets, sets, lists by prefix, compares-and-sets and forgets what expired', async () => {
    let now = new Date('2026-11-26T12:00:00.000Z');
    const kv = new DatabaseKvStore({ db: t.deps.database.db, now: () => now });
    await kv.set(['a', 'b'], { n: 1 });
    await kv.set(['a', 'c'], 'two');
    await kv.set(['ab'], 3);
    await kv.set(['a'], 0);
    expect(await kv.get(['a', 'b'])).toEqual({ n: 1 });
    expect(await kv.get(['missing'])).toBeUndefined();

    const listed = [];
    for await (const entry of kv.list(['a'])) listed.push(entry);
    expect(listed.map((e) => e.key.join('/')).sort()).toEqual(['a', 'a/b', 'a/c']);

    expect(await kv.cas(['a', 'c'], 'wrong', 'x')).toBe(false);
    expect(await kv.cas(['a', 'c'], 'two', 'three')).toBe(true);
    expect(await kv.get(['a', 'c'])).toBe('three');
    expect(await kv.cas(['new'], undefined, 1)).toBe(true);
    expect(await kv.cas(['new'], undefined, 2)).toBe(false);

    await kv.set(['brief'], 'soon gone', { ttl: duration(1000) });
    expect(await kv.get(['brief'])).toBe('soon gone');
    now = new Date(now.getTime() + 2000);
    expect(await kv.get(['brief'])).toBeUndefined();
    expect(await kv.cas(['brief'], undefined, 'again')).toBe(true);

    await kv.delete(['a', 'b']);
    expect(await kv.get(['a', 'b'])).toBeUndefined();
  });
});
