/**
 * Exports: a writer's own things, or an admin's whole site, as a zip (docs/decisions/074).
 * Read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const exportTitle = 'Download everything';
export const exportWhat =
  'A zip of everything that is yours: your posts as Markdown files with their photos and pictures, the comments on them and yours elsewhere, your likes, wishlist, follows and profile. It is made in the background; we mail you a link when it is ready, and the link works for you, signed in, for a limited time.';
export const exportButton = 'Make my export';
export const exportSiteTitle = 'Export the whole site';
export const exportSiteWhat =
  'A zip of every post, author, comment (with its thread) and picture, with a ghost.json that Ghost 5 and 6 import (Settings → Import). Made in the background; the link comes by mail and on this page.';
export const exportSiteButton = 'Make a site export';
export const exportStarted = 'Your export is being made. We will mail you the link when it is ready.';
export const exportAlreadyPending = 'An export is already being made: wait for its mail before asking for another.';
export const exportNotFound = 'This export link is not yours, is wrong, or has expired.';
export const exportPending = 'Being made…';
export const exportFailed = 'It could not be made. Ask for a new one.';
export const exportDownload = 'Download';
export const exportListHeading = 'Your exports';
export const exportExpires = 'Link works until';
export const exportExpired = 'Expired: ask for a new one.';
