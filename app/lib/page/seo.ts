import type { MetaDescriptor } from 'react-router';

/** What the root loader tells every page's meta about the site (see root.tsx). */
export interface SiteInfo {
  siteName: string;
  /** Absolute base URL without a trailing slash: PUBLIC_URL, or the origin the request came to. */
  siteUrl: string;
}

/** The root loader's site info, from a meta function's `matches`. */
export function siteOf(matches: readonly ({ id: string; data?: unknown } | undefined)[]): SiteInfo {
  const root = matches.find((m) => m?.id === 'root')?.data as Partial<SiteInfo> | undefined;
  return { siteName: root?.siteName ?? 'Afterglow', siteUrl: root?.siteUrl ?? '' };
}

/** A screen's title followed by the site's name (SITE_NAME), as every page's <title> reads. */
export function pageTitle(matches: Parameters<typeof siteOf>[0], screen: string): string {
  return `${screen} · ${siteOf(matches).siteName}`;
}

/** A site path (or an absolute URL, left alone) as an absolute URL. */
export const absoluteUrl = (site: SiteInfo, pathOrUrl: string) => (/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${site.siteUrl}${pathOrUrl}`);

/**
 * A public page's title, description and canonical URL. `path` is the page's canonical form
 * (only the query parameters that change the content); `index: false` keeps crawlers from
 * indexing it (search results, private drafts) while its links are still followed; `robots`
 * says something else instead (a held writer's blog: "noindex", docs/decisions/029).
 */
export function pageMeta(site: SiteInfo, page: { title: string; description: string; path: string; index?: boolean; robots?: string }): MetaDescriptor[] {
  return [
    { title: page.title },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: absoluteUrl(site, page.path) },
    ...(page.robots ? [{ name: 'robots', content: page.robots }] : page.index === false ? [{ name: 'robots', content: 'noindex, follow' }] : []),
  ];
}
