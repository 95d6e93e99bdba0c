import type { z } from 'zod';

/** The longest email address (RFC 5321's path limit), for the sign-up, login and newsletter fields alike. */
export const EMAIL_MAX_LENGTH = 254;

/** First message per field of a failed parse, for rendering a form's errors beside its inputs. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}
