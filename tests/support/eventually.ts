/**
 * Waits until `check` holds: a server's own worker delivers a moment after the request (federation
 * between real servers). Fails naming `what` when it never does.
 */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
