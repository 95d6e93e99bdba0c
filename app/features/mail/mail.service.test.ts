import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { titledBlogInput as blogInput } from '#test/blog-inputs';
import { createBlog, updateBlog } from '~/features/blogs/blogs.service.server';
import { followWriter, listFollowing, unfollowWriter, followStateForWriter } from '~/features/follows/follows.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import type { TestUser } from '#test/test-app';
import { claimMailBatch, digestPeriod, prepareDailyDigest, recordMailOutcome } from './mail.service.server';
import { readMailToken, signMailToken } from './mail-token.server';
import { confirmSubscription, describeMailLink, setNewsletterDelivery, subscribe, unsubscribeByLink } from '~/features/newsletter/newsletter.service.server';

describeOnDialects('newsletter sending on %s', (t, dialect) => {
  let writer: TestUser;
  let reader: TestUser;
  let secret: string;
  const at = (iso: string): ServiceContext => ({ ...t.context(null), now: () => new Date(iso) });
  // What the changes so far set in motion: the announcement is queued by the "blog.published" job.
  const queueFor = async (messageKey: string) =>
    (await t.runJobs()) &&
    t.deps.database.db
      .selectFrom('mail_queue as q')
      .innerJoin('mail_messages as m', 'm.id', 'q.message_id')
      .select(['q.email', 'q.stream', 'q.status'])
      .where('m.key', '=', messageKey)
      .orderBy('q.email')
      .execute();

  beforeAll(async () => {
    secret = t.deps.config.SESSION_SECRET;
    writer = await t.createUser({ name: 'Writer' });
    reader = await t.createUser({ name: 'Reader' });
  });

  it('double opt-in: a new address gets only a confirmation until it confirms', async () => {
    const ctx = t.context(null);
    expect(await subscribe(ctx, { email: 'Dusk@Example.com' })).toEqual({ message: MESSAGES.subscribeSuccessMessage, confirmationSent: true });
    await expect(subscribe(ctx, { email: 'dusk@example.com' })).rejects.toMatchObject({ code: 'conflict', message: MESSAGES.alreadySubscribedMessage });
    const subscriber = await t.deps.database.db.selectFrom('subscribers').selectAll().where('email', '=', 'dusk@example.com').executeTakeFirstOrThrow();
    expect(subscriber.confirmed_at).toBeNull();
    expect(await queueFor(`confirm:${subscriber.id}`)).toEqual([{ email: 'dusk@example.com', stream: 'confirm', status: 'queued' }]);

    const { id: blogA } = { id: (await createBlog(t.context(writer.user), blogInput('Before confirming'))).insertedId };
    expect(await queueFor(`post:${blogA}`)).toEqual([]);

    await expect(confirmSubscription(ctx, secret, 'forged.token')).rejects.toMatchObject({ code: 'not_found' });
    await expect(confirmSubscription(ctx, secret, signMailToken('another-secret-that-is-long-enough!!', { kind: 'confirm', subscriberId: subscriber.id }))).rejects.toMatchObject({ code: 'not_found' });
    const confirmed = await confirmSubscription(ctx, secret, signMailToken(secret, { kind: 'confirm', subscriberId: subscriber.id }));
    expect(confirmed.email).toBe('dusk@example.com');
    expect(readMailToken(secret, confirmed.manageToken)).toEqual({ kind: 'newsletter', subscriberId: subscriber.id });

    const { insertedId: blogB } = await createBlog(t.context(writer.user), blogInput('After confirming'));
    expect(await queueFor(`post:${blogB}`)).toEqual([{ email: 'dusk@example.com', stream: 'newsletter', status: 'queued' }]);
  });

  it('the announcement goes to whoever had confirmed or followed when the blog was published, however late its job runs', async () => {
    const ctx = t.context(null);
    await subscribe(ctx, { email: 'late@example.com' });
    const late = await t.deps.database.db.selectFrom('subscribers').select('id').where('email', '=', 'late@example.com').executeTakeFirstOrThrow();
    const latecomer = await t.createUser({ name: 'Latecomer' });
    await t.runJobs();
    const { insertedId: blog } = await createBlog(t.context(writer.user), blogInput('Published before they came'));
    // Before the announcement's job runs, the address is confirmed and a reader follows the writer.
    await new Promise((r) => setTimeout(r, 5));
    await confirmSubscription(ctx, secret, signMailToken(secret, { kind: 'confirm', subscriberId: late.id }));
    await followWriter(t.context(latecomer.user), writer.user.id);
    const emails = (await queueFor(`post:${blog}`)).map((r) => r.email);
    expect(emails).not.toContain('late@example.com');
    expect(emails).not.toContain(latecomer.user.email.toLowerCase());
    const { insertedId: next } = await createBlog(t.context(writer.user), blogInput('Published after they came'));
    expect((await queueFor(`post:${next}`)).map((r) => r.email)).toEqual(expect.arrayContaining(['late@example.com', latecomer.user.email.toLowerCase()]));
    await unfollowWriter(t.context(latecomer.user), writer.user.id);
    await unsubscribeByLink(ctx, secret, signMailToken(secret, { kind: 'newsletter', subscriberId: late.id }));
  });

  it('announces a blog once: created Public, or Hidden made Public; never on edits', async () => {
    const ctx = t.context(writer.user);
    const { insertedId: hidden } = await createBlog(ctx, blogInput('A draft', 'Hidden'));
    expect(await queueFor(`post:${hidden}`)).toEqual([]);
    await updateBlog(ctx, hidden, { title: 'Still a draft' });
    expect(await queueFor(`post:${hidden}`)).toEqual([]);
    await updateBlog(ctx, hidden, { availability: 'Public' });
    expect(await queueFor(`post:${hidden}`)).toHaveLength(1);
    await updateBlog(ctx, hidden, { availability: 'Hidden' });
    await updateBlog(ctx, hidden, { availability: 'Public' });
    await updateBlog(ctx, hidden, { title: 'Edited after publishing' });
    const messages = await t.deps.database.db.selectFrom('mail_messages').select('id').where('key', '=', `post:${hidden}`).execute();
    expect(messages).toHaveLength(1);
    expect(await queueFor(`post:${hidden}`)).toHaveLength(1);
  });

  it('a signed-in reader subscribing their verified account email skips the confirmation', async () => {
    const verified = await t.createUser();
    await t.deps.database.db.updateTable('user').set({ emailVerified: dialect === 'postgres' ? true : 1 }).where('id', '=', verified.user.id).execute();
    expect((await subscribe(t.context(verified.user), { email: verified.user.email })).confirmationSent).toBe(false);
    const unverified = await t.createUser();
    expect((await subscribe(t.context(unverified.user), { email: unverified.user.email })).confirmationSent).toBe(true);
    expect((await subscribe(t.context(unverified.user), { email: 'someone-else@example.com' })).confirmationSent).toBe(true);
  });

  it('follows: a follower gets the writer’s new posts, a non-follower does not, unfollowing stops it', async () => {
    const stranger = await t.createUser();
    await expect(followWriter(t.context(writer.user), writer.user.id)).rejects.toMatchObject({ code: 'bad_request', message: MESSAGES.followSelf });
    await expect(followWriter(t.context(null), writer.user.id)).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(followWriter(t.context(reader.user), 'no-such-writer')).rejects.toMatchObject({ code: 'not_found' });
    await followWriter(t.context(reader.user), writer.user.id);
    await followWriter(t.context(reader.user), writer.user.id);
    expect(await listFollowing(t.context(reader.user))).toMatchObject([{ writerId: writer.user.id, name: 'Writer', delivery: 'post' }]);

    const { insertedId: first } = await createBlog(t.context(writer.user), blogInput('For followers'));
    expect(await followStateForWriter(t.context(reader.user), writer.user.id)).toEqual({ writerId: writer.user.id, following: true });
    expect(await followStateForWriter(t.context(stranger.user), writer.user.id)).toEqual({ writerId: writer.user.id, following: false });
    expect(await followStateForWriter(t.context(writer.user), writer.user.id)).toBeNull();
    const rows = await queueFor(`post:${first}`);
    expect(rows.filter((r) => r.stream === 'follow').map((r) => r.email)).toEqual([reader.user.email.toLowerCase()]);

    await unfollowWriter(t.context(reader.user), writer.user.id);
    const { insertedId: second } = await createBlog(t.context(writer.user), blogInput('After unfollowing'));
    expect((await queueFor(`post:${second}`)).filter((r) => r.stream === 'follow')).toEqual([]);
  });

  it('a follower’s mail link ends that follow, or every follow, once the event has run', async () => {
    const other = await t.createUser({ name: 'Other' });
    const fan = await t.createUser({ name: 'Fan' });
    await followWriter(t.context(fan.user), writer.user.id);
    await followWriter(t.context(fan.user), other.user.id);
    const ctx = t.context(null);
    const one = signMailToken(secret, { kind: 'follow', followerId: fan.user.id, writerId: writer.user.id });
    expect(await unsubscribeByLink(ctx, secret, one)).toEqual({ kind: 'follow', writerName: 'Writer' });
    await t.runJobs();
    expect((await listFollowing(t.context(fan.user))).map((f) => f.writerId)).toEqual([other.user.id]);
    expect(await unsubscribeByLink(ctx, secret, signMailToken(secret, { kind: 'follows', followerId: fan.user.id }))).toEqual({ kind: 'follows' });
    await t.runJobs();
    expect(await listFollowing(t.context(fan.user))).toEqual([]);
  });

  it('one-click unsubscribe by link ends that subscription only, and twice is fine', async () => {
    const ctx = t.context(null);
    const ids: string[] = [];
    for (const email of ['keep@example.com', 'leave@example.com']) {
      await subscribe(ctx, { email });
      const row = await t.deps.database.db.selectFrom('subscribers').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      await confirmSubscription(ctx, secret, signMailToken(secret, { kind: 'confirm', subscriberId: row.id }));
      ids.push(row.id);
    }
    const token = signMailToken(secret, { kind: 'newsletter', subscriberId: ids[1]! });
    expect(await describeMailLink(ctx, secret, token)).toEqual({ kind: 'newsletter', email: 'leave@example.com', delivery: 'post' });
    expect(await unsubscribeByLink(ctx, secret, token)).toEqual({ kind: 'newsletter', email: 'leave@example.com' });
    expect(await unsubscribeByLink(ctx, secret, token)).toEqual({ kind: 'newsletter', email: undefined });
    expect(await describeMailLink(ctx, secret, token)).toEqual({ kind: 'gone' });
    const left = await t.deps.database.db.selectFrom('subscribers').select('email').where('id', 'in', ids).execute();
    expect(left).toEqual([{ email: 'keep@example.com' }]);
    await expect(unsubscribeByLink(ctx, secret, `${token}x`)).rejects.toMatchObject({ code: 'not_found', message: MESSAGES.mailLinkInvalid });
  });

  it('digest readers get one mail a day with that day’s posts, not one per post', async () => {
    const ctx = t.context(null);
    await subscribe(ctx, { email: 'daily@example.com' });
    const row = await t.deps.database.db.selectFrom('subscribers').select('id').where('email', '=', 'daily@example.com').executeTakeFirstOrThrow();
    await confirmSubscription(ctx, secret, signMailToken(secret, { kind: 'confirm', subscriberId: row.id }));
    await setNewsletterDelivery(ctx, { secret, token: signMailToken(secret, { kind: 'newsletter', subscriberId: row.id }) }, 'digest');
    const writerAt = (iso: string) => ({ ...at(iso), user: writer.user });
    const { insertedId: blog } = await createBlog(writerAt('2031-03-04T10:00:00.000Z'), blogInput('A digest day'));
    expect((await queueFor(`post:${blog}`)).map((r) => r.email)).not.toContain('daily@example.com');

    expect(digestPeriod(new Date('2031-03-05T06:59:00.000Z'), 7).day).toBe('2031-03-04');
    expect(await prepareDailyDigest(at('2031-03-05T07:30:00.000Z'), 7)).toMatchObject({ day: '2031-03-05', queued: 1 });
    expect(await prepareDailyDigest(at('2031-03-05T09:00:00.000Z'), 7)).toBeNull();
    expect(await queueFor('digest:2031-03-05')).toEqual([{ email: 'daily@example.com', stream: 'newsletter', status: 'queued' }]);
    expect(await prepareDailyDigest(at('2031-03-06T07:30:00.000Z'), 7)).toEqual({ day: '2031-03-06', queued: 0 });
  });

  it('claims atomically: concurrent workers never get the same row; outcomes are recorded', async () => {
    const ctx = at('2040-01-01T00:00:00.000Z');
    const claims = await Promise.all(['w1', 'w2', 'w3'].map((worker) => claimMailBatch(ctx, { worker, limit: 3, leaseMs: 60_000 })));
    const ids = claims.flatMap((c) => c.mails.map((m) => m.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    const [first] = claims.flatMap((c) => c.mails);
    expect(await recordMailOutcome(ctx, first!, { type: 'retry', error: '451' }, 1000)).toBe('retry');
    expect(await recordMailOutcome(ctx, { ...first!, attempts: 99 }, { type: 'retry', error: '451' }, 1000)).toBe('failed');
    // A lease that ran out (its worker died) is claimed again by another.
    const later = at('2040-01-01T00:02:00.000Z');
    const retaken = await claimMailBatch(later, { worker: 'w4', limit: 100, leaseMs: 60_000 });
    expect(retaken.mails.map((m) => m.id)).toEqual(expect.arrayContaining(ids.filter((id) => id !== first!.id)));
  });

  it('a post mail carries the whole post, or the teaser its writer chose (docs/decisions/066)', async () => {
    const author = await t.createUser({ name: 'Body Writer' });
    const follower = await t.createUser({ name: 'Body Reader' });
    await followWriter(t.context(follower.user), author.user.id);
    const whole = (await createBlog(t.context(author.user), { ...blogInput('Whole post'), long_description: 'The **whole** of it.' })).insertedId;
    const teaser = (await createBlog(t.context(author.user), { ...blogInput('Teaser post'), long_description: 'Not mailed.', mail: 'teaser' })).insertedId;
    await t.runJobs();
    const batch = await claimMailBatch(at('2040-02-01T00:00:00.000Z'), { worker: 'body', limit: 1000, leaseMs: 60_000 });
    const mailed = (id: string) => batch.mails.find((m) => m.email === follower.user.email.toLowerCase() && m.blogs[0]?.id === id)?.blogs[0];
    expect(mailed(whole)?.body).toEqual({ html: '<p>The <strong>whole</strong> of it.</p>\n', markdown: 'The **whole** of it.' });
    expect(mailed(teaser)).toMatchObject({ title: 'Teaser post' });
    expect(mailed(teaser)?.body).toBeUndefined();
    // The writer may change her mind before it goes out: asked again when each mail is claimed.
    await updateBlog(t.context(author.user), teaser, { mail: 'post' });
    const row = await t.deps.database.db.selectFrom('blogs').select('mail_teaser').where('id', '=', teaser).executeTakeFirstOrThrow();
    expect(Number(row.mail_teaser)).toBe(0);
  });
});
