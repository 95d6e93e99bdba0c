import { Follow, Person, Update } from '@fedify/vocab';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateOwnProfile } from '~/features/users/users.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, useServedAppAndPeer } from '#test/fedi-instance';
import type { FediPeer } from '#test/fedi-peer';
import type { TestUser } from '#test/test-app';

describe.each(TEST_DIALECTS)('a handle follows a rename, the old one stays an alias (%s)', (dialect) => {
  const pair = useServedAppAndPeer(dialect);
  let site: ServedTestApp;
  let peer: FediPeer;
  let writer: TestUser;
  let writerUri: URL;

  beforeAll(async () => {
    site = pair.site();
    peer = pair.peer();
    writer = await site.t.createUser({ name: 'Ada Lovelace' });
    writerUri = new URL(`/ap/actors/${writer.user.id}`, site.origin);
  });

  const finger = async (handle: string) => {
    const res = await fetch(`${site.origin}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${handle}@${new URL(site.origin).host}`)}`);
    if (res.status !== 200) return res.status;
    return ((await res.json()) as { links: { rel: string; href?: string }[] }).links.find((l) => l.rel === 'self')?.href;
  };
  const rename = async (user: TestUser, name: string) => {
    await updateOwnProfile(site.t.context(user.user), user.user.email, { name });
    await site.t.runJobs();
  };
  // Read fresh each time: a peer's lookup would answer from its cache.
  const handleOf = async (uri: URL) => ((await (await fetch(uri, { headers: { accept: 'application/activity+json' } })).json()) as { preferredUsername: string }).preferredUsername;

  it('rename: the new handle and the old one answer WebFinger with the same actor, and followers get the actor again', async () => {
    expect(await finger('ada_lovelace')).toBe(writerUri.href);
    await peer.federation
      .createContext(new URL(peer.origin), undefined)
      .sendActivity({ identifier: 'reader' }, { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) }, new Follow({ id: new URL('#follow', peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri }));
    await site.t.runJobs();

    await rename(writer, 'Ada King');
    expect(await finger('ada_king')).toBe(writerUri.href);
    expect(await finger('ada_lovelace')).toBe(writerUri.href);
    expect(await handleOf(writerUri)).toBe('ada_king');
    const updates = peer.received.filter((a): a is Update => a instanceof Update);
    expect(updates).toHaveLength(1);
    const sent = await updates[0]!.getObject();
    expect(sent).toBeInstanceOf(Person);
    expect(sent?.id?.href).toBe(writerUri.href);
    expect((sent as Person).preferredUsername?.toString()).toBe('ada_king');

    // A change that keeps the name's handle moves nothing; back to the first name takes her old handle back.
    await rename(writer, 'ADA KING');
    expect(peer.received.filter((a) => a instanceof Update)).toHaveLength(1);
    await rename(writer, 'Ada Lovelace');
    expect(await handleOf(writerUri)).toBe('ada_lovelace');
    expect(await finger('ada_king')).toBe(writerUri.href);
  });

  it('a handle once given is never another person’s: a newcomer renamed to that name gets a numbered one', async () => {
    const other = await site.t.createUser({ name: 'Someone Else' });
    const otherUri = new URL(`/ap/actors/${other.user.id}`, site.origin);
    expect(await finger('someone_else')).toBe(otherUri.href);
    await rename(other, 'Ada King');
    expect(await finger('ada_king')).toBe(writerUri.href);
    expect(await finger('ada_king2')).toBe(otherUri.href);
    expect(await finger('someone_else')).toBe(otherUri.href);
  });
});
