/** The Hidden mark on a blog only its writer sees: filled, so it reads at a glance in both themes. */
export function HiddenBadge() {
  return <span className="badge badge-hidden">Hidden</span>;
}

/** Above a Hidden blog, for its writer (the only one who can open it). */
export function HiddenBanner() {
  return (
    <p className="flex items-center gap-2 rounded-box bg-[var(--hidden-badge-bg)] px-4 py-3 font-semibold text-[var(--hidden-badge)]" data-testid="hidden-banner">
      <svg viewBox="0 0 24 24" className="h-5 w-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c5 0 9 4.5 10 7-.4 1-1.3 2.4-2.6 3.7M6.1 6.1C4 7.5 2.6 9.6 2 12c1 2.5 5 7 10 7 1.6 0 3.1-.4 4.4-1.1M9.9 9.9a3 3 0 0 0 4.2 4.2" />
      </svg>
      Only you can see this
    </p>
  );
}
