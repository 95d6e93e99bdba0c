import { MESSAGES } from './messages';

/** A user's name as the site shows it: trimmed, and 'User' for none (spec §2). */
export const displayName = (name: string | null | undefined): string => name?.trim() || MESSAGES.defaultDisplayName;
