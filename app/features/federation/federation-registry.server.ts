import type { Federation } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';
import type { ServiceContext } from '~/lib/core/service-context';

/**
 * Whether federation runs here, without Fedify: most requests only ask that (a page showing a
 * handle or not), and Fedify with its vocabulary and Temporal polyfill is about 5 MB of module
 * source the heap keeps once loaded (docs/decisions/087). federation.server.ts, which needs
 * Fedify, is imported where federation is started or used.
 */

export interface FederationSettings {
  /** PUBLIC_URL: ids are made from it, so it must never change. */
  origin: string;
  siteName: string;
  /** Test-only: peers on loopback and private addresses may be fetched. */
  allowPrivateAddress: boolean;
  version: string;
  /** Test-only: a shorter bound on each outgoing request than FEDERATION_REQUEST_TIMEOUT_MS (request-deadline.server.ts). */
  requestTimeoutMs?: number;
}

export interface SiteFederation {
  federation: Federation<ServiceContext>;
  settings: FederationSettings;
}

const running = new WeakMap<Kysely<Database>, SiteFederation>();

/** The federation started for this database in this process; null when federation is off. */
export function federationOf(ctx: Pick<ServiceContext, 'db'>): SiteFederation | null {
  return running.get(ctx.db) ?? null;
}

/** Records the federation started for this database (federation.server.ts's startFederation). */
export function registerFederation(db: Kysely<Database>, site: SiteFederation): void {
  running.set(db, site);
}
