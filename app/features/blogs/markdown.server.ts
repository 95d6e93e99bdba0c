import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { keptByInput, keyOf } from '~/lib/render/caches.server';
import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { HELD_REL, type RenderTask } from './markdown-render';

/** Links are always the writer's (`ugc`); a writer on the spam hold gets no reputation from them either (decision 029). */
const TRUSTED_REL = 'ugc noopener';

/**
 * The longest one body may take to render, from the call, a wait for a free thread included
 * (docs/decisions/047; `MARKDOWN_RENDER_S`, 10 by default). The worst body of the pathological
 * corpus at the 100,000-character limit took 3.5 s on a machine at load 17 on 2 cores, far less
 * on an idle one; past this bound the worker is stopped and the caller gets `BodyUnrenderable`.
 */
export const RENDER_TIME_BOUND_MS = 10_000;
let timeBound = RENDER_TIME_BOUND_MS;

/** The server sets the operator's bound at start. */
export function setRenderTimeBound(ms: number): void {
  timeBound = ms;
}

export interface MarkdownOptions {
  /** Where our own images live (`ownImageBases(config)`); any other picture becomes a link. */
  imageBases?: readonly string[];
  /** The writer is on the spam hold: links get rel="nofollow ugc" (docs/decisions/029). */
  nofollow?: boolean;
  /** A preview passes false: a text being written is read once, and must not push popular bodies out. */
  remember?: boolean;
  /** The render's time bound (the server's `MARKDOWN_RENDER_S`); tests pass a shorter one. */
  timeBoundMs?: number;
}

/** A body that could not be rendered within the bound (or crashed its worker): nothing to show. */
export class BodyUnrenderable extends AppError {
  constructor(message: string = MESSAGES.bodyUnrenderable) {
    super('bad_request', message, 'long_description');
  }
}

/**
 * The worker's file: the sources' TypeScript (Node strips the types: tests, dev), or the server
 * build's own entry beside its chunks (vite.config.ts). Named through a variable, so Vite leaves
 * the URL alone.
 */
function workerFile(): string {
  const names = import.meta.env.PROD ? ['./markdown-worker.js', '../markdown-worker.js'] : ['./markdown.worker.ts'];
  const found = names.map((name) => new URL(name, import.meta.url)).find((url) => existsSync(url));
  if (!found) throw new Error(`markdown worker not found beside ${import.meta.url}`);
  return found.href;
}

/**
 * Bodies render off the main thread, so no text can hold the event loop (docs/decisions/047):
 * up to two threads (the OS shares the cores with the main thread, whose loop stays free), one
 * kept warm; a thread idle for a minute ends. A render that passes the time bound is aborted, which ends its thread. A worker's
 * heap is capped, so a body cannot take the server's memory either. Loaded on the first body,
 * not at start (decision 032).
 */
let started: Promise<Piscina> | undefined;
const pool = () =>
  (started ??= import('piscina').then(({ Piscina }) => new Piscina({
    filename: workerFile(),
    minThreads: 1,
    maxThreads: Math.min(2, availableParallelism()),
    idleTimeout: 60_000,
    maxQueue: 256,
    resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
  })));

/**
 * The body as sanitised HTML, rendered in the pool within `RENDER_TIME_BOUND_MS`. Throws
 * `BodyUnrenderable` when it cannot be (too slow, or its worker failed); callers show their
 * message instead of the body.
 */
export async function renderMarkdown(markdown: string, options: MarkdownOptions = {}): Promise<string> {
  const { imageBases = ['/uploads/'], nofollow = false, remember = true, timeBoundMs = timeBound } = options;
  const rel = nofollow ? HELD_REL : TRUSTED_REL;
  // Kept by its input alone (the `markdown_html` cache): an edit is simply a new key.
  return keptByInput('markdown_html', keyOf(rel, imageBases.join(' '), markdown), async () => {
    const task: RenderTask = { markdown, bases: imageBases, rel };
    try {
      return (await (await pool()).run(task, { signal: AbortSignal.timeout(timeBoundMs) })) as string;
    } catch (error) {
      throw Object.assign(new BodyUnrenderable(), { cause: error });
    }
  }, remember);
}

/** Ends the pool's threads (shutdown, tests); the next body starts it again. */
export async function closeMarkdownPool(): Promise<void> {
  const running = started;
  started = undefined;
  await (await running)?.destroy();
}
