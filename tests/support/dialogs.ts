import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** Waits for the dialog titled `title` and checks it shows `text`; returns it for closing. */
export async function expectDialog(page: Page, title: string, text: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  expect(await dialog.getByText(text, { exact: true }).isVisible()).toBe(true);
  return dialog;
}
