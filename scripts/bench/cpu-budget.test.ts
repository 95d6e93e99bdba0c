import { describe, expect, it } from 'vitest';
import { STAGES, stageOfFrame, summariseProfile } from './cpu-budget.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '0' });

/**
 * A profile in V8's `.cpuprofile` shape: root → hono dispatch → pageCache's middleware (named by
 * the factory it sits in, through the bundle's own text) → a helper of no stage → readCurrentVersions;
 * beside them the collector, idle time and a socket write.
 */
function profile() {
  const nodes = [
    { id: 1, callFrame: frame('(root)'), children: [2, 5, 6, 7] },
    { id: 2, callFrame: frame('dispatch', 'file:///srv/node_modules/hono/dist/compose.js'), children: [3] },
    { id: 3, callFrame: frame('readCurrentVersions', 'file:///srv/build/server/assets/instance.service.server-abc.js'), children: [4] },
    { id: 4, callFrame: frame('toString', ''), children: [] },
    { id: 5, callFrame: frame('(garbage collector)'), children: [] },
    { id: 6, callFrame: frame('(idle)'), children: [] },
    { id: 7, callFrame: frame('writev'), children: [] },
  ];
  // Samples at 100 µs steps from t = 1,000: two outside the window (before and after).
  const samples = [4, 4, 3, 5, 6, 7, 7, 2, 4];
  return { nodes, startTime: 1000, endTime: 2000, samples, timeDeltas: samples.map(() => 100) };
}

describe('the CPU budget', () => {
  it('charges each sample to the innermost frame of a stage, within the window only, idle left out', () => {
    // Window 1,150…1,850: the samples at 1,200 … 1,800 (seven of the nine).
    const summary = summariseProfile(profile(), { fromUs: 1150, toUs: 1850, requests: 2 });
    const us = Object.fromEntries(summary.stages.map((s) => [s.stage, s.usPerRequest]));
    // toString (no stage) passes its samples to readCurrentVersions: at 1,200 and 1,300.
    expect(us['freshness check']).toBe(100);
    expect(us['garbage collection']).toBe(50);
    expect(us['body write']).toBe(100);
    // dispatch itself, at 1,800.
    expect(us['middleware chain']).toBe(50);
    expect(summary.busyUsPerRequest).toBe(300);
    expect(summary.idleShare).toBeCloseTo(1 / 7);
    expect(summary.stages.map((s) => s.stage)).toEqual(STAGES);
  });

  it('knows a library by its package and passes the rest on', () => {
    expect(stageOfFrame(frame('executeQuery', 'file:///srv/node_modules/kysely/dist/esm/index.js'))).toBe('SQL (Kysely, drivers)');
    expect(stageOfFrame(frame('renderToPipeableStream', 'file:///srv/node_modules/react-dom/cjs/x.js'))).toBe('render / memo fill');
    expect(stageOfFrame(frame('set', 'node:internal/deps/undici/undici'))).toBe('header building');
    expect(stageOfFrame(frame('parse', ''))).toBeNull();
    expect(stageOfFrame(frame('nextTick', 'node:internal/process/task_queues'))).toBeNull();
  });
});
