import { type ImageStoreConfig, ownImageBases, ownPhoto } from '~/features/images/images.service.server';
import { blogPathOf } from '~/features/blogs/blog-path';
import { importSourceName } from '~/lib/texts/imports';
import type { MailBlog, QueuedMail } from './mail.service.server';
import { signMailToken } from './mail-token.server';
import { mailBodyHtml } from './mail-body.server';

/** The settings a mail's text and links depend on (server/config.server.ts validates them). */
export interface MailSiteSettings {
  PUBLIC_URL?: string;
  PORT: number;
}
type MailConfig = MailSiteSettings & { SITE_NAME: string; SESSION_SECRET: string; MAIL_FROM: string } & ImageStoreConfig;

/**
 * The origin every link in a mail starts with (docs/decisions/021): PUBLIC_URL, or
 * http://localhost:PORT when it is unset. Never a request's Host or forwarded headers, which
 * whoever sends the request chooses (docs/decisions/021-mailed-link-origin.md).
 */
export function mailOrigin(config: MailSiteSettings): string {
  return config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : `http://localhost:${config.PORT}`;
}

/** An absolute link for a mail: `path` (with its query) on mailOrigin. */
export function mailLink(config: MailSiteSettings, pathAndQuery: string): string {
  return new URL(pathAndQuery, mailOrigin(config)).toString();
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Set for queued mails: the same for every attempt of one message to one recipient. */
  messageId?: string;
  headers?: Record<string, string>;
}


const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The domain our Message-IDs and the unsubscribe mailto use: MAIL_FROM's, else the site's. */
export function mailDomain(config: MailConfig): string {
  const from = /@([^>\s]+)>?\s*$/.exec(config.MAIL_FROM)?.[1];
  return from ?? new URL(mailOrigin(config)).hostname;
}

/** The address part of MAIL_FROM ("Name <a@b>" or "a@b"). */
const fromAddress = (config: MailConfig) => /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();

const photoUrl = (config: MailConfig, photo: string) => (/^https?:\/\//.test(photo) ? photo : mailLink(config, photo));

// Sunset colours that read in light and dark mail clients alike: a warm band on a cream page.
const C = { page: '#fdf6ee', card: '#ffffff', ink: '#2b1d2e', muted: '#6b5a6e', accent: '#e4572e', band: 'linear-gradient(90deg,#ff7e5f,#feb47b)' };

/**
 * Dark colours for the clients that honour `prefers-color-scheme` in a <style> block (Apple Mail,
 * iOS, some Outlooks). Every other client keeps the inline light colours, which read as they are
 * or under a client's own darkening. The classes are hooks for this block alone.
 */
const DARK_STYLE = `<style>
@media (prefers-color-scheme: dark) {
  .ag-page { background: #1c1520 !important; }
  .ag-card { background: #271d2b !important; }
  .ag-ink, .ag-ink p, .ag-ink li, .ag-ink h1, .ag-ink h2, .ag-ink h3, .ag-ink h4, .ag-ink h5, .ag-ink td, .ag-ink th, .ag-ink figcaption, .ag-ink blockquote { color: #f4eaf2 !important; }
  .ag-ink pre, .ag-ink code, .ag-ink th { background: #35283b !important; color: #f4eaf2 !important; }
  .ag-ink td, .ag-ink th, .ag-ink pre { border-color: #4a3a50 !important; }
  .ag-body a { color: #ffa47a !important; }
  .ag-title { color: #f4eaf2 !important; }
  .ag-muted { color: #c9b8c9 !important; border-color: #4a3a50 !important; }
}
</style>`;

function layout(config: MailConfig, title: string, body: string, footer: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>${esc(title)}</title>${DARK_STYLE}</head>
<body class="ag-page" style="margin:0;padding:0;background:${C.page};color:${C.ink};font-family:Georgia,'Times New Roman',serif;">
<table role="presentation" class="ag-page" width="100%" cellpadding="0" cellspacing="0" style="background:${C.page};"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" class="ag-card" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:${C.card};border-radius:14px;overflow:hidden;">
<tr><td style="background:#ff7e5f;background-image:${C.band};padding:18px 28px;color:#fff;font:bold 20px/1.2 Georgia,serif;letter-spacing:.5px;">${esc(config.SITE_NAME)}</td></tr>
${body}
<tr><td class="ag-muted" style="padding:20px 28px 28px;border-top:1px solid #f1e4d8;color:${C.muted};font:13px/1.5 Arial,sans-serif;">${footer}</td></tr>
</table></td></tr></table></body></html>`;
}

function blogBlock(config: MailConfig, blog: MailBlog): string {
  const link = mailLink(config, blogPathOf(blog));
  const button = (label: string) =>
    `<a href="${esc(link)}" style="display:inline-block;background:${C.accent};color:#fff;text-decoration:none;font:bold 15px/1 Arial,sans-serif;padding:12px 20px;border-radius:8px;">${label}</a>`;
  // Only a photo of our own store is embedded: any other address would tell its host who opened
  // the mail and when. A blog saved before photos were fetched keeps its address; its mails go
  // without a picture (docs/decisions/050).
  const own = ownPhoto(blog.photo, ownImageBases(config));
  const photo = own
    ? `<tr><td style="padding:0 28px;"><a href="${esc(link)}"><img src="${esc(photoUrl(config, own))}" alt="${esc(blog.title)}" width="544" style="display:block;width:100%;max-width:544px;height:auto;border-radius:10px;border:0;"></a></td></tr>`
    : '';
  return `${photo}
<tr><td class="ag-ink" style="padding:18px 28px 6px;"><p class="ag-muted" style="margin:0 0 6px;color:${C.muted};font:12px/1.4 Arial,sans-serif;text-transform:uppercase;letter-spacing:1px;">${esc(blog.category)} · by ${esc(blog.writerName)}</p>
<h2 style="margin:0 0 10px;font:bold 24px/1.25 Georgia,serif;color:${C.ink};"><a class="ag-title" href="${esc(link)}" style="color:${C.ink};text-decoration:none;">${esc(blog.title)}</a></h2>
${
  blog.body
    ? `<p class="ag-muted" style="margin:0 0 18px;font:italic 17px/1.5 Georgia,serif;color:${C.muted};">${esc(blog.shortDescription)}</p>\n<div class="ag-body">${mailBodyHtml(blog.body.html, (path) => mailLink(config, path))}</div>\n<p style="margin:8px 0 16px;">${button('Read on the site')}</p>`
    : `<p style="margin:0 0 16px;font:16px/1.6 Georgia,serif;color:${C.ink};">${esc(blog.shortDescription)}</p>\n${button('Read the story')}`
}</td></tr>`;
}

// The plain-text part of a whole post is the writer's own Markdown: it was written to read as text.
const blogText = (config: MailConfig, blog: MailBlog) => {
  const link = mailLink(config, blogPathOf(blog));
  return blog.body
    ? `${blog.title}\n${blog.category} · by ${blog.writerName}\n\n${blog.body.markdown.trim()}\n\nRead on the site: ${link}`
    : `${blog.title}\n${blog.category} · by ${blog.writerName}\n\n${blog.shortDescription}\n\nRead it: ${link}`;
};

/**
 * One queued mail, rendered: plain text and HTML, the RFC 8058 one-click unsubscribe headers
 * with this recipient's own link, and a Message-ID fixed by the queue row, so a retry after a
 * crash is recognisably the same mail (docs/decisions/023).
 */
export function renderQueuedMail(config: MailConfig, mail: QueuedMail): Mail {
  const unsubscribeToken = signMailToken(config.SESSION_SECRET, mail.unsubscribe);
  const unsubscribeUrl = mailLink(config, `/mail/unsubscribe/${unsubscribeToken}`);
  const manageUrl = mail.stream === 'follow' || mail.stream === 'notice' ? mailLink(config, '/mail/preferences') : mailLink(config, `/mail/preferences?t=${unsubscribeToken}`);
  const why =
    mail.stream === 'notice'
      ? `You get this because you chose these notifications by mail on ${config.SITE_NAME}.`
      : mail.stream === 'follow'
      ? mail.kind === 'digest'
        ? 'You get this because you follow these writers.'
        : `You get this because you follow ${mail.blogs[0]?.writerName ?? 'this writer'}.`
      : `You get this because you subscribed to the ${config.SITE_NAME} newsletter.`;
  const headers = {
    'List-Unsubscribe': `<${unsubscribeUrl}>, <mailto:${fromAddress(config)}?subject=unsubscribe%20${unsubscribeToken}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'List-Id': `${config.SITE_NAME} <${mail.stream}.${mailDomain(config)}>`,
  };
  const messageId = `<${mail.id}.${mail.messageId}@${mailDomain(config)}>`;
  const footerHtml = `${esc(why)}<br><a href="${esc(unsubscribeUrl)}" style="color:${C.accent};">Unsubscribe</a> · <a href="${esc(manageUrl)}" style="color:${C.accent};">Manage preferences</a>`;
  const footerText = `${why}\nUnsubscribe: ${unsubscribeUrl}\nManage preferences: ${manageUrl}`;

  if (mail.kind === 'confirm') return { to: mail.email, messageId, headers, ...renderConfirmation(config, mail, unsubscribeUrl) };

  if (mail.stream === 'notice') return { to: mail.email, messageId, headers, ...renderNotices(config, mail, footerHtml, footerText) };

  const subject =
    mail.kind === 'digest'
      ? `${mail.blogs.length} new ${mail.blogs.length === 1 ? 'story' : 'stories'} on ${config.SITE_NAME}`
      : mail.stream === 'follow'
        ? `New from ${mail.blogs[0]!.writerName}: ${mail.blogs[0]!.title}`
        : mail.blogs[0]!.title;
  const intro =
    mail.kind === 'digest'
      ? `<tr><td style="padding:24px 28px 4px;"><h1 style="margin:0;font:bold 22px/1.3 Georgia,serif;">Today on ${esc(config.SITE_NAME)}</h1></td></tr>`
      : '<tr><td style="padding:12px 0 0;"></td></tr>';
  const body = intro + mail.blogs.map((b) => blogBlock(config, b)).join('<tr><td style="padding:8px 28px;"><hr style="border:0;border-top:1px solid #f1e4d8;"></td></tr>');
  const text = `${mail.blogs.map((b) => blogText(config, b)).join('\n\n---\n\n')}\n\n-- \n${footerText}`;
  return { to: mail.email, subject, text, html: layout(config, subject, body, footerHtml), messageId, headers };
}

/**
 * Who moved the newsletter, as the mail tells it: a writer names herself (the importing writer's
 * name), a whole site's import names the old site, not the admin who clicked import
 * (docs/decisions/095).
 */
function movedBy(config: MailConfig, moved: NonNullable<QueuedMail['moved']>, from: string): string {
  const here = `here, to ${config.SITE_NAME}`;
  if (moved.site) return `${moved.site} moved its newsletter ${here}, from ${from}, and your address came with it.`;
  if (moved.site === '') return `The site whose newsletter you took on ${from} moved it ${here}, and your address came with it.`;
  return `${moved.writerName ?? `A writer on ${config.SITE_NAME}`} moved their newsletter ${here}, from ${from}, and your address came with it.`;
}

/**
 * The double opt-in mail. A sign-up's says someone asked for the newsletter; that of an address
 * an import brought (docs/decisions/090), which nobody asked for here, says the writer moved the
 * newsletter from the other platform and asks to confirm to keep receiving it. One link for both.
 */
function renderConfirmation(config: MailConfig, mail: QueuedMail, unsubscribeUrl: string): Pick<Mail, 'subject' | 'text' | 'html'> {
  const confirmUrl = mailLink(config, `/mail/confirm/${signMailToken(config.SESSION_SECRET, mail.confirm!)}`);
  const from = mail.moved ? importSourceName(mail.moved.source) : '';
  const words = mail.moved
    ? {
        subject: `Your newsletter from ${mail.moved.site || from} has moved to ${config.SITE_NAME}`,
        heading: 'Your newsletter has moved',
        told: movedBy(config, mail.moved, from),
        ask: 'Confirm to keep receiving it.',
        button: 'Keep receiving it',
        textLink: 'Confirm to keep receiving it',
        ignore: 'If you ignore this mail, nothing happens: nothing more will be sent to you.',
      }
    : {
        subject: `Confirm your subscription to ${config.SITE_NAME}`,
        heading: 'One click to confirm',
        told: `Someone, hopefully you, asked for the ${config.SITE_NAME} newsletter at this address.`,
        ask: 'Confirm it and new stories will come to you; ignore this mail and nothing more will.',
        button: 'Confirm my subscription',
        textLink: 'Confirm it',
        ignore: 'Ignore this mail and nothing more will be sent.',
      };
  const body = `<tr><td style="padding:24px 28px;"><h1 style="margin:0 0 12px;font:bold 24px/1.3 Georgia,serif;">${esc(words.heading)}</h1>
<p style="margin:0 0 18px;font:16px/1.6 Georgia,serif;">${esc(words.told)} ${esc(words.ask)}</p>
<a href="${esc(confirmUrl)}" style="display:inline-block;background:${C.accent};color:#fff;text-decoration:none;font:bold 15px/1 Arial,sans-serif;padding:12px 20px;border-radius:8px;">${esc(words.button)}</a>${
    mail.moved ? `\n<p style="margin:18px 0 0;font:14px/1.6 Georgia,serif;color:${C.muted};">${esc(words.ignore)}</p>` : ''
  }</td></tr>`;
  const text = `${words.told}\n${words.textLink}: ${confirmUrl}\n\n${words.ignore}\n\n-- \nUnsubscribe: ${unsubscribeUrl}`;
  return { subject: words.subject, text, html: layout(config, words.subject, body, `<a href="${esc(unsubscribeUrl)}" style="color:${C.accent};">Unsubscribe</a>`) };
}

/**
 * A notification mail: one line at once, or the day's lines in a digest, each linking to what it
 * is about; the notifications page holds them all (docs/decisions/062).
 */
function renderNotices(config: MailConfig, mail: QueuedMail, footerHtml: string, footerText: string): Pick<Mail, 'subject' | 'text' | 'html'> {
  const digest = mail.kind === 'notice_digest';
  const subject = digest ? `Your day on ${config.SITE_NAME}: ${mail.notices.length} ${mail.notices.length === 1 ? 'notification' : 'notifications'}` : mail.notices[0]!.text;
  const allUrl = mailLink(config, '/notifications');
  const items = mail.notices
    .map((n) => `<tr><td style="padding:10px 28px;border-top:1px solid #f1e4d8;font:16px/1.5 Georgia,serif;"><a href="${esc(mailLink(config, n.href))}" style="color:${C.ink};">${esc(n.text)}</a></td></tr>`)
    .join('');
  const heading = `<tr><td style="padding:24px 28px 8px;"><h1 style="margin:0;font:bold 22px/1.3 Georgia,serif;">${digest ? 'What happened today' : 'Something new for you'}</h1></td></tr>`;
  const all = `<tr><td style="padding:16px 28px 4px;"><a href="${esc(allUrl)}" style="display:inline-block;background:${C.accent};color:#fff;text-decoration:none;font:bold 15px/1 Arial,sans-serif;padding:12px 20px;border-radius:8px;">See all notifications</a></td></tr>`;
  const text = `${mail.notices.map((n) => `${n.text}\n${mailLink(config, n.href)}`).join('\n\n')}\n\nAll notifications: ${allUrl}\n\n-- \n${footerText}`;
  return { subject, text, html: layout(config, subject, heading + items + all, footerHtml) };
}

/**
 * An export is ready (docs/decisions/074): its link, which works only for its owner, signed in,
 * until it expires. Plain text, sent at once like the account mails.
 */
export function exportReadyMail(
  config: MailSiteSettings & { SITE_NAME: string },
  q: { to: string; name: string | null; path: string; expiresAt: string; scope: 'writer' | 'site'; sizeBytes: number },
): Mail {
  const url = mailLink(config, q.path);
  const what = q.scope === 'site' ? `The export of the whole ${config.SITE_NAME} site` : `Your ${config.SITE_NAME} export`;
  const until = `${q.expiresAt.slice(0, 16).replace('T', ' ')} UTC`;
  const size = q.sizeBytes >= 1024 * 1024 ? `${(q.sizeBytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(q.sizeBytes / 1024))} KB`;
  return {
    to: q.to,
    subject: `${what} is ready`,
    text: [
      `Hello ${q.name || 'there'},`,
      '',
      `${what} is ready (a zip of ${size}). Download it here, signed in to your account, until ${until}:`,
      '',
      url,
      '',
      'After that it is deleted; you can ask for a new one at any time. If you did not ask for it, nobody else can open this link: it works only for you.',
    ].join('\n'),
  };
}
