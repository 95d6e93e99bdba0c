import { Flag } from '@fedify/vocab';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { dismissReport, listModerationQueue } from '~/features/moderation/moderation.service.server';
import { blockRemote, unblockRemote } from './federation.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, useServedAppAndPeer, writerAndModerator } from '#test/fedi-instance';
import type { FediPeer } from '#test/fedi-peer';
import type { TestUser } from '#test/test-app';
import { PUBLIC_BLOG } from '#test/public-blog';

describe.each(TEST_DIALECTS)('reports from other servers (%s)', (dialect) => {
  const pair = useServedAppAndPeer(dialect);
  let site: ServedTestApp;
  let peer: FediPeer;
  let writer: TestUser;
  let moderator: TestUser;
  let writerUri: URL;
  let n = 0;

  beforeAll(async () => {
    site = pair.site();
    peer = pair.peer();
    ({ writer, moderator, writerUri } = await writerAndModerator(site));
  });

  const publish = async (title: string, extra: Record<string, unknown> = {}) => (await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title, ...extra } as never)).insertedId;
  const flag = async (objects: URL[], content: string, from = 'moderators') => {
    const activity = new Flag({ id: new URL(`/flags/${++n}`, peer.origin), actor: peer.actorUri(from), objects, content });
    await peer.federation.createContext(new URL(peer.origin), undefined).sendActivity({ identifier: from }, { id: new URL('/ap/actors/site', site.origin), inboxId: new URL('/ap/inbox', site.origin) }, activity);
    await site.t.runJobs();
  };
  const queue = () => listModerationQueue(site.t.context(moderator.user));
  const host = () => new URL(peer.origin).host;

  it("a Flag of a post lands in the queue as a report from the other server, with its words; the same server's second one adds nothing", async () => {
    const id = await publish('Reported from afar');
    await flag([writerUri, new URL(`/ap/posts/${id}`, site.origin)], 'Spam links everywhere');
    const [item] = (await queue()).filter((i) => i.targetId === id);
    expect(item).toMatchObject({ targetType: 'blog', blogId: id, ownerId: writer.user.id, title: 'Reported from afar' });
    expect(item!.reports).toHaveLength(1);
    expect(item!.reports[0]).toMatchObject({ reporterName: `Reported from ${host()}`, reason: 'Something else', details: 'Spam links everywhere' });
    // The account named beside the post is not reported apart.
    expect((await queue()).filter((i) => i.targetType === 'user')).toEqual([]);

    await flag([new URL(`/blogs/${id}`, site.origin)], 'Again');
    expect((await queue()).find((i) => i.targetId === id)!.reports).toHaveLength(1);
    // A moderator dismisses it like any other.
    await dismissReport(site.t.context(moderator.user), item!.reports[0]!.id, { reason: 'Not spam' });
    expect((await queue()).filter((i) => i.targetId === id)).toEqual([]);
  });

  it('a Flag naming only the writer reports her account; one of a Hidden post, or of nothing here, reports nothing', async () => {
    await flag([writerUri], '<p>Impersonation</p>');
    expect((await queue()).find((i) => i.targetType === 'user' && i.targetId === writer.user.id)?.reports[0]).toMatchObject({ details: 'Impersonation', reporterName: `Reported from ${host()}` });
    const hidden = await publish('Private', { availability: 'Hidden' });
    const before = (await queue()).length;
    await flag([new URL(`/ap/posts/${hidden}`, site.origin), new URL('/notes/1', peer.origin)], 'Hidden');
    expect(await queue()).toHaveLength(before);
  });

  it('a Flag from a blocked server is dropped unread', async () => {
    const id = await publish('Blocked reporter');
    await blockRemote(site.t.context(moderator.user), { target: host(), reason: 'Abuse of reports' });
    await flag([new URL(`/ap/posts/${id}`, site.origin)], 'Blocked');
    expect((await queue()).filter((i) => i.targetId === id)).toEqual([]);
    const blocks = await site.t.deps.database.db.selectFrom('federation_blocks').select('id').execute();
    for (const b of blocks) await unblockRemote(site.t.context(moderator.user), b.id);
  });
});
