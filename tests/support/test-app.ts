import { createScratchDatabase, type ScratchDatabase } from '#test/databases';
import type { DialectName } from '~/db/schema';
import type { SessionUser } from '~/lib/core/service-context';
import { loadConfig } from '../../server/config.server';
import { type AppDeps, createDeps, serviceContext } from '../../server/context.server';
import { ensureFederation } from '../../server/http/federation.server';
import { createHttpApp, type HttpApp } from '../../server/http/http.server';
import { createLogger } from '../../server/logger.server';
import { createJobs } from '../../server/jobs/registry.server';
import { drainJobs, type JobBatchReport } from '~/kernel/jobs.server';

export interface TestApp {
  deps: AppDeps;
  app: HttpApp;
  scratch: ScratchDatabase;
  /** Fetches a path of the app in-process (no socket); Origin defaults to the app's own. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Signs a new user up through better-auth; returns the user, its cookie and bearer token. */
  createUser(overrides?: Partial<{ email: string; name: string; password: string; image: string }>): Promise<TestUser>;
  context(user: SessionUser | null): ReturnType<typeof serviceContext>;
  /**
   * Runs the background jobs queued so far (event deliveries, periodic tasks already offered)
   * with the server's own registry, until none is left: what a change set in motion has then
   * happened. Without `now`, every queued job counts as due, whatever clock the test set.
   */
  runJobs(now?: Date): Promise<JobBatchReport>;
  close(): Promise<void>;
}

export interface TestUser {
  user: SessionUser;
  password: string;
  cookie: string;
  token: string;
}

/** What a test may set of the federation beyond its environment: a shorter bound on each request to a peer. */
export type TestFederation = Parameters<typeof ensureFederation>[1];

export const TEST_ORIGIN = 'http://afterglow.test';
/** A clock late enough that every queued job is due (and still an ISO date both databases order as text). */
const EVERY_JOB_DUE = new Date('9999-12-31T00:00:00.000Z');
let counter = 0;

/** A real app (real database, real better-auth) on a scratch database, without React Router. */
export async function createTestApp(dialect: DialectName, env: Record<string, string> = {}, federation: TestFederation = {}): Promise<TestApp> {
  const scratch = await createScratchDatabase(dialect);
  const config = loadConfig({ ...scratch.env, ...env });
  const deps = await createDeps(config, createLogger(config.LOG_LEVEL));
  // As the server does: federation started (Fedify loaded for it) before the first request.
  await ensureFederation(deps, federation);
  const app = createHttpApp(deps);
  const jobs = createJobs(config);
  // An app with a public address (a federating one) is asked at that address.
  const origin = config.PUBLIC_URL ?? TEST_ORIGIN;

  const request: TestApp['request'] = async (path, init = {}) => {
    const headers = new Headers(init.headers);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    if (body instanceof FormData) {
      // Sent as its encoded bytes, as over the wire: Node 24's fetch rejects unhandled when the
      // server cancels a FormData body it is still encoding (every over-the-limit upload test).
      const encoded = new Response(body);
      if (!headers.has('content-type')) headers.set('content-type', encoded.headers.get('content-type')!);
      body = await encoded.arrayBuffer();
    }
    if (!headers.has('origin') && init.method && init.method !== 'GET') headers.set('origin', origin);
    return app.fetch(new Request(new URL(path, origin), { ...init, headers, body }), {
      incoming: { socket: { remoteAddress: '127.0.0.1' } },
    });
  };

  return {
    deps,
    app,
    scratch,
    request,
    async createUser(overrides = {}) {
      counter += 1;
      const email = overrides.email ?? `user${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const password = overrides.password ?? 'Sunset123';
      const res = await request('/api/auth/sign-up/email', {
        method: 'POST',
        json: { email, password, name: overrides.name ?? `User ${counter}`, image: overrides.image },
      });
      if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { user: SessionUser & { image?: string | null } };
      const setCookie = res.headers.getSetCookie().find((c) => c.includes('session_token'));
      if (!setCookie) throw new Error('sign-up set no session cookie');
      return {
        user: { id: body.user.id, email: body.user.email, name: body.user.name, image: body.user.image ?? null },
        password,
        cookie: setCookie.split(';')[0]!,
        token: res.headers.get('set-auth-token') ?? '',
      };
    },
    context: (user) => serviceContext(deps, user),
    runJobs(now = EVERY_JOB_DUE) {
      return drainJobs({ ...serviceContext(deps, null), now: () => now }, jobs.registry);
    },
    async close() {
      await deps.views.close();
      await deps.database.close();
      await scratch.drop();
    },
  };
}
