/**
 * Screen helpers shared by the spec files: the shared list screen (rows, range, filters), the
 * searchable selects (react-select), toasts and the form's field boxes.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The list's table body rows (the header row excluded). */
export const bodyRows = (page: Page, title: string): Locator =>
  page.getByRole('table', { name: title }).locator('tbody tr');

/** The list's summary under the title, e.g. '1–5 di 20'. */
export const range = (page: Page): Locator => page.getByText(/^\d+–\d+ di \d+$/);

/** Opens the 'Filtri di Ricerca' panel (if closed) and returns it. */
export async function openFilters(page: Page): Promise<Locator> {
  const toggle = page.getByRole('button', { name: 'Filtri di Ricerca' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return page.getByRole('region', { name: 'Filtri di Ricerca' });
}

/** Free-text search of a list ('Ricerca libera', then 'Cerca'). */
export async function searchList(page: Page, text: string): Promise<void> {
  const filters = await openFilters(page);
  await filters.getByLabel('Ricerca libera').fill(text);
  await filters.getByRole('button', { name: 'Cerca', exact: true }).click();
}

/** Picks an option of a searchable select (react-select) by typing part of its label. */
export async function pick(page: Page, combobox: Locator, search: string, option: string): Promise<void> {
  await combobox.click();
  await combobox.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The box of one form field: the element whose direct child is the field's <label> (FormField
 * renders label, control, hint and error inside one <div>). `label` is the label's text without
 * the required mark ('*', hidden from assistive technology) that may follow it.
 */
export function fieldBox(scope: Page | Locator, label: string): Locator {
  const pattern = `^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`;
  return scope.locator(`div:has(> label:text-matches(${JSON.stringify(pattern)}))`);
}

/**
 * What a searchable select shows as its value: the chosen option's label, or the placeholder
 * ('Seleziona…') when empty. react-select renders either as the control's only text, apart
 * from its screen-reader live region (which only speaks while the control has focus).
 */
export function selectShown(scope: Page | Locator, label: string): Locator {
  return fieldBox(scope, label).locator('[class*="-singleValue"], [class*="-placeholder"]');
}

/** A toast (react-toastify, role alert) with this text. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.Toastify').getByRole('alert').filter({ hasText: text });
}

/**
 * Exactly one toast with this text is on screen; it is then closed (its 'Chiudi notifica'
 * button), so a later identical toast is told apart from this one.
 */
export async function expectToastOnce(page: Page, text: string | RegExp): Promise<void> {
  const found = toast(page, text);
  await expect(found).toHaveCount(1);
  await expect(found).toBeVisible();
  await found.getByRole('button', { name: 'Chiudi notifica' }).click();
  await expect(found).toHaveCount(0);
}
