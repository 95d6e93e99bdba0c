import * as OTPAuth from 'otpauth';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';

/** The cookies a client holds, updated from each answer's Set-Cookie (expired ones dropped). */
class Jar {
  private readonly cookies = new Map<string, string>();
  constructor(initial = '') {
    for (const pair of initial.split('; ').filter(Boolean)) this.set(pair);
  }
  private set(pair: string) {
    const [name, ...rest] = pair.split('=');
    const value = rest.join('=');
    if (value === '') this.cookies.delete(name!);
    else this.cookies.set(name!, value);
  }
  take(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const expired = /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line);
      const pair = line.split(';')[0]!;
      if (expired) this.cookies.delete(pair.split('=')[0]!);
      else this.set(pair);
    }
    return res;
  }
  get header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  has(fragment: string) {
    return [...this.cookies.keys()].some((k) => k.includes(fragment));
  }
}

/** A code that is not the app's current one (the neighbouring windows are accepted too, so not ±1 window either). */
const wrongCode = (totp: OTPAuth.TOTP) => {
  const valid = new Set([-1, 0, 1].map((w) => totp.generate({ timestamp: Date.now() + w * 30_000 })));
  let code = 0;
  while (valid.has(String(code).padStart(6, '0'))) code++;
  return String(code).padStart(6, '0');
};

describeOnDialects('two-factor sign-in on %s', (t, dialect) => {
  const post = (jar: Jar, path: string, json: unknown) => t.request(path, { method: 'POST', headers: { cookie: jar.header }, json }).then((r) => jar.take(r));
  const whoAmI = async (headers: Record<string, string>) =>
    ((await (await t.request('/api/auth/get-session', { headers })).json()) as { user?: { email: string } } | null)?.user?.email ?? null;
  const tokenFor = (headers: Record<string, string>, email: string) =>
    t.request('/api/jwt', { method: 'POST', headers, json: { email } });

  /** Signs up and turns two-factor on through the profile's calls; answers the app's generator. */
  async function userWithTwoFactor(): Promise<{ created: TestUser; totp: OTPAuth.TOTP; backupCodes: string[]; cookie: string }> {
    const created = await t.createUser();
    const jar = new Jar(created.cookie);
    expect((await post(jar, '/api/auth/two-factor/enable', { password: 'Wrong1234' })).status).toBe(400);
    const enabled = await post(jar, '/api/auth/two-factor/enable', { password: created.password });
    expect(enabled.status).toBe(200);
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    const totp = OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP;
    expect(totp.issuer).toBe('Afterglow');
    // Not on until a first code proves the app has the secret.
    expect((await post(jar, '/api/auth/sign-in/email', { email: created.user.email, password: created.password })).status).toBe(200);
    const confirmJar = new Jar(created.cookie);
    expect((await post(confirmJar, '/api/auth/two-factor/verify-totp', { code: wrongCode(totp) })).status).toBe(401);
    expect((await post(confirmJar, '/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
    // Turning it on replaced the session: this is the signed-in cookie now.
    return { created, totp, backupCodes, cookie: confirmJar.header };
  }

  /** The password step alone: no session, no bearer token, only the pending-challenge cookie. */
  async function passwordStep(created: TestUser): Promise<Jar> {
    const jar = new Jar();
    const res = await post(jar, '/api/auth/sign-in/email', { email: created.user.email, password: created.password });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(jar.has('session_token')).toBe(false);
    expect(jar.has('two_factor')).toBe(true);
    const leaked = res.headers.get('set-auth-token');
    if (leaked) expect(await whoAmI({ authorization: `Bearer ${leaked}` })).toBeNull();
    expect(await whoAmI({ cookie: jar.header })).toBeNull();
    expect((await tokenFor({ cookie: jar.header }, created.user.email)).status).toBe(401);
    return jar;
  }

  const lastLogin = async (created: TestUser, cookie: string) =>
    ((await (await t.request(`/api/update/${encodeURIComponent(created.user.email)}`, { headers: { cookie } })).json()) as { lastLoginAt: string | null }).lastLoginAt;

  it('asks a password sign-in for the app code; the password alone gives no session and no bearer token', async () => {
    const { created, totp, cookie } = await userWithTwoFactor();
    const before = await lastLogin(created, cookie);
    expect(before).not.toBeNull();
    const jar = await passwordStep(created);
    // The password alone is not a sign-in: the profile's "last login" does not move.
    expect(await lastLogin(created, cookie)).toBe(before);
    const wrong = await post(jar, '/api/auth/two-factor/verify-totp', { code: wrongCode(totp) });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { code: string }).code).toBe('INVALID_CODE');
    const ok = await post(jar, '/api/auth/two-factor/verify-totp', { code: totp.generate() });
    expect(ok.status).toBe(200);
    expect(await whoAmI({ cookie: jar.header })).toBe(created.user.email);
    const bearer = ok.headers.get('set-auth-token')!;
    expect(await whoAmI({ authorization: `Bearer ${bearer}` })).toBe(created.user.email);
    expect((await tokenFor({ cookie: jar.header }, created.user.email)).status).toBe(200);
  });

  it('takes each recovery code once', async () => {
    const { created, backupCodes } = await userWithTwoFactor();
    const first = await passwordStep(created);
    expect((await post(first, '/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] })).status).toBe(200);
    expect(await whoAmI({ cookie: first.header })).toBe(created.user.email);
    const again = await passwordStep(created);
    const reused = await post(again, '/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] });
    expect(reused.status).toBe(401);
    expect(await whoAmI({ cookie: again.header })).toBeNull();
    expect((await post(again, '/api/auth/two-factor/verify-backup-code', { code: backupCodes[1] })).status).toBe(200);
    console.log(`two-factor (${dialect}): password alone → no session, no bearer; TOTP code signs in; recovery code works once (2nd use refused)`);
  });

  it('turns off with the password only', async () => {
    const { created, totp } = await userWithTwoFactor();
    const jar = await passwordStep(created);
    await post(jar, '/api/auth/two-factor/verify-totp', { code: totp.generate() });
    expect((await post(jar, '/api/auth/two-factor/disable', { password: 'Wrong1234' })).status).toBe(400);
    expect((await post(jar, '/api/auth/two-factor/disable', { password: created.password })).status).toBe(200);
    const plain = new Jar();
    const res = await post(plain, '/api/auth/sign-in/email', { email: created.user.email, password: created.password });
    expect(((await res.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBeUndefined();
    expect(await whoAmI({ cookie: plain.header })).toBe(created.user.email);
  });
});
