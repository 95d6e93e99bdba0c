import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileBytes, megabytes, readUploadForm } from '~/features/images/images.service.server';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { assertCanImportSite, confirmImport, confirmSiteImport, importsDir, startImport, startSiteImport } from './import-runs.service.server';
import { CategoryMappingFormSchema, SiteImportMappingFormSchema } from './imports.schema';

/** The fields named `<prefix><name>`, by name. */
function prefixed(form: FormData, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (key.startsWith(prefix) && typeof value === 'string') out[key.slice(prefix.length)] = value;
  return out;
}

/** A site import's author choices as the form sends them: `author:<id>` the choice, `authorEmail:<id>` the account's email. */
function authorChoices(form: FormData): Record<string, { choice: string; email?: string }> {
  const emails = prefixed(form, 'authorEmail:');
  return Object.fromEntries(Object.entries(prefixed(form, 'author:')).map(([id, choice]) => [id, choice === 'account' ? { choice, email: (emails[id] ?? '').trim() } : { choice }]));
}

/**
 * The "Import posts" form (docs/decisions/072) and the admins' "Import a site" form (083):
 * `upload` keeps the chosen archive in the data folder and starts a run; `confirm` sends the
 * category mapping (and, for a site, each author's choice) the importer checked. Answers the
 * run's id, or the refusal in words.
 */
export async function submitImportForm(
  ctx: ServiceContext,
  config: { DATA_DIR: string; MAX_UPLOAD_MB: number },
  request: Request,
  scope: 'writer' | 'site' = 'writer',
): Promise<{ ok: true; runId: string } | { ok: false; status: number; message: string }> {
  try {
    // Refused before a byte of the upload is read or kept.
    if (scope === 'site') await assertCanImportSite(ctx);
    const max = megabytes(config.MAX_UPLOAD_MB);
    const form = await readUploadForm(request, max);
    if (form.get('intent') === 'confirm') {
      const input = { runId: form.get('runId'), mapping: prefixed(form, 'category:') };
      if (scope === 'site') {
        const parsed = SiteImportMappingFormSchema.safeParse({ ...input, authors: authorChoices(form) });
        if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? 'Choose what becomes of each author’s posts.' };
        await confirmSiteImport(ctx, parsed.data.runId, parsed.data);
        return { ok: true, runId: parsed.data.runId };
      }
      const parsed = CategoryMappingFormSchema.safeParse(input);
      if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? 'Choose a category for every line.' };
      await confirmImport(ctx, parsed.data.runId, parsed.data.mapping);
      return { ok: true, runId: parsed.data.runId };
    }
    const file = form.get('archive');
    const bytes = await fileBytes(form, 'archive', max);
    if (!bytes || !file || typeof file === 'string') return { ok: false, status: 400, message: 'Choose an archive to import.' };
    const name = path.basename(file.name || 'archive').replace(/[^\w.-]+/g, '_').slice(-100);
    const dir = importsDir(config.DATA_DIR);
    await mkdir(dir, { recursive: true });
    const filePath = path.join(dir, `${newId()}-${name}`);
    await writeFile(filePath, bytes);
    try {
      const start = scope === 'site' ? startSiteImport : startImport;
      return { ok: true, ...(await start(ctx, { fileName: file.name || name, filePath })) };
    } catch (error) {
      await rm(filePath, { force: true });
      throw error;
    }
  } catch (error) {
    const refused = pageRefusal(error);
    return { ok: false, status: refused.status, message: refused.message };
  }
}
