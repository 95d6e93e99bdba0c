import { Link } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';

export const HERO_IMAGE = '/images/hero-sunset.svg';

/**
 * The home banner (docs/product.md#hero): 600px high, the page's largest paint, so its picture is never lazy
 * and has high fetch priority — from which React 19 itself emits the <link rel="preload"> in the
 * head (a second one from the route would be a duplicate). Motion is CSS (app.css "Home hero"), which also covers no-JS.
 */
export function Hero({ siteName }: { siteName: string }) {
  return (
    <section className="hero-banner relative flex h-[600px] items-start justify-center overflow-hidden bg-neutral pt-16 sm:pt-20" aria-labelledby="hero-heading">
      <img
        src={HERO_IMAGE}
        alt="sunset banner"
        width={1600}
        height={600}
        fetchPriority="high"
        decoding="sync"
        className="hero-image absolute inset-0 h-full w-full object-cover"
      />
      {/* The scrim sits behind the words only, so the sun itself keeps its full light. */}
      <div className="relative mx-4 rounded-box bg-[#1b0f1f]/55 px-6 py-8 text-center text-white backdrop-blur-[2px] [text-shadow:0_2px_10px_rgb(0_0_0/0.5)] sm:px-10">
        <h1 id="hero-heading" className="hero-line text-4xl font-extrabold tracking-tight sm:text-6xl">
          Welcome to {siteName}
        </h1>
        <p className="hero-line hero-line-2 mt-4 text-2xl font-semibold sm:text-3xl">{MESSAGES.heroTagline}</p>
        <p className="hero-line hero-line-3 mt-3 text-lg sm:text-xl">{MESSAGES.heroSubline}</p>
        <div className="hero-actions mt-6 flex flex-wrap justify-center gap-3 [text-shadow:none]">
          <Link to="/allblogs" className="btn btn-primary">Start reading</Link>
          <Link to="/addBlog" className="btn border-white/80 bg-transparent text-white hover:bg-white/15">Write a story</Link>
        </div>
      </div>
    </section>
  );
}
