import type { BrowserContext } from 'playwright-core';

export interface SignedInUser {
  email: string;
  name: string;
  password: string;
}

let counter = 0;

/**
 * Signs a new user up through the real auth API from inside the browser context, so the
 * session cookie lands in the browser exactly as after a sign-up form.
 */
export async function signUp(
  context: BrowserContext,
  baseUrl: string,
  overrides: Partial<SignedInUser> = {},
): Promise<SignedInUser> {
  counter += 1;
  const user = {
    email: overrides.email ?? `reader${counter}-${Date.now().toString(36)}@example.com`,
    name: overrides.name ?? `Reader ${counter}`,
    password: overrides.password ?? 'Sunset123',
  };
  const res = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, {
    data: user,
    headers: { origin: baseUrl },
  });
  if (!res.ok()) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  return user;
}

export interface ApiSession {
  token: string;
  cookie: string;
}

/**
 * Signs up (or, with `signIn`, back in) over plain HTTP, as a script or second device would,
 * and returns the bearer token and session cookie.
 */
export async function apiSession(
  baseUrl: string,
  user: { email: string; password?: string; name?: string },
  mode: 'sign-up' | 'sign-in' = 'sign-up',
): Promise<ApiSession> {
  const body = { email: user.email, password: user.password ?? 'Sunset123', ...(mode === 'sign-up' ? { name: (user.name ?? 'Reader').slice(0, 100) } : {}) };
  const res = await fetch(`${baseUrl}/api/auth/${mode}/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${mode} failed: ${res.status} ${await res.text()}`);
  return { token: res.headers.get('set-auth-token')!, cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
}
