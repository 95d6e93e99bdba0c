// Zod probes `Function('')` to decide whether to compile its parsers; our CSP forbids eval
// (docs/decisions/005-security-baseline.md), so in the browser it must run "jitless". Zod 4 keeps
// its configuration on `globalThis.__zod_globalConfig` (zod/v4/core/core.js) and creates it only
// when missing, so setting it here, without importing zod, configures it and keeps zod out of the
// root chunk. Imported first by app/root.tsx: React Router evaluates the root route module before
// any other route module. tests/security/xss.security.test.ts fails on any CSP violation, so a
// zod upgrade that moves this setting is caught.
if (typeof document !== 'undefined') {
  const g = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  (g.__zod_globalConfig ??= {}).jitless = true;
}
