import type { createFederation } from '@fedify/fedify';
import type { ServiceContext } from '~/lib/core/service-context';
import { kvList } from './federation.repo.server';

/**
 * Deliveries per remote host for /metrics (docs/decisions/088). Fedify reports each delivery
 * attempt and each delivery it gave up on to an OpenTelemetry meter; the meter given here counts
 * those two and nothing else, in memory, per process, as the other tallies of /metrics are.
 *
 * A label per host would let the fediverse choose how many series we keep: anyone may follow
 * from a thousand made-up servers. So at most `HOSTS_SHOWN` hosts get a label of their own: the
 * first ones while names are free, then, chosen again at each scrape, those with the most
 * deliveries; every other delivery is counted under `other`. A host that takes a name when others
 * are full counts under it from that scrape on (what came before stays in `other`), and one that
 * loses it leaves its series, so every series only ever grows. At most `HOSTS_TRACKED` hosts' volumes are kept
 * to choose from; past that the smallest are forgotten.
 */

export const HOSTS_SHOWN = 20;
export const HOSTS_TRACKED = 1000;
export const OTHER_HOSTS = 'other';

export type DeliveryOutcome = 'sent' | 'failed' | 'abandoned';
type Counts = Record<DeliveryOutcome, number>;
const zero = (): Counts => ({ sent: 0, failed: 0, abandoned: 0 });

export class DeliveryTally {
  /** Deliveries per host since the process started (attempts, sent or failed): what ranks them. */
  private readonly volume = new Map<string, number>();
  /** The hosts with a label of their own, and what they counted since they got it. */
  private readonly shown = new Map<string, Counts>();
  private readonly other = zero();

  constructor(private readonly limits = { shown: HOSTS_SHOWN, tracked: HOSTS_TRACKED }) {}

  record(host: string, outcome: DeliveryOutcome): void {
    // While names are free, a new host takes one at once.
    if (!this.shown.has(host) && this.shown.size < this.limits.shown) this.shown.set(host, zero());
    const own = this.shown.get(host);
    if (own) own[outcome]++;
    else this.other[outcome]++;
    if (outcome === 'abandoned') return;
    if (!this.volume.has(host) && this.volume.size >= this.limits.tracked) this.forgetSmallest();
    this.volume.set(host, (this.volume.get(host) ?? 0) + 1);
  }

  /** The series as a scrape shows them: the busiest hosts by name, then `other`. */
  series(): { host: string; counts: Counts }[] {
    const busiest = new Set([...this.volume.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, this.limits.shown).map(([host]) => host));
    // A host that left the busiest counts under `other` from now on; one that joined starts at 0.
    for (const host of this.shown.keys()) if (!busiest.has(host)) this.shown.delete(host);
    for (const host of busiest) if (!this.shown.has(host)) this.shown.set(host, zero());
    return [...[...this.shown].map(([host, counts]) => ({ host, counts: { ...counts } })), { host: OTHER_HOSTS, counts: { ...this.other } }];
  }

  /** The hosts with a label of their own since the last scrape. */
  shownHosts(): string[] {
    return [...this.shown.keys()];
  }

  private forgetSmallest(): void {
    const ranked = [...this.volume.entries()].filter(([host]) => !this.shown.has(host)).sort((a, b) => a[1] - b[1]);
    for (const [host] of ranked.slice(0, Math.max(1, Math.floor(ranked.length / 2)))) this.volume.delete(host);
  }
}

/** This process's deliveries (every federation it runs counts here, as every request counts in one tally). */
export const deliveryTally = new DeliveryTally();

type MeterProvider = NonNullable<Parameters<typeof createFederation>[0]['meterProvider']>;
type Attributes = Record<string, unknown> | undefined;

const quiet = { add() {}, record() {}, addCallback() {}, removeCallback() {} };

/**
 * The meter Fedify is given: `activitypub.delivery.sent` (an attempt, with its success) and
 * `activitypub.delivery.permanent_failure` (given up) go to the tally; every other instrument
 * Fedify makes does nothing.
 */
export function deliveryMeterProvider(tally: DeliveryTally = deliveryTally): MeterProvider {
  const hostOf = (attributes: Attributes) => String(attributes?.['activitypub.remote.host'] ?? 'unknown');
  const counter = (name: string) => {
    if (name === 'activitypub.delivery.sent') return { add: (_n: number, a: Attributes) => tally.record(hostOf(a), a?.['activitypub.delivery.success'] === true ? 'sent' : 'failed') };
    if (name === 'activitypub.delivery.permanent_failure') return { add: (_n: number, a: Attributes) => tally.record(hostOf(a), 'abandoned') };
    return quiet;
  };
  const meter = {
    createCounter: counter,
    createHistogram: () => quiet,
    createUpDownCounter: () => quiet,
    createGauge: () => quiet,
    createObservableGauge: () => quiet,
    createObservableCounter: () => quiet,
    createObservableUpDownCounter: () => quiet,
    addBatchObservableCallback() {},
    removeBatchObservableCallback() {},
  };
  return { getMeter: () => meter } as unknown as MeterProvider;
}

export type CircuitState = 'closed' | 'half-open' | 'open';

/** Fedify's circuit breaker's state of each remote host it delivered to (kept in our key-value table). */
export async function circuitStates(ctx: Pick<ServiceContext, 'db' | 'now'>): Promise<Map<string, CircuitState>> {
  const exact = JSON.stringify(CIRCUIT_PREFIX);
  const rows = await kvList(ctx.db, { exact, prefix: `${exact.slice(0, -1)},`, now: ctx.now().toISOString() });
  const states = new Map<string, CircuitState>();
  if (rows.length === 0) return states;
  // Only a site that delivered has states kept: Fedify is loaded already there (docs/decisions/087).
  const { parseCircuitBreakerKvState } = await import('@fedify/fedify');
  for (const row of rows) {
    const key = JSON.parse(row.key) as unknown[];
    const state = parseCircuitBreakerKvState(JSON.parse(row.value));
    if (key.length === CIRCUIT_PREFIX.length + 1 && typeof key.at(-1) === 'string' && state) states.set(key.at(-1) as string, state.state);
  }
  return states;
}

/** Where Fedify keeps it (its default `kvPrefixes.circuitBreaker`). */
const CIRCUIT_PREFIX = ['_fedify', 'circuit'] as const;
