import { z } from 'zod';
import type { RateLimitRule } from '~/lib/core/rate-limits';
import { limitsOf } from './endpoints.server';
import { OPERATIONS } from './operations.server';
import { MessageResponse } from './responses.server';

/**
 * The API's contract, generated from the operations' own definitions (docs/decisions/056): the
 * request schemas are the very ones the handlers' input is parsed with; the response schemas are
 * strict, and server/http/api/openapi.server.test.ts checks real responses against them and every
 * registered route against the definitions, so the document cannot drift from the code.
 */

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

const perWindow = (rule: RateLimitRule) => `${rule.limit} per ${rule.windowMs >= 3_600_000 ? `${rule.windowMs / 3_600_000} h` : `${rule.windowMs / 60_000} min`} per ${rule.key === 'email' ? 'account' : 'client'}`;

export function buildOpenApiDocument(options: { siteName: string; serverUrl?: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const parameters: unknown[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (op.query) {
      const schema = jsonSchema(op.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      const schema = r.schema ? jsonSchema(r.list ? z.array(r.schema) : r.schema, 'output') : undefined;
      responses[status] = {
        description: r.description,
        ...(schema ? { content: { 'application/json': { schema } } } : {}),
        ...(r.paged ? { headers: { 'X-Total-Count': { schema: { type: 'integer' } }, Link: { schema: { type: 'string' }, description: 'first, last, prev and next pages' } } } : {}),
      };
    }
    const limits = limitsOf(op);
    if (limits.length > 0) {
      responses['429'] ??= { description: 'Too many requests', content: { 'application/json': { schema: jsonSchema(MessageResponse, 'output') } } };
      (responses['429'] as { description: string }).description += ` (limits: ${limits.map(perWindow).join('; ')})`;
    }
    responses['500'] = { description: 'A server fault (logged; the body carries a request id)', content: { 'application/json': { schema: jsonSchema(MessageResponse, 'output') } } };
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      security: op.auth === 'required' ? [{ cookie: [] }, { bearer: [] }] : op.auth === 'optional' ? [{}, { cookie: [] }, { bearer: [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
      ...(op.multipart ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: { ...jsonSchema(op.multipart, 'input'), properties: { image: { type: 'string', format: 'binary' } } } } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.siteName} API`,
      version: '1.0.0',
      description:
        'The JSON API of the site. Every route accepts the session cookie (from the site) or `Authorization: Bearer <token>`. ' +
        'Cookie-authenticated changes must come from the site itself (Origin check). Errors answer `{ message }` with a 4xx status. ' +
        'Lists are JSON arrays paged with `?page=&limit=`; totals are in `X-Total-Count` and `Link`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'afterglow.session_token' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
}
