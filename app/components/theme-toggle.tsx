import { useEffect, useState } from 'react';
import { applyTheme, currentTheme, type ThemePreference } from '~/lib/page/theme';

/** Light/dark switch stored under local storage `theme` (docs/product.md#navigation-bar). */
export function ThemeToggle() {
  const [theme, setTheme] = useState<ThemePreference | null>(null);
  useEffect(() => setTheme(currentTheme()), []);
  const next: ThemePreference = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="btn btn-ghost btn-circle"
      aria-label={theme ? `Switch to ${next} theme` : 'Switch theme'}
      title={theme ? `Switch to ${next} theme` : 'Switch theme'}
      data-testid="theme-toggle"
      onClick={() => {
        const chosen = currentTheme() === 'dark' ? 'light' : 'dark';
        applyTheme(chosen);
        setTheme(chosen);
      }}
    >
      <svg className="theme-icon-dark h-5 w-5" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z" />
      </svg>
      <svg className="theme-icon-light h-5 w-5" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <circle cx="12" cy="12" r="4.5" fill="currentColor" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    </button>
  );
}
