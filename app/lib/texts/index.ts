// Every text of the site, one module per group of screens (see app/lib/texts/messages.ts for why).
export * from './accounts';
export * from './account-security';
export * from './blogs';
export * from './desk';
export * from './exports';
export * from './frame';
export * from './home';
export * from './instance';
export * from './mail';
export * from './moderation';
export * from './post-end';
export * from './reader-actions';
export * from './notifications';
export * from './tags';
export * from './threads';
export * from './federation';
