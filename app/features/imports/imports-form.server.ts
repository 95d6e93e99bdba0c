import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileBytes, megabytes, readUploadForm } from '~/features/images/images.service.server';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { confirmImport, startImport } from './import-runs.service.server';
import { CategoryMappingFormSchema } from './imports.schema';

/**
 * The "Import posts" form (docs/decisions/072): `upload` keeps the chosen archive in the data
 * folder and starts a run; `confirm` sends the category mapping the writer checked. Answers the
 * run's id, or the refusal in words.
 */
export async function submitImportForm(
  ctx: ServiceContext,
  config: { DATA_DIR: string; MAX_UPLOAD_MB: number },
  request: Request,
): Promise<{ ok: true; runId: string } | { ok: false; status: number; message: string }> {
  try {
    const max = megabytes(config.MAX_UPLOAD_MB);
    const form = await readUploadForm(request, max);
    if (form.get('intent') === 'confirm') {
      const mapping: Record<string, string> = {};
      for (const [key, value] of form) if (key.startsWith('category:') && typeof value === 'string') mapping[key.slice('category:'.length)] = value;
      const parsed = CategoryMappingFormSchema.safeParse({ runId: form.get('runId'), mapping });
      if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? 'Choose a category for every line.' };
      await confirmImport(ctx, parsed.data.runId, parsed.data.mapping);
      return { ok: true, runId: parsed.data.runId };
    }
    const file = form.get('archive');
    const bytes = await fileBytes(form, 'archive', max);
    if (!bytes || !file || typeof file === 'string') return { ok: false, status: 400, message: 'Choose an archive to import.' };
    const name = path.basename(file.name || 'archive').replace(/[^\w.-]+/g, '_').slice(-100);
    const dir = path.join(config.DATA_DIR, 'imports');
    await mkdir(dir, { recursive: true });
    const filePath = path.join(dir, `${newId()}-${name}`);
    await writeFile(filePath, bytes);
    try {
      return { ok: true, ...(await startImport(ctx, { fileName: file.name || name, filePath })) };
    } catch (error) {
      await rm(filePath, { force: true });
      throw error;
    }
  } catch (error) {
    const refused = pageRefusal(error);
    return { ok: false, status: refused.status, message: refused.message };
  }
}
