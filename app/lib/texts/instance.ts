/**
 * The instance page for admins (/moderation/instance, docs/decisions/052).
 * Read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const instanceHeading = 'This instance';
export const instanceLink = 'Instance status';
export const instanceNoWarnings = 'Nothing needs attention.';
export const instanceWarningsHeading = 'Needs attention';
export const instanceNoPublicUrl = 'PUBLIC_URL is not set: links in mails point to this machine, not to the site. Set it before the site is shared.';
export const instanceNoSmtp = 'SMTP_URL is not set: mails are written to files in DATA_DIR/outbox instead of being sent.';
export const instanceRuntimeEnding = (node: string, endsOn: string) => `Node ${node} stops getting security fixes on ${endsOn}: move to a newer LTS release before then.`;
export const instanceRuntimeEnded = (node: string, endedOn: string) => `Node ${node} has had no security fixes since ${endedOn}: move to a supported LTS release.`;
export const instanceNoBackup = 'No backup found in DATA_DIR/backups: run npm run backup (backups written elsewhere with --out are not seen here).';
export const instanceOldBackup = (days: number) => `The last backup in DATA_DIR/backups is ${days} days old: run npm run backup.`;
export const instanceAccountsWaiting = (n: number) =>
  `${n === 1 ? '1 new account is' : `${n} new accounts are`} on the spam hold or waiting for approval. Approve them, or they wait out their days, on`;
