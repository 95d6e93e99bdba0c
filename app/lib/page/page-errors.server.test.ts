import { connect } from 'node:net';
import { isRouteErrorResponse } from 'react-router';
import { describe, expect, it } from 'vitest';
import { freePort } from '#test/processes';
import { AppError } from '~/lib/core/errors';
import { backWithRefusal, errorPage, pageRefusal } from './page-errors.server';
import { MESSAGES } from '~/lib/texts/messages';

/** What a page helper threw, as the status the root error boundary will see (or the error itself). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    // react-router turns a thrown `data(null, { status })` into a route error response.
    if (error && typeof error === 'object' && 'type' in error && error.type === 'DataWithResponseInit') return (error as unknown as { init: { status: number } }).init.status;
    return error;
  }
  throw new Error('nothing was thrown');
}

/** A real refused connection: what the database drivers fail with while the database is away. */
async function refusedConnection(): Promise<Error> {
  const port = await freePort();
  return new Promise((resolve) => connect(port, '127.0.0.1').on('error', resolve));
}

describe('page errors (one mapping of a use case failure for pages)', () => {
  it('hands a refusal back to the page, the image store 503 included (decision 017)', () => {
    const refusal = new AppError('conflict', MESSAGES.alreadyAddedText);
    expect(pageRefusal(refusal)).toBe(refusal);
    const store = new AppError('unavailable', MESSAGES.imageStoreUnavailable, 'image');
    expect(pageRefusal(store)).toBe(store);
  });

  it('sends the codes it is told to, and every loader failure, to the error boundary with their status', () => {
    expect(thrown(() => pageRefusal(new AppError('not_found', MESSAGES.blogNotFound), { boundary: ['not_found'] }))).toBe(404);
    expect(thrown(() => errorPage(new AppError('not_found', MESSAGES.authorNotFound)))).toBe(404);
    expect(thrown(() => errorPage(new AppError('forbidden', MESSAGES.forbidden)))).toBe(403);
    expect(thrown(() => errorPage(new AppError('forbidden', MESSAGES.moderatorsOnly), { hideForbidden: true }))).toBe(404);
  });

  it('answers a database outage with the 503 page, never as a refusal or a toast', async () => {
    const outage = await refusedConnection();
    expect(outage).toMatchObject({ code: 'ECONNREFUSED' });
    expect(thrown(() => pageRefusal(outage))).toBe(503);
    expect(thrown(() => errorPage(outage))).toBe(503);
    expect(thrown(() => backWithRefusal(outage, '/following'))).toBe(503);
  });

  it('throws a bug on as it is (a 500), never swallowed', () => {
    const bug = new TypeError('x is undefined');
    expect(thrown(() => pageRefusal(bug))).toBe(bug);
    expect(thrown(() => errorPage(bug))).toBe(bug);
    expect(isRouteErrorResponse(bug)).toBe(false);
  });

  it('answers a refusal of a button as an error toast back where it was pressed', () => {
    const response = backWithRefusal(new AppError('not_found', MESSAGES.writerNotFound), '/following');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/following');
    const cookie = response.headers.get('Set-Cookie') ?? '';
    const flash = JSON.parse(Buffer.from(/afterglow\.flash=([\w-]+)/.exec(cookie)![1]!, 'base64url').toString('utf8'));
    expect(flash).toEqual({ type: 'toast', kind: 'error', text: MESSAGES.writerNotFound });
  });
});
