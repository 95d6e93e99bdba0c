import { reportFromElsewhere } from '~/features/moderation/moderation.service.server';
import type { ReportTargetType } from '~/db/schema';
import type { ServiceContext } from '~/lib/core/service-context';
import { SITE_ACTOR, textOfRemoteHtml } from './federation.service.server';

/**
 * Reports from other servers (docs/decisions/080): a `Flag` naming our posts, comments or writers
 * becomes a report in the moderation queue, its reporter the remote actor that sent it.
 */

/** What of ours an object id names: a post (its Article or page), a local comment (its Note), or a writer (her actor). */
export function reportTargetOf(origin: string, object: string): { type: ReportTargetType; id: string } | null {
  if (!URL.canParse(object)) return null;
  const url = new URL(object);
  if (url.origin !== new URL(origin).origin) return null;
  const at = (pattern: RegExp) => {
    const found = pattern.exec(url.pathname)?.[1];
    return found ? decodeURIComponent(found) : null;
  };
  const blog = at(/^\/ap\/posts\/([^/]+)$/) ?? at(/^\/blogs\/([^/]+)(?:\/[^/]+)?$/);
  if (blog) return { type: 'blog', id: blog };
  const comment = at(/^\/ap\/comments\/([^/]+)$/);
  if (comment) return { type: 'comment', id: comment };
  const writer = at(/^\/ap\/actors\/([^/]+)$/);
  return writer && writer !== SITE_ACTOR ? { type: 'user', id: writer } : null;
}

/**
 * A Flag arrived: each post or comment of ours it names becomes a report; the writer it names is
 * reported only when it names nothing else (Mastodon names the account beside the posts). Answers
 * how many reports were opened.
 */
export async function receiveRemoteFlag(ctx: ServiceContext, origin: string, flag: { actorUri: string; objects: string[]; content: string }): Promise<number> {
  const targets = flag.objects.map((o) => reportTargetOf(origin, o)).filter((t) => t !== null);
  const content = targets.filter((t) => t.type !== 'user');
  const text = textOfRemoteHtml(flag.content);
  let opened = 0;
  for (const target of (content.length > 0 ? content : targets).slice(0, 20)) {
    if (await reportFromElsewhere(ctx, { actorUri: flag.actorUri, targetType: target.type, targetId: target.id, text })) opened++;
  }
  return opened;
}
