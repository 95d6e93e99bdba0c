import { useEffect, useState } from 'react';
import { Form, useNavigation, useRevalidator } from 'react-router';
import { BLOG_CATEGORIES } from '~/features/blogs/blogs.constants';
import { IMPORT_TEXTS } from '~/lib/texts/imports';
import type { ImportRunView } from '../import-runs.service.server';
import { isSubscriberList, NO_CATEGORY, RUN_KEEP_DAYS } from '../imports.schema';

const WORKING = new Set(['scanning', 'queued', 'running']);

/** Whether the run is still being read or written (the page polls until it is not). */
export const isWorking = (run: ImportRunView | null) => run !== null && WORKING.has(run.status);

/** Reloads the page's data every 1.5 s while the run works, so the bar moves without a reload. */
export function usePollWhileWorking(run: ImportRunView | null) {
  const revalidator = useRevalidator();
  const working = isWorking(run);
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => revalidator.state === 'idle' && void revalidator.revalidate(), 1500);
    return () => clearInterval(timer);
  }, [working, revalidator]);
}

/** The line under the run's name: the screen's words for its status, a lone list's own for its review. */
export const statusTextOf = (run: ImportRunView, words: Record<ImportRunView['status'], string>) => (run.status === 'review' && isSubscriberList(run) ? IMPORT_TEXTS.reviewList : words[run.status]);

/** The upload form: one archive, read in the background once sent. */
export function ArchiveUpload({ maxUploadMb, hint }: { maxUploadMb: number; hint?: string }) {
  const navigation = useNavigation();
  return (
    <Form method="post" encType="multipart/form-data" className="mt-6 flex flex-col gap-3">
      <input type="hidden" name="intent" value="upload" />
      <label className="flex flex-col gap-1">
        <span className="font-semibold">{IMPORT_TEXTS.archiveLabel}</span>
        <input type="file" name="archive" required accept=".zip,.json,.xml,.csv,application/zip,application/json,application/xml,text/xml,text/csv" className="file-input file-input-bordered w-full" />
        <span className="text-sm opacity-80">{hint ?? IMPORT_TEXTS.archiveHint(maxUploadMb)}</span>
      </label>
      <button type="submit" className="btn btn-primary self-start" disabled={navigation.state !== 'idle'}>
        {IMPORT_TEXTS.upload}
      </button>
    </Form>
  );
}

/** The run's name, where it stands and its progress bar. */
export function RunStatus({ run, statusText }: { run: ImportRunView; statusText: string }) {
  const percent = run.total > 0 ? Math.floor((run.done / run.total) * 100) : 0;
  return (
    <>
      <h2 id="import-run" className="text-xl font-semibold">
        {run.fileName}
      </h2>
      <p className="mt-1" data-testid="import-status">
        {statusText}
      </p>
      {isWorking(run) || run.status === 'done' ? (
        <div className="mt-3">
          <progress className="progress progress-primary w-full" value={run.done} max={Math.max(1, run.total)} aria-label={IMPORT_TEXTS.progressLabel} data-testid="import-progress" />
          <p className="text-sm opacity-80">{IMPORT_TEXTS.progress(run.done, run.total, percent)}</p>
        </div>
      ) : null}
    </>
  );
}

/** The review: what the scan found, the importer's choices (`children`, then the category mapping), and the button that imports. */
export function ReviewForm({ run, children }: { run: ImportRunView; children?: React.ReactNode }) {
  if (run.status !== 'review' || !run.scan) return null;
  return (
    <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-col gap-4">
      <input type="hidden" name="intent" value="confirm" />
      <input type="hidden" name="runId" value={run.id} />
      <p>{isSubscriberList(run) ? IMPORT_TEXTS.foundList(run.scan.source, run.scan.subscribers) : IMPORT_TEXTS.found(run.scan.source, run.scan.posts, run.scan.subscribers)}</p>
      {run.scan.subscribers > 0 ? (
        <p data-testid="import-subscribers">{IMPORT_TEXTS.subscribersFound(run.scan.subscribers - (run.scan.subscribersOut ?? 0), run.scan.subscribersOut ?? 0)}</p>
      ) : null}
      {children}
      <CategoryMapping mapping={run.scan.categoryMapping} source={run.scan.source} />
      <button type="submit" className="btn btn-primary self-start">
        {IMPORT_TEXTS.confirm}
      </button>
      <p className="text-sm opacity-80">{IMPORT_TEXTS.keepHint(RUN_KEEP_DAYS)}</p>
    </Form>
  );
}

function CategorySelect({ name, value, onChange }: { name: string; value: string; onChange?: (category: string) => void }) {
  return (
    <select name={`category:${name}`} defaultValue={value} onChange={onChange && ((event) => onChange(event.target.value))} className="select select-bordered">
      {BLOG_CATEGORIES.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  );
}

/**
 * One select per source category name, set to what the scan proposes, and one for the posts
 * without a category; a source that names none (Substack, Medium) is said so plainly, with the one
 * category every post gets and the select that changes it (docs/decisions/090).
 */
export function CategoryMapping({ mapping, source }: { mapping: Record<string, string>; source: string }) {
  const names = Object.entries(mapping).filter(([name]) => name !== NO_CATEGORY);
  const none = mapping[NO_CATEGORY];
  const [every, setEvery] = useState(none ?? '');
  if (names.length === 0) {
    if (none === undefined) return null;
    return (
      <div className="flex flex-col gap-2" data-testid="import-no-categories">
        <p>{IMPORT_TEXTS.noCategories(source, every)}</p>
        <label className="flex flex-wrap items-center gap-2">
          <span className="min-w-40 font-semibold">{IMPORT_TEXTS.noCategoriesLabel}</span>
          <CategorySelect name={NO_CATEGORY} value={none} onChange={setEvery} />
        </label>
      </div>
    );
  }
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="font-semibold">{IMPORT_TEXTS.mappingLegend}</legend>
      {names.map(([name, category]) => (
        <label key={name} className="flex flex-wrap items-center gap-2">
          <span className="min-w-40">{name}</span>
          <CategorySelect name={name} value={category} />
        </label>
      ))}
      {none !== undefined ? (
        <label className="flex flex-wrap items-center gap-2">
          <span className="min-w-40 italic">{IMPORT_TEXTS.noCategoryLine}</span>
          <CategorySelect name={NO_CATEGORY} value={none} />
        </label>
      ) : null}
    </fieldset>
  );
}

/** A failed run's reason, or a finished run's report with everything that did not come. */
export function RunOutcome({ run, children }: { run: ImportRunView; children?: React.ReactNode }) {
  if (run.status === 'failed') {
    return (
      <div role="alert" className="alert alert-error mt-4">
        {run.error}
      </div>
    );
  }
  if (run.status !== 'done' || !run.report) return null;
  return (
    <div className="mt-4" data-testid="import-report">
      {isSubscriberList(run) ? null : <p data-testid="import-report-line">{IMPORT_TEXTS.reportLine(run.report)}</p>}
      {Object.values(run.report.subscribers).some((n) => n > 0) ? <p className="mt-2" data-testid="import-report-subscribers">{IMPORT_TEXTS.reportSubscribers(run.report.subscribers)}</p> : null}
      {children}
      {run.report.skipped.length > 0 ? (
        <details className="mt-3">
          <summary>{IMPORT_TEXTS.skippedSummary(run.report.skipped.length)}</summary>
          <ul className="mt-2 list-disc pl-6">
            {run.report.skipped.slice(0, 500).map((s, i) => (
              <li key={i}>
                {s.item}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
