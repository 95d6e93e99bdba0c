import type { AppLoadContext } from 'react-router';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { CommentSchema } from '~/features/blogs/blogs.schema';
import { defineAction } from './page-action.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import type { SessionUser } from '~/lib/core/service-context';

describeOnDialects('defineAction on %s', (t) => {
  const args = (user: SessionUser | null) => ({
    request: new Request('http://afterglow.test/somewhere?x=1', { method: 'POST' }),
    // The two fields the wrapper reads; the rest of a page's context plays no part here.
    context: { user, service: t.context(user) } as unknown as AppLoadContext,
  });
  const user: SessionUser = { id: 'u-1', email: 'someone@example.com', name: 'Someone', image: null };

  it('sends a signed-out post of a sign-in action to log in and back, or answers it its own way, without running the handler', async () => {
    let ran = 0;
    const guarded = defineAction<ReturnType<typeof args>>()({ auth: 'user', limits: [], input: 'id' }, () => ++ran);
    const thrown = await guarded(args(null)).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent('/somewhere?x=1')}`);
    const own = defineAction<ReturnType<typeof args>>()({ auth: 'user', limits: [], input: 'id', signedOut: () => 'log in first' }, () => ++ran);
    expect(await own(args(null))).toBe('log in first');
    expect(ran).toBe(0);
    expect(await own(args(user))).toBe(1);
  });

  it('hands the handler the declared schema, and carries its policy for the coverage test', async () => {
    const action = defineAction<ReturnType<typeof args>>()({ auth: 'none', limits: [RATE_LIMITS.comment], input: CommentSchema }, (_, { input }) => input.safeParse({ commentText: '' }).success);
    expect(await action(args(null))).toBe(false);
    expect(action.policy).toEqual({ auth: 'none', limits: [RATE_LIMITS.comment], input: CommentSchema });
  });

  it('counts a declared rule, and fails a post whose use case counts a rule it did not declare', async () => {
    const action = defineAction<ReturnType<typeof args>>()({ auth: 'user', limits: [RATE_LIMITS.comment], input: 'id' }, async (_, { ctx }) => {
      await ctx.limit(RATE_LIMITS.comment);
      await ctx.limit(RATE_LIMITS.report);
    });
    await expect(action(args(user))).rejects.toThrow('rate rule report is counted but not declared by this page action');
  });
});
