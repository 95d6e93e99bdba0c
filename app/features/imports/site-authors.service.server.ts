import { z } from 'zod';
import { approveImportedAccount } from '~/features/moderation/spam-hold.service.server';
import { claimAccountMail, type Mail } from '~/features/users/account-mails';
import { defineJob, enqueueJob } from '~/kernel/jobs.server';
import { AppError } from '~/lib/core/errors';
import type { ServiceContext } from '~/lib/core/service-context';
import type { ImportAuthor, ImportBundle } from './import-model';
import type { ImportOptions, SiteAuthorChoice } from './imports.schema';
import * as repo from './imports.repo.server';

/**
 * The authors of an admin's site import (docs/decisions/083): each source author's posts go to
 * an existing account, to a new one made without a password (its owner gets a link to set one),
 * or nowhere. The same source author maps to the same account in every later import.
 */

/** How long a claim link works: long enough for a mail read after a holiday. */
export const CLAIM_LINK_DAYS = 14;

/** One source author as the review shows her, with what her posts default to. */
export interface AuthorPlan {
  sourceId: string;
  name: string;
  email: string | null;
  posts: number;
  choice: SiteAuthorChoice;
  /** The account the default choice names (an earlier import's, or the one with her email). */
  account: { name: string; email: string } | null;
}

/** What became of a source author, for the report. */
export interface AuthorOutcome {
  name: string;
  posts: number;
  outcome: 'new' | 'existing' | 'skipped';
  account: string | null;
}

/** Whether this run made the account (an earlier part of it, before a retry or a continuation). */
const madeBy = (earlier: { made: string; run_id: string | null } | undefined, runId: string) => earlier?.made === 'new' && earlier.run_id === runId;

/**
 * What the mapping reads of a bundle: its source, its authors and each one's posts. The scan
 * keeps it with the run, so a write part maps authors without the bundle (docs/decisions/091).
 */
export interface BundleOutline {
  source: ImportBundle['source'];
  authors: Pick<ImportAuthor, 'sourceId' | 'name' | 'email'>[];
  /** Source author id → her posts in the bundle. */
  postsByAuthor: Record<string, number>;
}

export function outlineOf(bundle: ImportBundle): BundleOutline {
  const counts = new Map<string, number>();
  for (const post of bundle.posts) if (post.authorSourceId) counts.set(post.authorSourceId, (counts.get(post.authorSourceId) ?? 0) + 1);
  return { source: bundle.source, authors: bundle.authors.map(({ sourceId, name, email }) => ({ sourceId, name, email })), postsByAuthor: Object.fromEntries(counts) };
}

const postsOf = (outline: BundleOutline, sourceId: string) => (Object.hasOwn(outline.postsByAuthor, sourceId) ? outline.postsByAuthor[sourceId]! : 0);

/**
 * Every author with posts and her default: the account an earlier import mapped her onto, else
 * the account with her email, else `options.unmatchedAuthors` (a new account needs an email).
 * An explicit choice in `options.authorChoices` wins.
 */
export async function planAuthors(ctx: Pick<ServiceContext, 'db'>, bundle: BundleOutline, options: ImportOptions): Promise<AuthorPlan[]> {
  const plans: AuthorPlan[] = [];
  for (const author of bundle.authors) {
    const posts = postsOf(bundle, author.sourceId);
    if (posts === 0) continue;
    const email = author.email?.trim().toLowerCase() || null;
    const base = { sourceId: author.sourceId, name: author.name, email, posts };
    // The command line names an author by her id, email or name in the archive.
    const chosen = choiceFor(options.authorChoices, author);
    if (chosen) {
      const account = chosen.choice === 'account' ? await repo.findAccountByEmail(ctx.db, chosen.email) : undefined;
      plans.push({ ...base, choice: chosen, account: account ? { name: account.name, email: account.email } : null });
      continue;
    }
    const account = (await repo.findImportAuthor(ctx.db, bundle.source, author.sourceId)) ?? (email ? await repo.findAccountByEmail(ctx.db, email) : undefined);
    if (account) plans.push({ ...base, choice: { choice: 'account', email: account.email }, account: { name: account.name, email: account.email } });
    else plans.push({ ...base, choice: { choice: options.unmatchedAuthors === 'new' && email ? 'new' : 'skip' }, account: null });
  }
  return plans;
}

const keysOf = (author: { sourceId: string; name: string; email: string | null }) => [author.sourceId, author.email?.trim().toLowerCase(), author.name.trim().toLowerCase()].filter((k): k is string => Boolean(k));

function choiceFor(choices: Record<string, SiteAuthorChoice>, author: { sourceId: string; name: string; email: string | null }): SiteAuthorChoice | undefined {
  const byKey = new Map(Object.entries(choices).map(([key, choice]) => [key === author.sourceId ? key : key.trim().toLowerCase(), choice]));
  for (const key of keysOf(author)) if (byKey.has(key)) return byKey.get(key);
  return undefined;
}

/** The choices that name no author of the archive (a mistyped `--author`), for the report. */
export function unknownChoices(bundle: Pick<BundleOutline, 'authors'>, choices: Record<string, SiteAuthorChoice>): string[] {
  const known = new Set(bundle.authors.flatMap(keysOf));
  return Object.keys(choices).filter((key) => !known.has(key) && !known.has(key.trim().toLowerCase()));
}

/** Refuses choices that cannot be carried out, before anything is queued: an unknown account, a new one without an email. */
export async function checkAuthorChoices(ctx: Pick<ServiceContext, 'db'>, authors: { sourceId: string; name: string; email: string | null }[], choices: Record<string, SiteAuthorChoice>): Promise<void> {
  for (const [sourceId, choice] of Object.entries(choices)) {
    const author = authors.find((a) => a.sourceId === sourceId);
    if (!author) throw new AppError('bad_request', 'That author is not in this archive.');
    if (choice.choice === 'account' && !(await repo.findAccountByEmail(ctx.db, choice.email))) throw new AppError('bad_request', `No account has the email ${choice.email} (for ${author.name}).`);
    if (choice.choice === 'new' && !author.email) throw new AppError('bad_request', `${author.name} has no email in the archive, so no new account can be made: choose an existing account or leave these posts out.`);
  }
}

/**
 * The accounts the posts go to, made where the plan says so: a new account has no password, is
 * approved by the admin (no spam hold for her own old posts) and is mailed a link to set a
 * password by the claim job. Safe to run again (a later part of the run, a retried job): an
 * author mapped once keeps her account, and an account this import made but could not record
 * (no sign-in method yet, no mapping) is taken up again rather than made twice.
 */
export async function resolveAuthors(
  ctx: ServiceContext,
  run: { id: string; adminId: string },
  bundle: BundleOutline,
  options: ImportOptions,
): Promise<{ accounts: Record<string, string>; skip: Set<string>; outcomes: AuthorOutcome[] }> {
  const accounts: Record<string, string> = {};
  const skip = new Set<string>();
  const outcomes: AuthorOutcome[] = [];
  for (const plan of await planAuthors(ctx, bundle, options)) {
    const line = { name: plan.name, posts: plan.posts };
    const earlier = await repo.findImportAuthor(ctx.db, bundle.source, plan.sourceId);
    if (plan.choice.choice === 'skip') {
      skip.add(plan.sourceId);
      outcomes.push({ ...line, outcome: 'skipped', account: null });
      continue;
    }
    if (plan.choice.choice === 'account') {
      const account = await repo.findAccountByEmail(ctx.db, plan.choice.email);
      if (!account) {
        skip.add(plan.sourceId);
        outcomes.push({ ...line, outcome: 'skipped', account: null });
        continue;
      }
      await repo.insertImportAuthor(ctx.db, { source: bundle.source, source_id: plan.sourceId, user_id: account.id, made: 'existing', run_id: run.id, created_at: ctx.now().toISOString() });
      accounts[plan.sourceId] = account.id;
      outcomes.push({ ...line, outcome: madeBy(earlier, run.id) && earlier!.id === account.id ? 'new' : 'existing', account: account.name });
      continue;
    }
    if (earlier) {
      accounts[plan.sourceId] = earlier.id;
      outcomes.push({ ...line, outcome: madeBy(earlier, run.id) ? 'new' : 'existing', account: earlier.name });
      continue;
    }
    const email = plan.email!;
    const found = await repo.findAccountByEmail(ctx.db, email);
    // An account of that email that can sign in is someone's own: her posts go there, and no mail.
    if (found && (await repo.hasSignInMethod(ctx.db, found.id))) {
      await repo.insertImportAuthor(ctx.db, { source: bundle.source, source_id: plan.sourceId, user_id: found.id, made: 'existing', run_id: run.id, created_at: ctx.now().toISOString() });
      accounts[plan.sourceId] = found.id;
      outcomes.push({ ...line, outcome: 'existing', account: found.name });
      continue;
    }
    const account = found ?? { ...(await ctx.auth.createPasswordlessAccount({ email, name: plan.name })), name: plan.name };
    await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      if (!(await repo.insertImportAuthor(trx, { source: bundle.source, source_id: plan.sourceId, user_id: account.id, made: 'new', run_id: run.id, created_at: ctx.now().toISOString() }))) return;
      await approveImportedAccount(tx, account.id, run.adminId);
      await enqueueJob(tx, claimMailJobKind, { userId: account.id, posts: plan.posts }, { key: `import-claim:${account.id}` });
    });
    accounts[plan.sourceId] = account.id;
    outcomes.push({ ...line, outcome: 'new', account: account.name });
  }
  return { accounts, skip, outcomes };
}

const ClaimPayload = z.object({ userId: z.string(), posts: z.number().int().min(0) });

/** The kind and payload the claim job is queued by (the job itself needs the mail transport: `claimMailJob`). */
const claimMailJobKind = { kind: 'import-claim-mail', payload: ClaimPayload };

/**
 * The claim mail of an account a site import made: a fresh link to set a password (better-auth's
 * reset token, CLAIM_LINK_DAYS long), sent once. An account that can sign in already (it was
 * claimed, or its owner signed in with a provider) gets none.
 */
export function claimMailJob(settings: { SITE_NAME: string }, send: (mail: Mail) => Promise<void>) {
  return defineJob({
    ...claimMailJobKind,
    maxAttempts: 5,
    retryMs: 60_000,
    run: async (ctx, { userId, posts }) => {
      const account = await repo.findAccountById(ctx.db, userId);
      if (!account || (await repo.hasSignInMethod(ctx.db, userId))) return;
      const url = await ctx.auth.passwordLink(userId, CLAIM_LINK_DAYS * 86_400);
      await send(claimAccountMail(settings.SITE_NAME, account, { url, posts, days: CLAIM_LINK_DAYS }));
    },
  });
}
