import routes from '~/routes';
import type { BuiltRoute } from '../../server/metrics.server';

interface RouteEntry {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}
const modules = import.meta.glob<{ default?: unknown; handle?: unknown }>('../../app/routes/*.{ts,tsx}');
const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);

/** The routes of React Router's build as it makes them from app/routes.ts: ids, paths and the route modules themselves. */
export async function builtRoutes(): Promise<Record<string, BuiltRoute>> {
  const entries = await Promise.all(
    flatten(routes as RouteEntry[]).map(async (r) => {
      const id = r.id ?? r.file.replace(/\.tsx?$/, '');
      const load = modules[`../../app/${r.file}`];
      if (!load) throw new Error(`no module for route ${r.file}`);
      return [id, { id, path: r.path, index: r.index, module: await load() }] as const;
    }),
  );
  return Object.fromEntries(entries);
}
