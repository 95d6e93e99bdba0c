import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './helpers/auth';
import { axeViolations } from './helpers/axe';
import { openBrowser, VIEWPORTS, waitForHydration } from './helpers/browser';
import { type RunningServer, startServer } from './helpers/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const PAGES = ['/', '/no/such/page', '/login'];

describe('accessibility of the frame', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      it(`has no axe violations in ${colorScheme} theme at ${width} width, signed out and in`, async () => {
        const browser = await openBrowser({ colorScheme, viewport, reducedMotion: 'reduce' });
        try {
          const found: string[] = [];
          for (const signedIn of [false, true]) {
            if (signedIn) await signUp(browser.context, server.url);
            for (const path of PAGES) {
              await browser.page.goto(`${server.url}${path}`);
              await waitForHydration(browser.page);
              for (const v of await axeViolations(browser.page)) found.push(`${path} ${signedIn ? '(signed in)' : ''}: ${v.id} — ${v.help} — ${v.targets.join(', ')}`);
            }
          }
          expect(found).toEqual([]);
        } finally {
          await browser.close();
        }
      });
    }
  }
});
