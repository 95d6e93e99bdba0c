/**
 * react-fast-marquee ships CommonJS only; depending on how the bundler's
 * interop reads them, their default import is the component or an object holding it.
 */
export function cjsDefault<T>(imported: T): T {
  const wrapped = imported as T & { default?: T };
  return typeof imported === 'object' && imported !== null && wrapped.default ? wrapped.default : imported;
}
