import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listExports, openExport, requestExport } from '~/features/exports/exports.service.server';
import { followRemoteAccount, listRemoteFollowing } from '~/features/federation/remote-following.service.server';
import { REMOTE_FOLLOWING_TEXTS } from '~/lib/texts/remote-following';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, serveTestApp } from '#test/fedi-instance';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import { savedDownload } from '#test/zip';
import { openArchive } from './archive.server';
import { readBundle } from './imports-readers.server';
import { writeBundle } from './imports.service.server';
import { ImportOptionsSchema } from './imports.schema';

/**
 * A writer's follows of accounts on other servers move with her (docs/decisions/089): her export
 * names them (handle, actor address, since), and importing it on another site asks each again
 * from her new actor there; a site with federation off lists them in the report instead.
 */
describe.each(TEST_DIALECTS)('remote follows exported and imported again (%s)', (dialect) => {
  let a: ServedTestApp;
  let b: ServedTestApp;
  let c: ServedTestApp;
  let d: TestApp;
  let wren: TestUser;
  let rhea: TestUser;
  const settle = async () => {
    for (let i = 0; i < 4; i++) for (const site of [a, b, c]) await site.t.runJobs();
  };

  beforeAll(async () => {
    [a, b, c] = await Promise.all([serveTestApp(dialect, { SITE_NAME: 'Dusk' }), serveTestApp(dialect, { SITE_NAME: 'Dawn' }), serveTestApp(dialect, { SITE_NAME: 'Noon' })]);
    d = await createTestApp(dialect);
    wren = await a.t.createUser({ name: 'Wren Writer' });
    rhea = await b.t.createUser({ name: 'Rhea Reader' });
    await followRemoteAccount(b.t.context(rhea.user), { account: `@wren_writer@${new URL(a.origin).host}` });
    await settle();
  });
  afterAll(async () => {
    await d?.close();
    await Promise.all([a, b, c].map((site) => site?.close()));
  });

  const exported = async () => {
    const ctx = b.t.context(rhea.user);
    const asked = await requestExport(ctx, b.t.deps.config, 'writer');
    await b.t.runJobs(new Date());
    const view = (await listExports(ctx, b.t.deps.config)).find((e) => e.id === asked.id)!;
    const [, , id, token] = view.downloadUrl!.split('/');
    return savedDownload(await openExport(ctx, b.t.deps.config, id!, token!));
  };
  const imported = async (file: string, site: TestApp, user: TestUser) => {
    const entries = await openArchive(file);
    try {
      return (await writeBundle(site.context(user.user), user.user.id, await readBundle(entries), entries, ImportOptionsSchema.parse({}))).report;
    } finally {
      await entries.close();
    }
  };

  it('the export names each followed account; the import follows it again from the new site, once', async () => {
    const file = await exported();
    const since = (await listRemoteFollowing(b.t.context(rhea.user)))[0]!.since;
    const wrenUri = `${a.origin}/ap/actors/${wren.user.id}`;
    const entries = await openArchive(file);
    const json = JSON.parse((await entries.read('remote-follows.json')).toString('utf8'));
    await entries.close();
    expect(json).toEqual([{ handle: `@wren_writer@${new URL(a.origin).host}`, actor_uri: wrenUri, since }]);

    const ivy = await c.t.createUser({ name: 'Ivy Importer' });
    const report = await imported(file, c.t, ivy);
    expect(report.remoteFollows).toEqual({ requested: 1, existing: 0, skipped: 0 });
    await settle();
    expect(await listRemoteFollowing(c.t.context(ivy.user))).toEqual([expect.objectContaining({ actorUri: wrenUri, state: 'accepted' })]);
    const followers = await a.t.deps.database.db.selectFrom('remote_followers').select('actor_uri').where('local_actor', '=', wren.user.id).orderBy('actor_uri').execute();
    expect(followers.map((f) => f.actor_uri).sort()).toEqual([`${b.origin}/ap/actors/${rhea.user.id}`, `${c.origin}/ap/actors/${ivy.user.id}`].sort());

    // The same archive again asks nothing new.
    expect((await imported(file, c.t, ivy)).remoteFollows).toEqual({ requested: 0, existing: 1, skipped: 0 });
  });

  it('with federation off, the import lists the followed accounts in its report and follows nobody', async () => {
    const file = await exported();
    const ivy = await d.createUser({ name: 'Ivy Offline' });
    const report = await imported(file, d, ivy);
    expect(report.remoteFollows).toEqual({ requested: 0, existing: 0, skipped: 1 });
    expect(report.skipped).toContainEqual({ item: `followed account @wren_writer@${new URL(a.origin).host} (${a.origin}/ap/actors/${wren.user.id})`, reason: REMOTE_FOLLOWING_TEXTS.importedWhileOff });
    expect(await d.deps.database.db.selectFrom('remote_follows').select('id').execute()).toEqual([]);
  });
});
