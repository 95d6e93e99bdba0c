import { afterAll, describe, expect, it } from 'vitest';
import type { MailBlog, QueuedMail } from './mail.service.server';
import { tempDirs } from '#test/temp-dirs';
import { loadConfig } from '#server/config.server';
import { renderQueuedMail } from './mail-templates.server';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const STORED = '0f0e0d0c-0b0a-4900-8800-010203040506-1600.webp';
const blog = (id: string, photo: string | null): MailBlog => ({ id, title: `Blog ${id}`, shortDescription: 'Short.', photo, category: 'Personal', writerName: 'Writer' });
const mail = (kind: 'post' | 'digest', blogs: MailBlog[]): QueuedMail => ({
  id: 'm1',
  messageId: 'msg1',
  email: 'reader@example.org',
  kind,
  stream: 'newsletter',
  attempts: 0,
  blogs,
  confirm: null,
  unsubscribe: { kind: 'newsletter', subscriberId: 's1' },
  notices: [],
});
const images = (html = '') => [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);

describe('pictures in newsletter and follow mails (docs/decisions/050)', () => {
  const base = { SESSION_SECRET: 's'.repeat(40), PUBLIC_URL: 'https://blog.example.org' };

  it('embed only a photo of our own store; a blog saved with another address goes without one', () => {
    const config = loadConfig({ ...base, DATA_DIR: dirs.make('mail-templates-') });
    const ours = renderQueuedMail(config, mail('post', [blog('a', `/uploads/${STORED}`)]));
    expect(images(ours.html)).toEqual([`https://blog.example.org/uploads/${STORED}`]);
    const digest = renderQueuedMail(
      config,
      mail('digest', [blog('b', 'https://tracker.example/pixel.gif?who=reader'), blog('c', `/uploads/${STORED}`), blog('d', '/uploads/not-a-stored-name.webp'), blog('e', null)]),
    );
    expect(images(digest.html)).toEqual([`https://blog.example.org/uploads/${STORED}`]);
    expect(digest.html ?? '').not.toContain('tracker.example');
    // The blog itself is still in the mail, only its picture is left out.
    expect(digest.html ?? '').toContain('Blog b');
  });

  it('with S3 storage, embed the bucket’s own images as they are, and nothing else', () => {
    const config = loadConfig({ ...base, DATA_DIR: dirs.make('mail-templates-s3-'), S3_ENDPOINT: 'https://s3.example.org', S3_BUCKET: 'photos', S3_PUBLIC_URL: 'https://cdn.example.org/photos' });
    const html = renderQueuedMail(config, mail('digest', [blog('a', `https://cdn.example.org/photos/${STORED}`), blog('b', `https://cdn.example.org/elsewhere/${STORED}`)])).html;
    expect(images(html)).toEqual([`https://cdn.example.org/photos/${STORED}`]);
  });
});

describe('the confirmation of an address an import brought (docs/decisions/090)', () => {
  const config = () => loadConfig({ SESSION_SECRET: 's'.repeat(40), PUBLIC_URL: 'https://blog.example.org', DATA_DIR: dirs.make('mail-moved-') });
  const confirmation = (moved: QueuedMail['moved']): QueuedMail => ({
    ...mail('post', []),
    kind: 'confirm',
    stream: 'confirm',
    confirm: { kind: 'confirm', subscriberId: 's1' },
    ...(moved ? { moved } : {}),
  });

  it('tells the move by the writer, escaped in the HTML, or by a writer of the site when the account is gone', () => {
    const site = config().SITE_NAME;
    const named = renderQueuedMail(config(), confirmation({ source: 'substack', writerName: 'Ann <b>& co' }));
    expect(named.subject).toBe(`Your newsletter from Substack has moved to ${site}`);
    expect(named.text).toContain(`Ann <b>& co moved their newsletter here, to ${site}, from Substack, and your address came with it.\nConfirm to keep receiving it: https://blog.example.org/mail/confirm/`);
    expect(named.html).toContain('Ann &#60;b&#62;&#38; co moved their newsletter here');
    expect(named.html).not.toContain('<b>');
    const gone = renderQueuedMail(config(), confirmation({ source: 'ghost', writerName: null }));
    expect(gone.text).toContain(`A writer on ${site} moved their newsletter here, to ${site}, from Ghost, and your address came with it.`);
    expect(gone.text).toContain('If you ignore this mail, nothing happens: nothing more will be sent to you.');
  });

  it('tells a whole site’s move by the old site, not the admin who imported it (docs/decisions/095)', () => {
    const site = config().SITE_NAME;
    const named = renderQueuedMail(config(), confirmation({ source: 'ghost', writerName: 'Ada Admin', site: 'The <Old> Gazette' }));
    expect(named.subject).toBe(`Your newsletter from The <Old> Gazette has moved to ${site}`);
    expect(named.text).toContain(`The <Old> Gazette moved its newsletter here, to ${site}, from Ghost, and your address came with it.\nConfirm to keep receiving it: https://blog.example.org/mail/confirm/`);
    expect(named.html).toContain('The &#60;Old&#62; Gazette moved its newsletter here');
    expect(`${named.subject} ${named.text} ${named.html}`).not.toContain('Ada Admin');
    // An archive that names neither its title nor its address.
    const unnamed = renderQueuedMail(config(), confirmation({ source: 'substack', writerName: 'Ada Admin', site: '' }));
    expect(unnamed.subject).toBe(`Your newsletter from Substack has moved to ${site}`);
    expect(unnamed.text).toContain(`The site whose newsletter you took on Substack moved it here, to ${site}, and your address came with it.`);
    expect(unnamed.text).not.toContain('Ada Admin');
  });

  it('leaves a sign-up’s confirmation in the newsletter’s own words', () => {
    const own = renderQueuedMail(config(), confirmation(undefined));
    expect(own.subject).toBe(`Confirm your subscription to ${config().SITE_NAME}`);
    expect(own.text).toMatch(/^Someone, hopefully you, asked for the .* newsletter at this address\.\nConfirm it: https:\/\/blog\.example\.org\/mail\/confirm\/\S+\n\nIgnore this mail and nothing more will be sent\./);
    expect(own.html).not.toContain('moved');
  });
});
