import { describe, expect, it } from 'vitest';
import { IMPORT_TEXTS } from './imports';

describe('the import review’s and report’s lines on subscribers', () => {
  it('read right for none, one and many coming, with none, one and many staying out', () => {
    expect(IMPORT_TEXTS.subscribersFound(0, 3)).toBe('No subscriber comes. 3 stay out: unsubscribed, bounced or deleted at the source.');
    expect(IMPORT_TEXTS.subscribersFound(1, 0)).toBe('1 subscriber comes as pending: a mail asks them to confirm, and posts go to them only after they do.');
    expect(IMPORT_TEXTS.subscribersFound(1, 1)).toBe(
      '1 subscriber comes as pending: a mail asks them to confirm, and posts go to them only after they do. 1 stays out: unsubscribed, bounced or deleted at the source.',
    );
    expect(IMPORT_TEXTS.subscribersFound(2, 0)).toBe('2 subscribers come as pending: each gets a mail to confirm, and posts only after confirming.');
  });

  it('say each only of more than one', () => {
    expect(IMPORT_TEXTS.reportSubscribers({ pending: 1, confirmed: 1, existing: 0, skipped: 1 })).toBe(
      'Subscribers: 1 pending, sent a mail to confirm; 1 confirmed, their consent stated by the operator; 1 left out, listed below.',
    );
    expect(IMPORT_TEXTS.reportSubscribers({ pending: 3, confirmed: 2, existing: 1, skipped: 0 })).toBe(
      'Subscribers: 3 pending, each sent a mail to confirm; 2 confirmed, their consent stated by the operator; 1 subscribed here already.',
    );
  });
});

describe('the import review’s first line', () => {
  it('names the platform as it writes itself, and counts one post and one subscriber in the singular', () => {
    expect(IMPORT_TEXTS.found('wordpress', 1, 0)).toBe('Found 1 post in this WordPress archive. Nothing is written until you import.');
    expect(IMPORT_TEXTS.found('substack', 0, 1)).toBe('Found 0 posts and 1 subscriber in this Substack archive. Nothing is written until you import.');
    expect(IMPORT_TEXTS.found('markdown', 12, 3)).toBe('Found 12 posts and 3 subscribers in this Markdown archive. Nothing is written until you import.');
  });

  it('speaks of subscribers only for a list alone (docs/decisions/095)', () => {
    expect(IMPORT_TEXTS.foundList('ghost', 1)).toBe('This Ghost list has 1 subscriber. Nothing is written until you import.');
    expect(IMPORT_TEXTS.foundList('substack', 40)).toBe('This Substack list has 40 subscribers. Nothing is written until you import.');
  });
});
