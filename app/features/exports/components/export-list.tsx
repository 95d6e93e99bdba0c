import { LocalTime } from '~/components/local-format';
import { MESSAGES } from '~/lib/texts/messages';
import type { ExportView } from '../exports.schema';

/** The caller's latest exports (docs/decisions/074): each one's state, and its link while it works (a plain link: the file is a download, not a page). */
export function ExportList({ exports }: { exports: ExportView[] }) {
  if (exports.length === 0) return null;
  return (
    <div className="mt-2">
      <h3 className="font-semibold">{MESSAGES.exportListHeading}</h3>
      <ul className="mt-2 flex flex-col gap-2" data-testid="export-list">
        {exports.map((e) => (
          <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-box bg-base-200 p-3" data-export-status={e.status}>
            <LocalTime iso={e.createdAt} withTime />
            {e.downloadUrl ? (
              <>
                <a className="link link-primary font-semibold" href={e.downloadUrl} download data-testid="export-download">{MESSAGES.exportDownload}</a>
                {e.sizeBytes !== null ? <span className="text-sm opacity-85">{formatSize(e.sizeBytes)}</span> : null}
                {e.expiresAt ? <span className="text-sm opacity-85">{MESSAGES.exportExpires} <LocalTime iso={e.expiresAt} withTime /></span> : null}
              </>
            ) : (
              <span className="text-sm opacity-85">{e.status === 'pending' ? MESSAGES.exportPending : e.status === 'failed' ? MESSAGES.exportFailed : MESSAGES.exportExpired}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

const formatSize = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

