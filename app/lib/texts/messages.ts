/**
 * The product's user-facing texts, verbatim (docs/product.md#messages), each in one place. Typos
 * included on purpose where the product has them ('Opps!!', 'Succesfully'). Never retype one elsewhere.
 *
 * `MESSAGES.someText` reads as before, but `MESSAGES` is a module namespace over app/lib/texts/:
 * the bundler follows each `MESSAGES.x` to its own `export const`, so a page's JavaScript carries
 * only the texts its code uses, and only the groups (modules) holding them (docs/decisions/038).
 * An object literal was shipped whole to every page. Add a text to the group of the screens
 * that show it; read it with a plain `MESSAGES.name` (a computed `MESSAGES[key]` would make the
 * bundler keep every text).
 */
export * as MESSAGES from './index';

/** The footer's description of the product (docs/product.md#footer). */
export const SITE_DESCRIPTION =
  'A blogging page where people share and read various kinds of blogs: travel tales, tech tips, recipes, crafts and more.';
