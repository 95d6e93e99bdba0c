import { MESSAGES } from '~/lib/texts/messages';

/** A user's name as the site shows it: trimmed, and 'User' for none (docs/product.md#navigation-bar). */
export const displayName = (name: string | null | undefined): string => name?.trim() || MESSAGES.defaultDisplayName;

/** The photo of a user who has none. */
export const DEFAULT_AVATAR = '/images/default-avatar.svg';
