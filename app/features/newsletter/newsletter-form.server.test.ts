import pino from 'pino';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { createDatabase } from '~/db/kysely.server';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { serviceContext } from '#server/context.server';
import { outcomeStatus, subscribeFromForm } from './newsletter-form.server';

const form = (email?: string) => {
  const data = new FormData();
  if (email !== undefined) data.set('email', email);
  return data;
};

describeOnDialects('the newsletter form without JavaScript on %s', { RATE_LIMITS: 'on' }, (t) => {
  it('answers every state of the newsletter form with the product texts', async () => {
    const ctx = t.context(null);
    const subscribed = await subscribeFromForm(ctx, form(' Evening@Example.com '));
    expect(subscribed).toEqual({ status: 'subscribed', title: MESSAGES.subscribedTitle, text: MESSAGES.subscribeSuccessMessage, email: 'Evening@Example.com' });
    expect(outcomeStatus(subscribed)).toBe(200);

    const again = await subscribeFromForm(ctx, form('evening@example.com'));
    expect(again).toMatchObject({ status: 'already', title: MESSAGES.alreadySubscribedTitle, text: MESSAGES.alreadySubscribedMessage });
    expect(outcomeStatus(again)).toBe(409);

    for (const empty of [undefined, '', '   ']) {
      expect(await subscribeFromForm(ctx, form(empty))).toMatchObject({ status: 'invalid', title: MESSAGES.subscribeEmptyTitle, text: MESSAGES.subscribeEmptyText });
    }
    expect(await subscribeFromForm(ctx, form('not-an-email'))).toMatchObject({ status: 'invalid', text: MESSAGES.emailHint });
    // The subscribe rule counts every try from one client; the one over it is refused.
    const crowd = serviceContext(t.deps, null, { clientIp: '198.51.100.7' });
    for (let i = 0; i < RATE_LIMITS.subscribe.limit; i++) await subscribeFromForm(crowd, form(`reader${i}@example.com`));
    const limited = await subscribeFromForm(crowd, form('late@example.com'));
    expect(limited).toEqual({ status: 'limited', title: MESSAGES.subscribeErrorTitle, text: MESSAGES.tooManyRequests, email: 'late@example.com' });
    expect(outcomeStatus(limited)).toBe(429);
  });

  it('turns a database failure into the product’s error, logged', async () => {
    // A real database without our tables: the insert fails the way an outage would.
    const empty = createDatabase({ sqlitePath: ':memory:' });
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    try {
      const outcome = await subscribeFromForm({ ...t.context(null), db: empty.db, dialect: 'sqlite', log }, form('down@example.com'));
      expect(outcome).toMatchObject({ status: 'error', title: MESSAGES.subscribeErrorTitle, text: MESSAGES.subscribeErrorText });
      expect(outcomeStatus(outcome)).toBe(500);
      expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['newsletter subscription failed']);
    } finally {
      await empty.close();
    }
  });
});
