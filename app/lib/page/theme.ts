/** Local-storage key and values of the theme preference (docs/product.md#navigation-bar). */
export const THEME_STORAGE_KEY = 'theme';
export type ThemePreference = 'light' | 'dark';
/** daisyUI theme names behind the two preferences. */
export const DAISY_THEME: Record<ThemePreference, string> = { light: 'afterglow', dark: 'sunset' };

/**
 * Runs inline in <head>, before the body is parsed, so the stored or OS theme applies before the
 * first paint (no flash). Kept tiny and dependency-free on purpose.
 */
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t!=='light'&&t!=='dark'){t=window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.setAttribute('data-theme',t==='dark'?'${DAISY_THEME.dark}':'${DAISY_THEME.light}')}catch(e){}})();`;

export function currentTheme(): ThemePreference {
  return document.documentElement.getAttribute('data-theme') === DAISY_THEME.dark ? 'dark' : 'light';
}

export function applyTheme(theme: ThemePreference) {
  document.documentElement.setAttribute('data-theme', DAISY_THEME[theme]);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode or storage disabled: the choice lasts for this page only.
  }
}
