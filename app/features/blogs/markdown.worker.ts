/**
 * The render pool's worker (docs/decisions/047): one Markdown body to sanitised HTML per task.
 * Piscina loads it from the sources (tests, dev) or as the server build's `markdown-worker.js`.
 */
import { type RenderTask, renderSanitised } from './markdown-render.ts';

export default function render(task: RenderTask): string {
  return renderSanitised(task);
}
