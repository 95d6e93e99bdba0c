import type { ApiSession } from './auth';
import type { ScratchDatabase } from './databases';
import { PUBLIC_BLOG } from './public-blog';

/**
 * The environment of a production instance on a scratch database that other instances share.
 * Rate limits are off: every request of a test comes from the one loopback address.
 */
export const instanceEnv = (scratch: ScratchDatabase): Record<string, string> => ({ ...scratch.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMITS: 'off' });

/** Publishes PUBLIC_BLOG through the API as the session's member; answers its id. */
export async function postPublicBlog(baseUrl: string, session: ApiSession): Promise<string> {
  const created = await fetch(`${baseUrl}/api/blogs`, {
    method: 'POST',
    headers: { cookie: session.cookie, origin: baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify(PUBLIC_BLOG),
  });
  return ((await created.json()) as { insertedId: string }).insertedId;
}

/** The id of the first author a page links to (`/authors/<id>`), or '' when it links none. */
export async function linkedAuthorId(url: string, init?: RequestInit): Promise<string> {
  return /href="\/authors\/([^"/]+)"/.exec(await (await fetch(url, init)).text())?.[1] ?? '';
}
