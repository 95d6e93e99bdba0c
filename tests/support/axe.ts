import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** The WCAG 2.0–2.2 A and AA rule tags (issue 9: WCAG 2.2 AA). */
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
