import type { AppLoadContext } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { readFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { serviceContext } from '#server/context.server';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#test/test-app';
import { action } from './logout';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close().catch(() => {})));
});

async function logOut(t: TestApp, cookie: string) {
  const request = new Request(`${TEST_ORIGIN}/logout`, { method: 'POST', headers: { cookie, origin: TEST_ORIGIN, referer: `${TEST_ORIGIN}/allblogs` } });
  const service = serviceContext(t.deps, null, { clientIp: '127.0.0.1', request });
  const context = { deps: t.deps, service, user: null, nonce: '', requestId: 'test', clientIp: '127.0.0.1' } as AppLoadContext;
  const response = (await action({ request, context, params: {} } as never)) as Response;
  const flashCookie = response.headers.getSetCookie().find((c) => c.startsWith('afterglow.flash='))!;
  return { response, flash: readFlash(new Request(TEST_ORIGIN, { headers: { cookie: flashCookie.split(';')[0]! } })) };
}

describe.each(TEST_DIALECTS)('logout on %s', (dialect) => {
  it('ends the session and says Logged Out', async () => {
    const t = await createTestApp(dialect);
    apps.push(t);
    const { cookie } = await t.createUser();
    const { response, flash } = await logOut(t, cookie);
    expect(response.headers.get('location')).toBe('/');
    expect(flash).toMatchObject({ type: 'dialog', title: MESSAGES.loggedOutTitle, text: MESSAGES.loggedOutText });
    expect(response.headers.getSetCookie().some((c) => c.includes('session_token=;'))).toBe(true);
  });

  it('says Oops... with the help link when the session cannot be ended', async () => {
    const t = await createTestApp(dialect);
    apps.push(t);
    const { cookie } = await t.createUser();
    // A real failure: the database is gone.
    await t.deps.database.close();
    const { response, flash } = await logOut(t, cookie);
    expect(response.headers.get('location')).toBe('/allblogs');
    expect(flash).toMatchObject({
      type: 'dialog',
      kind: 'error',
      title: MESSAGES.logoutErrorTitle,
      text: MESSAGES.logoutErrorFallback,
      footer: { text: MESSAGES.logoutErrorFooter },
    });
  });
});
