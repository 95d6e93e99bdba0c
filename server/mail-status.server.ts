import { mailStatus as readMailStatus, type MessageStatus } from '~/features/newsletter/mail-queue.service.server';
import { type AppDeps, serviceContext } from './context.server';

/** `npm run mail:status`: one line per message, newest first, then the bounced addresses. */
export async function mailStatus(deps: AppDeps, limit = 20): Promise<string[]> {
  const { messages, bouncedAddresses } = await readMailStatus(serviceContext(deps, null), limit);
  const line = (m: MessageStatus) =>
    `${m.createdAt.slice(0, 16).replace('T', ' ')}  ${m.label}: ${m.queued + m.sending} queued, ${m.sent} sent, ${m.failed} failed, ${m.bounced} bounced`;
  return [...(messages.length ? messages.map(line) : ['no mail queued yet']), `bounced addresses (skipped from now on): ${bouncedAddresses}`];
}
