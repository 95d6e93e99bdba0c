import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** The WCAG 2.0–2.2 A and AA rule tags: the site aims at WCAG 2.2 AA (docs/decisions/014). */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type AxeWindow = Window & { axe?: typeof axe };

/**
 * Runs axe-core on the page with the WCAG A and AA rules (and, with `bestPractice`, axe's
 * best-practice rules too); returns the violations, readable. axe is put into a page once and
 * reused by later checks of the same document (a theme switched in place, a dialog opened), which
 * keeps the accessibility matrix fast.
 */
export async function axeViolations(page: Page, options: { bestPractice?: boolean } = {}): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const tags = options.bestPractice ? [...WCAG_AA_TAGS, 'best-practice'] : WCAG_AA_TAGS;
  const results = await page.evaluate(
    (values) => (window as AxeWindow).axe!.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] }),
    tags,
  );
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}

/**
 * axeViolations for a page whose clock a test paused (page.clock.pauseAt), to read a timed
 * dialog before it closes: axe waits on timers of its own, so the clock is moved on a
 * millisecond at a time until axe answers. Answers the violations and how far the clock moved,
 * for the test to check its dialog was still open for all of it.
 */
export async function axeViolationsOnPausedClock(page: Page): Promise<{ violations: AxeViolation[]; advancedMs: number }> {
  let done = false;
  const answer = axeViolations(page).finally(() => {
    done = true;
  });
  let advancedMs = 0;
  while (!done) {
    await page.clock.runFor(1);
    advancedMs += 1;
  }
  return { violations: await answer, advancedMs };
}
