import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { blockRemote, listRemoteBlocks, unblockRemote } from './federation.service.server';
import { followRemoteAccount, listRemoteFollowing, listRemoteFollowingPosts } from './remote-following.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, serveTestApp, writerAndModerator } from '#test/fedi-instance';
import type { TestUser } from '#test/test-app';
import { PUBLIC_BLOG } from '#test/public-blog';

/**
 * A block made after follows (docs/decisions/089): here ("Dawn") a moderator blocks an account,
 * then the whole server ("Dusk"), that readers here follow and whose readers follow a writer
 * here. Our readers' follows of it end with an Undo there and its posts leave /following; its
 * followers of our writers are forgotten, so nothing goes there again; lifting the block brings
 * nothing back.
 */
describe.each(TEST_DIALECTS)('blocking what readers follow (%s)', (dialect) => {
  let dusk: ServedTestApp;
  let dawn: ServedTestApp;
  let wren: TestUser;
  let wade: TestUser;
  let ari: TestUser;
  let rhea: TestUser;
  let bo: TestUser;
  let moderator: TestUser;
  let duskHost: string;
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      await dusk.t.runJobs();
      await dawn.t.runJobs();
    }
  };
  const publish = async (site: ServedTestApp, writer: TestUser, title: string) => {
    await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title } as never);
    await settle();
  };
  const rheaFollows = async () => (await listRemoteFollowing(dawn.t.context(rhea.user))).map((f) => f.handle).sort();
  const rheaReads = async () => (await dawn.t.deps.database.db.selectFrom('remote_posts').select('title').orderBy('title').execute()).map((p) => p.title);
  const followersOnDusk = async (writer: TestUser) => (await dusk.t.deps.database.db.selectFrom('remote_followers').select('actor_uri').where('local_actor', '=', writer.user.id).execute()).map((f) => f.actor_uri);
  const followersOfBo = async () => (await dawn.t.deps.database.db.selectFrom('remote_followers').select('actor_uri').where('local_actor', '=', bo.user.id).execute()).map((f) => f.actor_uri);
  const asModerator = () => dawn.t.context(moderator.user);
  const lift = async () => {
    for (const block of await listRemoteBlocks(asModerator())) await unblockRemote(asModerator(), block.id);
    await settle();
  };

  beforeAll(async () => {
    dusk = await serveTestApp(dialect, { SITE_NAME: 'Dusk' });
    dawn = await serveTestApp(dialect, { SITE_NAME: 'Dawn' });
    duskHost = new URL(dusk.origin).host;
    wren = await dusk.t.createUser({ name: 'Wren Writer' });
    wade = await dusk.t.createUser({ name: 'Wade Writer' });
    ari = await dusk.t.createUser({ name: 'Ari Reader' });
    ({ writer: bo, moderator } = await writerAndModerator(dawn));
    rhea = await dawn.t.createUser({ name: 'Rhea Reader' });
    await followRemoteAccount(dawn.t.context(rhea.user), { account: `@wren_writer@${duskHost}` });
    await followRemoteAccount(dawn.t.context(rhea.user), { account: `@wade_writer@${duskHost}` });
    await followRemoteAccount(dusk.t.context(ari.user), { account: `@ada_lovelace@${new URL(dawn.origin).host}` });
    await settle();
    await publish(dusk, wren, 'Wren at dusk');
    await publish(dusk, wade, 'Wade at dusk');
    await publish(dawn, bo, 'Bo at dawn');
  });
  afterAll(async () => {
    await dawn?.close();
    await dusk?.close();
  });

  it('everything is in place before any block', async () => {
    expect(await rheaFollows()).toEqual([`@wade_writer@${duskHost}`, `@wren_writer@${duskHost}`]);
    expect(await rheaReads()).toEqual(['Wade at dusk', 'Wren at dusk']);
    expect(await followersOnDusk(wren)).toEqual([`${dawn.origin}/ap/actors/${rhea.user.id}`]);
    expect(await followersOfBo()).toEqual([`${dusk.origin}/ap/actors/${ari.user.id}`]);
    expect((await listRemoteFollowingPosts(dusk.t.context(ari.user))).map((p) => p.title)).toEqual(['Bo at dawn']);
  });

  it('blocking one account ends the follows of it, there too, and its posts go; others stay; lifting it restores nothing', async () => {
    await blockRemote(asModerator(), { target: `@wren_writer@${duskHost}`, reason: 'spam' });
    await settle();
    expect(await rheaFollows()).toEqual([`@wade_writer@${duskHost}`]);
    expect(await rheaReads()).toEqual(['Wade at dusk']);
    // The Undo reached Dusk: Wren no longer has Rhea as a follower; Wade still has.
    expect(await followersOnDusk(wren)).toEqual([]);
    expect(await followersOnDusk(wade)).toEqual([`${dawn.origin}/ap/actors/${rhea.user.id}`]);
    expect(await followersOfBo()).toEqual([`${dusk.origin}/ap/actors/${ari.user.id}`]);

    await lift();
    expect(await rheaFollows()).toEqual([`@wade_writer@${duskHost}`]);
    expect(await followersOnDusk(wren)).toEqual([]);
  });

  it('blocking the whole server ends every follow of it and forgets its followers here: a new post goes nowhere there; lifting it restores nothing', async () => {
    await blockRemote(asModerator(), { target: duskHost, reason: 'defederated' });
    // Its followers of our writers are forgotten with the block itself.
    expect(await followersOfBo()).toEqual([]);
    await settle();
    expect(await rheaFollows()).toEqual([]);
    expect(await rheaReads()).toEqual([]);
    expect(await followersOnDusk(wade)).toEqual([]);

    // Deliveries queued for Dusk (the job table keeps those already done): none more after the post.
    const toDusk = async () => (await dawn.t.deps.database.db.selectFrom('jobs').select('payload').where('kind', '=', 'federation:message').execute()).filter((j) => String(j.payload).includes(`"inbox":"${dusk.origin}/`)).length;
    const before = await toDusk();
    expect(before).toBeGreaterThan(0);
    await publish(dawn, bo, 'Bo after the block');
    expect(await toDusk()).toBe(before);
    expect((await listRemoteFollowingPosts(dusk.t.context(ari.user))).map((p) => p.title)).toEqual(['Bo at dawn']);

    await lift();
    expect(await rheaFollows()).toEqual([]);
    expect(await followersOfBo()).toEqual([]);
  });
});
