import type { Route } from './+types/home';

export function meta({ matches }: Route.MetaArgs) {
  const site = (matches[0]?.data as { siteName?: string } | undefined)?.siteName ?? 'Afterglow';
  return [{ title: `${site}: where every story shines` }, { name: 'description', content: 'Read and share blogs of every kind.' }];
}

export function loader({ context }: Route.LoaderArgs) {
  return { siteName: context.deps.config.SITE_NAME };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <section className="relative flex h-[600px] items-center justify-center overflow-hidden">
      <img src="/images/hero-sunset.svg" alt="sunset banner" className="absolute inset-0 h-full w-full object-cover" fetchPriority="high" />
      <div className="relative px-4 text-center text-white drop-shadow-lg">
        <h1 className="text-4xl font-bold sm:text-6xl">Welcome to {loaderData.siteName}</h1>
        <p className="mt-4 text-xl sm:text-2xl">Where Every Story Shines!</p>
        <p className="mt-2 text-lg">From Travel Tales to Tech Tips, It's All Here...</p>
      </div>
    </section>
  );
}
