import { MESSAGES } from '~/lib/texts/messages';
import { type MySubscription, type NewsletterOutcome, NewsletterForm } from './newsletter-form';

export const NEWSLETTER_BACKGROUND = '/images/newsletter-bg.svg';

/** Home's newsletter band (docs/product.md#newsletter-section): the heading, an email field and 'Subscribe' over a picture. */
export function NewsletterSection({
  action,
  outcome,
  subscription,
  standalone = false,
}: {
  action: string;
  outcome?: NewsletterOutcome;
  subscription?: MySubscription | null;
  standalone?: boolean;
}) {
  const Heading = standalone ? 'h1' : 'h2';
  return (
    <section
      // Alone on its page (/newsletter) the band fills the first screen, not a strip above blank paper.
      className={`relative isolate overflow-hidden bg-neutral bg-cover bg-center px-4 py-20 text-center [--focus-ring:#fff] ${standalone ? 'flex min-h-[70svh] flex-col justify-center' : ''}`}
      style={{ backgroundImage: `url(${NEWSLETTER_BACKGROUND})` }}
      aria-labelledby="newsletter-heading"
      id="newsletter"
      data-testid="newsletter"
    >
      <Heading id="newsletter-heading" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{MESSAGES.newsletterHeading}</Heading>
      <p className="mx-auto mt-3 max-w-lg text-white/90">New stories, straight to your inbox. No spam, unsubscribe any time.</p>
      <div className="mt-8">
        <NewsletterForm action={action} outcome={outcome} subscription={subscription} />
      </div>
    </section>
  );
}
