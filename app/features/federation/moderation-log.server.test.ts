import { beforeAll, expect, it } from 'vitest';
import { setAdminByOperator, grantModerator, getModerationOverview } from '~/features/moderation/moderation.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { blockRemote, listRemoteBlocks, unblockRemote } from './federation.service.server';

describeOnDialects('blocks on the fediverse in the moderation log (%s)', (t) => {
  let admin: TestUser;
  let mod: TestUser;
  beforeAll(async () => {
    admin = await t.createUser({ name: 'Admin' });
    mod = await t.createUser({ name: 'Mod' });
    await setAdminByOperator(t.context(null), admin.user.email, true);
    await grantModerator(t.context(admin.user), { email: mod.user.email, reason: 'Trusted' });
  });

  it('a block and its lifting read as sentences, with the reason the block gave', async () => {
    await blockRemote(t.context(mod.user), { target: 'spam.example', reason: 'Floods of spam' });
    await blockRemote(t.context(mod.user), { target: 'https://other.example/users/troll', reason: 'Harassment' });
    const [server] = (await listRemoteBlocks(t.context(mod.user))).filter((b) => b.kind === 'instance');
    await unblockRemote(t.context(mod.user), server!.id);
    // Lifting a block that is gone already writes nothing.
    await unblockRemote(t.context(mod.user), server!.id);

    const { log } = await getModerationOverview(t.context(admin.user));
    const lines = log!
      .filter((e) => e.action === 'block' || e.action === 'unblock')
      .map((e) => {
        const { verb, after } = MESSAGES.auditAction(e.action);
        return [`${e.actorName} ${verb} ${MESSAGES.auditTarget(e.targetType, e.targetName)}${after ? ` ${after}` : ''}.`, e.reason, e.targetPath];
      });
    expect(lines).toEqual([
      ['Mod unblocked the server spam.example.', '', '/moderation/fediverse'],
      ['Mod blocked the account https://other.example/users/troll.', 'Harassment', '/moderation/fediverse'],
      ['Mod blocked the server spam.example.', 'Floods of spam', '/moderation/fediverse'],
    ]);
  });
});
