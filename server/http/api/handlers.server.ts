import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { AppError } from '~/lib/core/errors';
import type { ServiceContext } from '~/lib/core/service-context';
import { type AppDeps, type AppEnv, serviceContext } from '../../context.server';
import { rateLimitHeaders } from '../middleware/rate-limit.server';
import { MESSAGES } from '~/lib/texts/messages';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The largest JSON body: a blog at its length limits is well under it (images come as multipart). */
export const MAX_JSON_BYTES = 1024 * 1024;
const isJson = (type: string | undefined) => /^application\/([\w.+-]+\+)?json\b/i.test(type ?? '');

/**
 * Every JSON body under /api is parsed once, here: malformed JSON is a 400 before any handler
 * (or better-auth) sees it. The parsed value is kept for `readJson`; the raw request stays
 * readable for better-auth, which reads it itself.
 */
export function parseJsonBody(): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_JSON_BYTES,
    onError: (c) => c.json({ message: `The request body must be at most ${MAX_JSON_BYTES / 1024 / 1024} MB`, code: 'payload_too_large' }, 413),
  });
  return async (c, next) => {
    if (!WITH_BODY.has(c.req.method) || !isJson(c.req.header('content-type'))) return next();
    // Refused from Content-Length, or as soon as a streamed body passes the limit.
    const tooLarge = await limit(c, async () => {});
    if (tooLarge) return tooLarge;
    const text = await c.req.raw.clone().text();
    if (text.trim() === '') {
      c.set('json', undefined);
      return next();
    }
    try {
      c.set('json', JSON.parse(text));
    } catch {
      return c.json({ message: MESSAGES.malformedJson, code: 'bad_request' }, 400);
    }
    return next();
  };
}

/** The request's JSON body (parsed by parseJsonBody); a body of another type is a 415. */
export function readJson(c: Context): unknown {
  if (!isJson(c.req.header('content-type'))) {
    throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
  }
  return c.get('json');
}

/** Validates input with the feature's zod schema; the first problem names its field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw new AppError('bad_request', field ? `${field}: ${issue.message}` : issue.message, field || undefined);
}

/** Lists stay JSON arrays; their totals travel in X-Total-Count and Link (docs/product.md#lists-at-scale). */
export function setPageHeaders(c: Context, page: { page: number; limit: number }, total: number) {
  const url = new URL(c.req.url);
  const at = (n: number) => {
    url.searchParams.set('page', String(n));
    url.searchParams.set('limit', String(page.limit));
    return `<${url.pathname}${url.search}>`;
  };
  const last = Math.max(1, Math.ceil(total / page.limit));
  const links = [`${at(1)}; rel="first"`, `${at(last)}; rel="last"`];
  if (page.page > 1) links.push(`${at(Math.min(page.page - 1, last))}; rel="prev"`);
  if (page.page < last) links.push(`${at(page.page + 1)}; rel="next"`);
  c.header('X-Total-Count', String(total));
  c.header('Link', links.join(', '));
}

/** The seam's context for an /api request: its user and address, and the RateLimit-* headers of every limit counted. */
export function apiContext(deps: AppDeps, c: Context<AppEnv>): ServiceContext {
  return serviceContext(deps, c.get('user'), {
    clientIp: c.get('clientIp'),
    request: c.req.raw,
    onLimit: (result) => {
      for (const [name, value] of Object.entries(rateLimitHeaders(result))) c.header(name, value);
    },
  });
}
