import '~/lib/core/zod-browser';
import { useEffect } from 'react';
import {
  data,
  isRouteErrorResponse,
  Links,
  type LinksFunction,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { FeedbackProvider } from './components/feedback';
import { NavProgress } from './components/nav-progress';
import { onDemand } from './components/on-demand';
import { SiteFooter } from './components/site-footer';
import { SiteNav } from './components/site-nav';
import type { MenuUser } from './components/user-menu';
import { canModerate } from './features/moderation/moderation.service.server';
import { countUnreadNotifications } from './features/notifications/notifications.service.server';
import { clearFlashCookie, readFlash } from '~/lib/page/flash.server';
import { useNonce } from '~/lib/render/nonce';
import { siteBaseUrl } from '~/lib/page/site-url.server';
import { THEME_BOOT_SCRIPT } from '~/lib/page/theme';

// Error pages are rare: their code loads when one is shown (docs/decisions/038).
const ErrorPage = onDemand(() => import('./components/not-found').then((m) => ({ default: m.ErrorPage })), { serverMarkup: '[data-status]' });

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
  { rel: 'manifest', href: '/site.webmanifest' },
  // Feed readers find the feeds from any page (docs/decisions/012, 027).
  { rel: 'alternate', type: 'application/atom+xml', href: '/feed.xml', title: 'Newest blogs (Atom)' },
  { rel: 'alternate', type: 'application/rss+xml', href: '/rss.xml', title: 'Newest blogs (RSS)' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { deps, shown } = context;
  const { viewer } = shown;
  // The viewer's strings come from `shown`, whole: in a signed-in document each is a slot of a
  // render other viewers share (decisions 043, 078).
  const menuUser: MenuUser | null = viewer
    ? { name: viewer.name, email: viewer.email, photo: viewer.photo, wishlistPath: viewer.wishlistPath, canModerate: await canModerate(context.service) }
    : null;
  const flash = readFlash(request);
  const body = {
    user: menuUser,
    // The count comes from a per-member memo: a page costs no query for it (docs/decisions/062).
    bell: viewer ? viewer.bell(await countUnreadNotifications(context.service)) : null,
    siteName: deps.config.SITE_NAME,
    siteUrl: siteBaseUrl(deps.config.PUBLIC_URL, request),
    requestId: shown.requestId,
    flash: flash ? { ...flash, id: shown.requestId } : null,
  };
  return flash ? data(body, { headers: { 'Set-Cookie': clearFlashCookie() } }) : body;
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.siteName ?? 'Afterglow' }];
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>('root');
  const siteName = data?.siteName ?? 'Afterglow';
  // Lets tests (and curious people) tell a hydrated page from server HTML, error pages included.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <html lang="en" dir="ltr" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#b93a0e" />
        {/* With a precedence React sends the stylesheet first in the head, ahead of the script
            preloads it would otherwise wait behind on a slow phone's connection (Lighthouse). */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-base-100 text-base-content antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-base-100 focus:p-2">
          Skip to content
        </a>
        <FeedbackProvider flash={data?.flash ?? null}>
          <SiteNav user={data?.user ?? null} siteName={siteName} bell={data?.bell ?? null} />
          <main id="main" className="flex-1">
            {children}
          </main>
          <SiteFooter wishlistPath={data?.user?.wishlistPath ?? null} siteName={siteName} />
        </FeedbackProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <>
      <NavProgress />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('root');
  // Statuses in one place: a loader's or action's AppError (or an outage) arrives here as a
  // route error response through app/lib/page/page-errors.server.ts; anything else is a 500.
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return <ErrorPage status={status} requestId={status === 404 ? undefined : data?.requestId} detail={detail} />;
}
