import { afterAll, beforeAll, describe } from 'vitest';
import type { DialectName } from '~/db/schema';
import { createTestApp, type TestApp } from '#test/test-app';
import { TEST_DIALECTS } from './databases';
import { late } from './late';

export { TEST_DIALECTS };

/** A real app on a scratch database of `dialect` for the enclosing block: made before its tests, dropped after. */
export function useTestApp(dialect: DialectName, env: Record<string, string> = {}): TestApp {
  const app = late<TestApp>('the test app');
  beforeAll(async () => {
    app.set(await createTestApp(dialect, env));
  });
  afterAll(async () => app.get()?.close());
  return app.handle;
}

/**
 * The dialect scaffold: `describe(title)` once per TEST_DIALECTS (`%s` in the title names it),
 * each with its own test app (`useTestApp`, with `env` when given).
 */
export function describeOnDialects(title: string, body: DialectBody): void;
export function describeOnDialects(title: string, env: Record<string, string>, body: DialectBody): void;
export function describeOnDialects(title: string, envOrBody: Record<string, string> | DialectBody, maybeBody?: DialectBody) {
  const [env, body] = typeof envOrBody === 'function' ? [{}, envOrBody] : [envOrBody, maybeBody!];
  describe.each(TEST_DIALECTS)(title, (dialect) => body(useTestApp(dialect, env), dialect));
}

type DialectBody = (t: TestApp, dialect: DialectName) => void;
