import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  accounts,
  apiLogin,
  expectCustomerArea,
  expectNoHorizontalOverflow,
  login,
  pick,
  screenshot,
  searchList,
  toast,
} from './support';
import { adminCalls, createCustomer, milanoId, stampOf, subscribeByTransfer } from './support/demo-tenant';

/**
 * 'Cambia piano' (issue 30), as the seller's Admin does it. A customer pays a 20 € monthly plan by
 * bank transfer; ten days into the period the Admin moves them to a 50 € plan at once: the dialog's
 * preview is checked line by line against the figures this test computes from the dates (the
 * unused days credited, the new plan's days charged, VAT 22 %, the net to pay, the next period),
 * looked at in 1280 and 390 px; once confirmed the page shows the new plan, the history row, the
 * proration payment (paid by transfer with its causale) and the credit note in 'Fatture'. The proration paid,
 * the Admin schedules a move back to the cheaper plan at the renewal (the dialog's default for a
 * cheaper plan), sees it on the page and cancels it. Then the customer's own: with the tenant's
 * 'customerPlanChange' on, the demo customer upgrades from their area (the plans offered with their
 * price, the same preview, the done step in their words), looked at in 1280 and 390 px.
 */

const DAY_MS = 86_400_000;
const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

const norm = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
/** '12,34 €' as it-IT writes an amount in cents (spaces normalised, as `norm` reads the page). */
const eur = (cents: number) =>
  norm(new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(cents / 100));
/** The Rome calendar day of an instant, YYYY-MM-DD. */
const romeDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const italian = (day: string) => day.split('-').reverse().join('/');
const dayBefore = (day: string) => new Date(Date.parse(day) - DAY_MS).toISOString().slice(0, 10);
/** a × b / c in integer cents, half-up. */
const share = (a: number, b: number, c: number) => Math.floor((2 * a * b + c) / (2 * c));
const vat22 = (cents: number) => share(cents, 22, 100);

/** The value beside a label in one of the preview's figure lists. */
async function figure(scope: Locator, label: string | RegExp): Promise<string> {
  const row = scope.locator('dl > div').filter({ has: scope.page().locator('dt', { hasText: label }) });
  return norm(await row.locator('dd').first().textContent());
}

async function shots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoHorizontalOverflow(page);
    await screenshot(page, `plan-change/${width}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an Admin upgrades now with an itemised preview, then schedules a downgrade at renewal and cancels it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const call = await adminCalls();
  const stamp = stampOf();
  const name = `Giulia Conti ${stamp}`;
  const customerId = await createCustomer(call, {
    name,
    email: `giulia.conti.${stamp}@example.it`,
    fiscalCode: 'RSSMRA80A01H501U',
    street: 'Via Dante 7',
    zip: '20121',
    municipality: await milanoId(call),
  });
  const plan = async (planName: string, cost: number) => {
    const res = await call<{ id: number }>('POST', '/api/plan/Create', {
      name: planName,
      recurringCostBeforeVAT: cost,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.data!.id, name: planName };
  };
  const start = await plan(`Start ${stamp}`, 20);
  const plus = await plan(`Plus ${stamp}`, 50);
  const { id } = await subscribeByTransfer(call, customerId, start.id, 'confirmed', {
    startDate: new Date(Date.now() - 10 * DAY_MS).toISOString(),
  });
  const sub = (
    await call<{ nextBillingDate: string; payments: { periodStart: string }[] }>(
      'GET',
      `/api/subscription/GetById/${id}`,
    )
  ).body.data!;

  // The figures, from the dates: Rome days, the change day the new plan's, the end day excluded.
  const today = romeDay(new Date());
  const startDay = romeDay(new Date(sub.payments[0]!.periodStart));
  const endDay = romeDay(new Date(sub.nextBillingDate));
  const total = days(startDay, endDay);
  const unused = days(today, endDay);
  const credit = share(2000, unused, total);
  const charge = share(5000, unused, total);
  const creditNet = credit + vat22(credit);
  const chargeNet = charge + vat22(charge);
  const toPay = chargeNet - creditNet;
  const nextPeriod = 5000 + vat22(5000);
  const from = italian(today);
  const to = italian(dayBefore(endDay));

  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.admin, { to: `/subscription/${id}` });
  await expect(heading1(page, 'Modifica Sottoscrizione')).toBeVisible();
  await page.getByRole('button', { name: 'Cambia piano' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambia piano' });
  await expect(dialog.getByText('Scegli il nuovo piano per vedere l’anteprima.')).toBeVisible();
  await pick(page, dialog.getByRole('combobox', { name: 'Nuovo piano' }), `Plus ${stamp}`, plus.name);
  // A dearer plan: 'Subito' by default.
  await expect(dialog.getByRole('radio', { name: /^Subito/ })).toBeChecked();
  const preview = dialog.getByRole('region', { name: 'Anteprima del cambio' });
  await expect(preview).toContainText(`«${start.name}» → «${plus.name}»`);
  await expect(preview).toContainText(
    `Dal ${from}: ${unused} ${unused === 1 ? 'giorno' : 'giorni'} su ${total} del periodo in corso`,
  );

  // The lines, each with its period.
  const lines = preview.getByRole('list', { name: 'Righe del conguaglio' }).locator('li');
  await expect(lines).toHaveCount(2);
  expect(norm(await lines.nth(0).textContent())).toBe(
    `Storno giorni non goduti piano «${start.name}» dal ${from} al ${to}Nota di credito · ${unused} giorni− ${eur(credit)}`,
  );
  expect(norm(await lines.nth(1).textContent())).toBe(
    `Piano «${plus.name}» dal ${from} al ${to} (conguaglio cambio piano)Fattura · ${unused} giorni${eur(charge)}`,
  );
  // Each document's figures.
  const creditDoc = preview.getByRole('group', { name: 'Nota di credito (giorni non goduti)' });
  expect(await figure(creditDoc, 'Imponibile')).toBe(`− ${eur(credit)}`);
  expect(await figure(creditDoc, 'IVA 22 %')).toBe(`− ${eur(vat22(credit))}`);
  expect(await figure(creditDoc, 'Netto')).toBe(`− ${eur(creditNet)}`);
  const chargeDoc = preview.getByRole('group', { name: 'Fattura (giorni del nuovo piano)' });
  expect(await figure(chargeDoc, 'Imponibile')).toBe(eur(charge));
  expect(await figure(chargeDoc, 'IVA 22 %')).toBe(eur(vat22(charge)));
  expect(await figure(chargeDoc, 'Netto')).toBe(eur(chargeNet));
  // A private customer of an Srl: no cassa, no ritenuta.
  await expect(preview.getByText('Cassa previdenziale')).toHaveCount(0);
  await expect(preview.getByText('Ritenuta d’acconto')).toHaveCount(0);
  expect(await figure(preview, 'Netto da pagare')).toBe(eur(toPay));
  await expect(preview.getByText('Credito residuo')).toHaveCount(0);
  expect(await figure(preview, `Dal rinnovo del ${italian(endDay)}`)).toBe(`${eur(nextPeriod)} (mensile)`);
  await shots(page, 'upgrade-preview');

  await dialog.getByRole('button', { name: 'Conferma cambio piano' }).click();
  const done = page.getByRole('dialog', { name: 'Piano cambiato' });
  await expect(done).toContainText(`Piano cambiato: ora «${plus.name}».`);
  const noteNumber = /Nota di credito n\. (\S+) emessa/.exec(norm(await done.textContent()))?.[1];
  expect(noteNumber, 'the credit note number').toBeTruthy();
  await expect(done).toContainText(`Pagamento di conguaglio di ${eur(toPay)} da incassare.`);
  await shots(page, 'upgrade-done');
  // A bank-transfer subscription: the proration is paid by transfer with its own causale.
  await expect(done).toContainText(/Il cliente lo paga con bonifico, causale RNV-\S+:/);
  await done.getByRole('button', { name: 'Chiudi' }).last().click();

  // The page: new plan and amount, history, the proration payment.
  await expect(page.getByText(`${name} · ${plus.name} · ${eur(nextPeriod)}`)).toBeVisible();
  await expect(page.getByText(`Piano cambiato da «${start.name}» a «${plus.name}»`)).toBeVisible();
  const payments = page.getByRole('table', { name: 'Pagamenti' });
  const proration = payments.locator('tbody tr').filter({ hasText: 'Non ancora pagato' });
  await expect(proration).toHaveCount(1);
  await expect(proration).toContainText(eur(toPay));
  await expect(proration).toContainText(`${from} – ${italian(endDay)}`);
  await expect(page.getByRole('button', { name: 'Cambia piano' })).toBeVisible();

  // The credit note, where the invoices are.
  await page.goto('/invoice');
  await searchList(page, name);
  const invoices = page.getByRole('table', { name: 'Fatture' }).locator('tbody tr');
  await expect(invoices.filter({ hasText: noteNumber! })).toHaveCount(1);

  // The proration paid (by transfer), a move back to the cheaper plan at the renewal.
  const prorationId = (
    await call<{ payments: { id: number; amountDue: number; paidAt: string | null }[] }>(
      'GET',
      `/api/subscription/GetById/${id}`,
    )
  ).body.data!.payments.find((p) => !p.paidAt)!.id;
  const paid = await call('POST', `/api/collection/markPaid/${prorationId}`, {
    amount: toPay / 100,
    approvalDate: new Date().toISOString(),
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  await page.goto(`/subscription/${id}`);
  await page.getByRole('button', { name: 'Cambia piano' }).click();
  await pick(page, dialog.getByRole('combobox', { name: 'Nuovo piano' }), `Start ${stamp}`, start.name);
  // A cheaper plan: at the renewal by default, nothing to pay now.
  await expect(dialog.getByRole('radio', { name: /^Al prossimo rinnovo/ })).toBeChecked();
  await expect(preview).toContainText(
    `Il nuovo piano parte al rinnovo del ${italian(endDay)}: nessun conguaglio`,
  );
  expect(await figure(preview, 'Netto da pagare')).toBe(eur(0));
  expect(await figure(preview, `Dal rinnovo del ${italian(endDay)}`)).toBe(
    `${eur(2000 + vat22(2000))} (mensile)`,
  );
  await shots(page, 'downgrade-preview');
  await dialog.getByRole('button', { name: 'Conferma cambio piano' }).click();
  await expect(
    toast(page, `Cambio di piano programmato: «${start.name}» dal ${italian(endDay)}.`),
  ).toBeVisible();
  const scheduled = page.getByText(`Cambio piano programmato al ${italian(endDay)}: ${start.name}`);
  await expect(scheduled).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cambia piano' })).toHaveCount(0);
  await shots(page, 'scheduled');

  await page.getByRole('button', { name: 'Annulla cambio programmato' }).click();
  await page.getByRole('button', { name: 'Sì, annulla il cambio' }).click();
  await expect(
    toast(page, `Cambio di piano a «${start.name}» dal ${italian(endDay)} annullato.`),
  ).toBeVisible();
  await expect(scheduled).toHaveCount(0);
  await expect(
    page.getByText(`Annullato il cambio di piano programmato a «${start.name}» dal ${italian(endDay)}`),
  ).toBeVisible();
  await expect(page.getByText(`${name} · ${plus.name} · ${eur(nextPeriod)}`)).toBeVisible();
});

test('a customer whose seller allows it upgrades from their area with the same itemised preview', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const call = await adminCalls();
  const stamp = stampOf();
  const me = (await apiLogin(accounts.cliente)).user.id;
  // The seller lets its customers change plan ('Dati' tab of the tenant).
  const tenantId = (
    await call<{ items: { id: number; name: string }[] }>('GET', '/api/tenant/getAll')
  ).body.data!.items.find((t) => t.name === 'Demo Srl')!.id;
  const tenant = (await call<Record<string, unknown>>('GET', `/api/tenant/GetById/${tenantId}`)).body.data!;
  expect((await call('PUT', '/api/tenant/Update', { ...tenant, customerPlanChange: true })).status).toBe(200);

  const plan = async (planName: string, cost: number) => {
    const res = await call<{ id: number }>('POST', '/api/plan/Create', {
      name: planName,
      recurringCostBeforeVAT: cost,
      vatPercentage: 22,
      recurrenceType: 1,
      isActive: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.data!.id, name: planName };
  };
  const start = await plan(`Start cliente ${stamp}`, 20);
  const plus = await plan(`Plus cliente ${stamp}`, 50);
  await subscribeByTransfer(call, me, start.id, 'confirmed', {
    startDate: new Date(Date.now() - 10 * DAY_MS).toISOString(),
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, accounts.cliente);
  await expectCustomerArea(page);
  const card = page
    .getByRole('list', { name: 'I tuoi abbonamenti' })
    .locator('> li')
    .filter({ has: page.getByRole('heading', { name: start.name, exact: true }) });
  await card.getByRole('button', { name: 'Cambia piano' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambia piano' });
  await expect(dialog.getByText('Scegli il nuovo piano per vedere l’anteprima.')).toBeVisible();
  const choices = dialog.getByRole('group', { name: 'Nuovo piano' });
  // Only the active plans of the same recurrence, the current one left out, with this customer's price.
  await expect(choices.getByRole('radio', { name: new RegExp(start.name) })).toHaveCount(0);
  await expect(choices.locator('label').filter({ hasText: plus.name })).toContainText(eur(6100));
  await shots(page, 'customer-dialog');
  await choices.getByRole('radio', { name: new RegExp(plus.name) }).check();
  await expect(dialog.getByRole('radio', { name: /^Subito/ })).toBeChecked();
  const preview = dialog.getByRole('region', { name: 'Anteprima del cambio' });
  await expect(preview).toContainText(`«${start.name}» → «${plus.name}»`);
  await expect(preview.getByRole('list', { name: 'Righe del conguaglio' }).locator('li')).toHaveCount(2);
  await shots(page, 'customer-preview');

  await dialog.getByRole('button', { name: 'Conferma cambio piano' }).click();
  const done = page.getByRole('dialog', { name: 'Piano cambiato' });
  await expect(done).toContainText('Nota di credito n.');
  await expect(done).toContainText('con un bonifico all’IBAN del fornitore indicando la causale');
  await shots(page, 'customer-done');
  await done.locator('footer').getByRole('button', { name: 'Chiudi' }).click();
  await expect(
    page
      .getByRole('list', { name: 'I tuoi abbonamenti' })
      .locator('> li')
      .filter({ has: page.getByRole('heading', { name: plus.name, exact: true }) }),
  ).toBeVisible();

  // The proration waits in 'Da pagare ora': 'Paga ora' opens its card payment page when the
  // tenant has an active Stripe (file 18 leaves one in a whole run), else the bank transfer's data
  // (issue 30, 'The customer area after the first payment').
  const due = page
    .getByRole('region', { name: 'Da pagare ora' })
    .locator('li')
    .filter({ hasText: plus.name });
  await expect(due).toContainText('Conguaglio cambio di piano');
  await expect(due).toContainText('Causale RNV-');
  const providers = await call<{ items: { kind: string; isActive: boolean }[] }>(
    'GET',
    '/api/paymentprovider/getAll?page=1&pageSize=50',
  );
  const byCard = providers.body.data!.items.some((p) => p.kind === 'stripe' && p.isActive);
  await due.getByRole('button', { name: 'Paga ora' }).click();
  if (byCard) {
    await page.waitForURL(/\/payment\?token=/);
    await expect(page.getByTestId('payment-extra')).toContainText('Conguaglio cambio di piano');
  } else {
    await expect(page.getByText('IBAN').first()).toBeVisible();
  }
  await shots(page, 'customer-due');

  // Back to the default, for the other files' customer area.
  expect((await call('PUT', '/api/tenant/Update', { ...tenant, customerPlanChange: false })).status).toBe(
    200,
  );
});
