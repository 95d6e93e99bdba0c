/**
 * Blog drafts kept in this browser (docs/decisions/027): each under its account and the page's
 * address, so one account's draft never fills another's form, and all of them are removed when
 * someone logs out here.
 */
export const DRAFT_PREFIX = 'draft:';

/** The storage key of a draft: the account (its email) and the page's address. */
export const draftKey = (account: string, path: string) => `${DRAFT_PREFIX}${account}:${path}`;

/** Removes every draft kept in this browser, of any account (logging out). */
export function clearDrafts(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(DRAFT_PREFIX)) localStorage.removeItem(key);
  } catch {
    // Storage turned off: nothing was kept.
  }
}
