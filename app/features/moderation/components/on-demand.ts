import { onDemand } from '~/components/on-demand';

// Shown only to a signed-in reader (report) or to the author of what a moderator removed or holds
// (the notices): on the blog page and its comments most readers see none of them, so their code,
// and the moderation texts, load when one is shown (docs/decisions/038, 077).
export const ReportButton = onDemand(() => import('./report-button').then((m) => ({ default: m.ReportButton })), {
  serverMarkup: 'details[data-testid^="report-"]',
});
export const RemovedNotice = onDemand(() => import('./removed-notice').then((m) => ({ default: m.RemovedNotice })), {
  serverMarkup: '[data-testid="removed-notice"]',
});
export const WaitingNotice = onDemand(() => import('./removed-notice').then((m) => ({ default: m.WaitingNotice })), {
  serverMarkup: '[data-testid="waiting-notice"]',
});
export const SuspendedBanner = onDemand(() => import('./suspended-banner').then((m) => ({ default: m.SuspendedBanner })), {
  serverMarkup: '[data-testid="suspended-banner"]',
});
