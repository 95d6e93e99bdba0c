import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { defaultDuration, type FeedbackKind } from '~/lib/page/feedback';
import { MESSAGES } from '~/lib/texts/messages';

/** What a subscription attempt came to (docs/product.md#newsletter-form). */
export interface NewsletterOutcome {
  status: 'subscribed' | 'already' | 'invalid' | 'limited' | 'error';
  title: string;
  text: string;
  email: string;
}

const KIND: Record<NewsletterOutcome['status'], FeedbackKind> = { subscribed: 'success', already: 'info', invalid: 'warning', limited: 'error', error: 'error' };
const ALERT: Record<NewsletterOutcome['status'], string> = { subscribed: 'alert-success', already: 'alert-info', invalid: 'alert-warning', limited: 'alert-error', error: 'alert-error' };
/** A signed-in reader's own subscription, known when the page loads. */
export interface MySubscription {
  email: string;
  /** False until the mailed confirmation link is opened (double opt-in). */
  confirmed: boolean;
}

/** After success or a 409 the form is locked for good (docs/product.md#newsletter-form). */
const locks = (status: NewsletterOutcome['status']) => status === 'subscribed' || status === 'already';

async function postSubscriber(email: string): Promise<NewsletterOutcome> {
  try {
    const res = await fetch('/api/subscribers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    if (res.ok) return { status: 'subscribed', title: MESSAGES.subscribedTitle, text: body.message ?? '', email };
    if (res.status === 409) return { status: 'already', title: MESSAGES.alreadySubscribedTitle, text: body.message ?? '', email };
    throw new Error(`subscribe answered ${res.status}: ${body.message ?? ''}`);
  } catch (error) {
    console.error(error); // the failure is also logged (docs/product.md#messages)
    return { status: 'error', title: MESSAGES.subscribeErrorTitle, text: MESSAGES.subscribeErrorText, email };
  }
}

/**
 * The newsletter form with every state of docs/product.md#newsletter-form. It posts to `action` without JavaScript (the
 * route answers with `outcome`, shown beside the form); with JavaScript it calls the API and
 * answers with the product's popups. A signed-in reader already on the list finds it subscribed
 * (locked, with their address) on every visit, not only right after subscribing.
 */
export function NewsletterForm({ action, outcome, subscription }: { action: string; outcome?: NewsletterOutcome; subscription?: MySubscription | null }) {
  const { dialog } = useFeedback();
  const root = useRouteLoaderData('root') as { user?: { email: string } | null } | undefined;
  const userEmail = root?.user?.email ?? '';
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(outcome?.email ?? subscription?.email ?? '');
  const [sending, setSending] = useState(false);
  const [locked, setLocked] = useState(outcome ? locks(outcome.status) : !!subscription);
  // A refused address is marked until it is changed; then the refusal is about nothing any more.
  const invalid = outcome?.status === 'invalid' && email === outcome.email;

  const prefill = () => {
    if (!locked && userEmail && !input.current?.value) setEmail(userEmail);
  };
  // The user may become known while the field already has focus (docs/product.md#newsletter-form).
  useEffect(() => {
    const field = input.current;
    if (userEmail && field && document.activeElement === field && !field.value && !field.readOnly) setEmail(userEmail);
  }, [userEmail]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (locked || sending) return;
    const value = email.trim();
    if (!value) {
      void dialog({ title: MESSAGES.subscribeEmptyTitle, text: MESSAGES.subscribeEmptyText, kind: 'warning', timer: defaultDuration('warning') });
      return;
    }
    setSending(true);
    const result = await postSubscriber(value);
    setSending(false);
    if (locks(result.status)) setLocked(true);
    void dialog({ title: result.title, text: result.text, kind: KIND[result.status], timer: defaultDuration(KIND[result.status]) });
  }

  const serverMessage = outcome && (invalid || outcome.status !== 'invalid') ? (
    <div role={outcome.status === 'subscribed' ? 'status' : 'alert'} className={`alert mt-4 text-left ${ALERT[outcome.status]}`} id="newsletter-outcome" data-testid="newsletter-outcome">
      <div>
        <p className="font-bold">{outcome.title}</p>
        <p>{outcome.text}</p>
      </div>
    </div>
  ) : null;

  return (
    <form method="post" action={action} onSubmit={onSubmit} className="mx-auto w-full max-w-xl" data-testid="newsletter-form" data-state={locked ? 'subscribed' : sending ? 'sending' : 'idle'}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <label className="flex flex-1 flex-col gap-1 text-left">
          <span className="text-sm font-semibold text-white">Email</span>
          <input
            ref={input}
            type="email"
            name="email"
            autoComplete="email"
            placeholder="you@example.com"
            maxLength={254}
            className="input input-lg w-full bg-base-100 text-base-content"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? 'newsletter-outcome' : undefined}
            onFocus={prefill}
            readOnly={locked}
            aria-readonly={locked || undefined}
          />
        </label>
        <button type="submit" className="btn btn-primary btn-lg" disabled={locked || sending}>
          {sending ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
          {MESSAGES.subscribe}
        </button>
      </div>
      {serverMessage}
      {subscription && !outcome ? (
        <p className="mt-4 text-sm font-semibold text-white" data-testid="newsletter-subscribed">
          {subscription.confirmed ? (
            <>You're subscribed as {subscription.email}.</>
          ) : (
            <>Almost there: open the link we mailed to {subscription.email} to confirm.</>
          )}{' '}
          <a href="/mail/preferences" className="underline underline-offset-2">Manage</a>
        </p>
      ) : null}
    </form>
  );
}
