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
