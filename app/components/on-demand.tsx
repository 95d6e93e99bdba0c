import { type ComponentType, createElement, use, useEffect, useReducer } from 'react';
import { lazy } from '~/lib/page/lazy';

type Loaded<P> = { default: ComponentType<P> };

/** Every on-demand component's server markup and loader, for entry.client (browser only). */
const registry: { serverMarkup: string; preload: () => Promise<unknown> }[] = [];

/**
 * A component that most pages never show (a toast, the signed-in menu), whose code the browser
 * loads only when it is first shown (docs/decisions/038). The server renders it in place as
 * usual: its module is loaded when the server starts, and marked settled so that React's `use`
 * reads it without suspending (the first renders after a start wait for it in the shell; nothing
 * is streamed out of place). In the browser it renders nothing until its module is there, then
 * renders as normal; entry.client loads, before hydrating, the module of every such component
 * whose server markup (`serverMarkup`, a CSS selector) is in the page, so hydration finds the
 * same markup.
 */
export function onDemand<P extends object>(load: () => Promise<Loaded<P>>, { serverMarkup }: { serverMarkup: string }): ComponentType<P> {
  if (import.meta.env.SSR) {
    const ready = load();
    void ready.then((value) => Object.assign(ready, { status: 'fulfilled', value }));
    return function OnServer(props: P) {
      return createElement(use(ready).default, props);
    };
  }
  let loaded: ComponentType<P> | undefined;
  const preload = lazy(() =>
    load().then((module) => {
      loaded = module.default;
    }),
  );
  registry.push({ serverMarkup, preload });
  return function InBrowser(props: P) {
    const [, rerender] = useReducer((n: number) => n + 1, 0);
    const ready = loaded !== undefined;
    useEffect(() => {
      if (!ready) void preload().then(rerender);
    }, [ready]);
    return loaded ? createElement(loaded, props) : null;
  };
}

/** Loads the code of the on-demand components the server's HTML shows (entry.client, before hydrating). */
export function preloadShown(): Promise<unknown> {
  return Promise.all(registry.filter((entry) => document.querySelector(entry.serverMarkup)).map((entry) => entry.preload()));
}
