/**
 * What the CSV files of an export have in common (Substack's posts and lists, Ghost's members):
 * headers in lower case, a byte-order mark allowed, ragged rows read as far as they go, and the
 * words those platforms write for yes, dates and addresses.
 */
import { parse } from 'csv-parse/sync';
import { type ArchiveEntries, ArchiveRefused, type ImportSubscriber } from '../import-model.ts';

export type CsvRow = Record<string, string | undefined>;

/** Every row of a CSV file by its (lower-cased) header; refused with the file's name when it is no CSV. */
export function csvRows(bytes: Buffer, file: string): CsvRow[] {
  try {
    return parse(bytes, { columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()), bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as CsvRow[];
  } catch (error) {
    throw new ArchiveRefused(`${file} is not a readable CSV file (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/** A CSV file's column names (lower case), from its first line alone; none when it cannot be read. */
export function csvHeader(bytes: Buffer): string[] {
  const text = bytes.subarray(0, 4096).toString('utf8');
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  try {
    return ((parse(line, { bom: true, relax_quotes: true, trim: true }) as string[][])[0] ?? []).map((name) => name.toLowerCase());
  } catch {
    return [];
  }
}

/** The archive's CSV files whose header `recognised` takes, in name order (a list is known by its columns, not its name). */
export async function csvFilesWithHeader(entries: ArchiveEntries, recognised: (columns: string[]) => boolean): Promise<string[]> {
  const found: string[] = [];
  for (const name of entries.list().filter((path) => /\.csv$/i.test(path)).sort()) {
    if (recognised(csvHeader(await entries.read(name)))) found.push(name);
  }
  return found;
}

export const truthy = (value: string | undefined) => /^(true|t|1|yes)$/i.test((value ?? '').trim());

export function isoOrNull(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Gathers a list's subscribers into `into`: the address in lower case, each once (the first row
 * wins); a row without an address is reported in `skipped` with the file it came from.
 */
export function gatherSubscribers(
  rows: CsvRow[],
  file: string,
  into: { subscribers: ImportSubscriber[]; skipped: { item: string; reason: string }[]; seen: Set<string> },
  subscriber: (row: CsvRow) => Omit<ImportSubscriber, 'email'>,
): void {
  for (const row of rows) {
    const email = (row.email ?? '').trim().toLowerCase();
    if (!EMAIL.test(email)) {
      into.skipped.push({ item: `subscriber “${row.email ?? ''}” in ${file}`, reason: 'not an email address' });
      continue;
    }
    if (into.seen.has(email)) continue;
    into.seen.add(email);
    into.subscribers.push({ email, ...subscriber(row) });
  }
}
