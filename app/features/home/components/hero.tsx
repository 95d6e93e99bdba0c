import { MESSAGES } from '~/lib/messages';

export const HERO_IMAGE = '/images/hero-sunset.svg';

/**
 * The home banner (spec §2): 600px high, the page's largest paint, so its picture is never lazy
 * and has high fetch priority — from which React 19 itself emits the <link rel="preload"> in the
 * head (a second one from the route would be a duplicate). Motion is CSS (app.css "Home hero"), which also covers no-JS.
 */
export function Hero({ siteName }: { siteName: string }) {
  return (
    <section className="hero-banner relative flex h-[600px] items-center justify-center overflow-hidden bg-neutral" aria-labelledby="hero-heading">
      <img
        src={HERO_IMAGE}
        alt="sunset banner"
        width={1600}
        height={600}
        fetchPriority="high"
        decoding="sync"
        className="hero-image absolute inset-0 h-full w-full object-cover"
      />
      <div className="pointer-events-none absolute inset-0 bg-gradient-to-b from-black/10 via-black/30 to-black/55" aria-hidden="true" />
      <div className="pointer-events-none relative px-4 text-center text-white [text-shadow:0_2px_12px_rgb(0_0_0/0.55)]">
        <h1 id="hero-heading" className="hero-line text-4xl font-extrabold tracking-tight sm:text-6xl">
          Welcome to {siteName}
        </h1>
        <p className="hero-line hero-line-2 mt-4 text-2xl font-semibold sm:text-3xl">{MESSAGES.heroTagline}</p>
        <p className="hero-line hero-line-3 mt-3 text-lg sm:text-xl">{MESSAGES.heroSubline}</p>
      </div>
    </section>
  );
}
