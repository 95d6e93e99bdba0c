import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { AppError } from '~/lib/errors';
import { MESSAGES } from '~/lib/messages';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isJson = (type: string | undefined) => /^application\/([\w.+-]+\+)?json\b/i.test(type ?? '');

/**
 * Every JSON body under /api is parsed once, here: malformed JSON is a 400 before any handler
 * (or better-auth) sees it. The parsed value is kept for `readJson`; the raw request stays
 * readable for better-auth, which reads it itself.
 */
export function parseJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    if (!WITH_BODY.has(c.req.method) || !isJson(c.req.header('content-type'))) return next();
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
