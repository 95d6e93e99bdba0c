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
import { DEFAULT_AVATAR } from './components/avatar';
import type { MenuUser } from './components/user-menu';
import { canModerate } from './features/moderation/moderation.service.server';
import { countUnreadNotifications } from './features/notifications/notifications.service.server';
import type { BellState } from './components/notification-bell';
import { clearFlashCookie, readFlash } from '~/lib/page/flash.server';
import { displayName } from '~/lib/core/display-name';
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
  const { user, deps, slots } = context;
  // What the page shows of the viewer, each whole, as slots: a signed-in document is rendered as
  // a template the viewer's strings are filled into (decision 043).
  const menuUser: MenuUser | null = user
    ? {
        name: slots.slot(displayName(user.name)),
        email: slots.slot(user.email),
        // The default avatar named here rather than by the menu: with or without a photo, the page is the same.
        photo: slots.slot(user.image || DEFAULT_AVATAR),
        // Only the part after the path's start: a link resolves a `to` that does not start with '/'.
        wishlistPath: `/wishList/${slots.slot(encodeURIComponent(user.email))}`,
        canModerate: await canModerate(context.service),
      }
    : null;
  const flash = readFlash(request);
  const requestId = slots.slot(context.requestId);
  const body = {
    user: menuUser,
    bell: user ? bellState(await countUnreadNotifications(context.service), slots) : null,
    siteName: deps.config.SITE_NAME,
    siteUrl: siteBaseUrl(deps.config.PUBLIC_URL, request),
    requestId,
    flash: flash ? { ...flash, id: requestId } : null,
  };
  return flash ? data(body, { headers: { 'Set-Cookie': clearFlashCookie() } }) : body;
}

/**
 * Whether anything is unread picks the kept render; the figure and the label are slots, so
 * members with 2 and with 5 unread share it (decision 043). The count comes from a per-member
 * memo: a page costs no query for it (docs/decisions/062).
 */
function bellState(unread: number, slots: Route.LoaderArgs['context']['slots']): BellState {
  const badge = unread > 99 ? '99+' : String(unread);
  return { unread: unread > 0, badge: slots.slot(badge), label: slots.slot(`Notifications, ${badge} unread`) };
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
