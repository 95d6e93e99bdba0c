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
