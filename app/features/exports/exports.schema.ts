import { z } from 'zod';

/** What may be exported: the caller's own things, or (admins) the whole site (docs/decisions/074). */
export const ExportScopeSchema = z.enum(['writer', 'site']);

export const RequestExportSchema = z.strictObject({ scope: ExportScopeSchema.default('writer') });

/** An export as its owner sees it; `downloadUrl` only while it can be downloaded. */
export const ExportSchema = z.strictObject({
  id: z.string(),
  scope: ExportScopeSchema,
  status: z.enum(['pending', 'ready', 'failed', 'expired']),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** A site-relative path: the signed link, for its owner signed in. */
  downloadUrl: z.string().nullable(),
});
export type ExportView = z.infer<typeof ExportSchema>;
