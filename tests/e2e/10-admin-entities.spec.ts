import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  accounts,
  apiLogin,
  bodyRows,
  env,
  expectNoHorizontalOverflow,
  expectOpaque,
  expectToastOnce,
  login,
  outboxSnapshot,
  pick,
  range,
  resetLinkOf,
  screenshot,
  searchList,
  selectShown,
  toast,
  waitForMail,
} from './support';

/** A suffix no earlier run used, so reruns against the same database do not collide. */
const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** contract/schemas/payment-provider.ts SECRET_MASK: what a stored secret reads as, everywhere. */
const SECRET_MASK = '••••••••';
const DEMO_PROVIDER = 'PayPal Sandbox (credenziali segnaposto)';
const DEMO_PROVIDER_SECRET = 'SEGNAPOSTO-sandbox-secret';

/** Spec §2: the user list's nine columns, in order (after the select-all box, before 'Azioni'). */
const USER_COLUMNS = [
  'Nome completo',
  'Indirizzo email',
  'Indirizzo PEC',
  'Azienda',
  'Codice SDI',
  'Partita IVA',
  'Numero di telefono',
  'Ruolo utente',
  'Utente Attivo',
];

/**
 * Types a new value, as a person would before reaching for 'Avanti': no blur, the message of a
 * field clears while its value becomes valid.
 */
async function retype(field: Locator, value: string): Promise<void> {
  await field.fill(value);
}

/**
 * Clicks with the mouse at the control's current position, as a person does after typing: the
 * mousedown blurs the field first, so a message that vanished or appeared on blur would move the
 * control away before mouseup and the click would land nowhere.
 */
async function mouseClick(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('control not visible');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const heading1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

/** The value (dd) beside a label (dt) of the wizard's summary. */
const summaryValue = (scope: Locator, label: string) =>
  scope.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);

/** Headers the SPA sends on a signed-in, tenant-scoped call. */
async function adminHeaders(): Promise<Record<string, string>> {
  const { token, user } = await apiLogin(accounts.admin);
  return {
    'x-api-key': env.apiKey,
    Authorization: `Bearer ${token}`,
    'X-Tenant-Id': String(user.defaultTenantId),
  };
}

test.describe('Admin of Demo Srl, desktop 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test.describe.serial('a customer: created through the wizard, then its billing address edited', () => {
    const tag = uniqueTag();
    const customer = {
      email: `cliente.${tag}@e2e.rinnova.it`,
      name: `Cliente E2E ${tag}`,
      phone: '+39 049 8123456',
      street: 'Via Monteortone 5',
      zip: '35031',
    };
    let customerId = 0;

    test('wizard: each step’s validation, the summary, then the list and the set-password e-mail', async ({
      page,
    }) => {
      const mailsBefore = await outboxSnapshot();
      await login(page, accounts.admin, { to: '/user' });
      await expect(heading1(page, 'Lista Utenti')).toBeVisible();
      await page.getByRole('link', { name: 'Crea Nuovo Utente' }).click();
      await expect(page).toHaveURL(/\/user-wizard$/);
      await expect(heading1(page, 'Creazione Utente Wizard')).toBeVisible();

      const steps = page.getByRole('list', { name: 'Avanzamento' }).getByRole('listitem');
      const current = page.getByText(/^Passo \d di 4$/);
      const next = page.getByRole('button', { name: 'Avanti' });

      await test.step('1 e-mail: required, format, already in the database, then a new one', async () => {
        await expect(current).toHaveText('Passo 1 di 4');
        await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
        const email = page.getByRole('textbox', { name: 'Indirizzo email', exact: true });

        await next.click();
        await expect(page.getByText('L’email è obbligatoria.')).toBeVisible();
        await expect(email).toHaveAttribute('aria-invalid', 'true');

        let checks = 0;
        page.on('request', (r) => {
          if (r.url().includes('/api/user/isEmailUnique/')) checks += 1;
        });
        await retype(email, 'non-una-email');
        await next.click();
        await expect(page.getByText('Formato email non valido.')).toBeVisible();
        await expect(page.getByText('L’email è obbligatoria.')).toHaveCount(0);
        await expect(current).toHaveText('Passo 1 di 4');
        expect(checks, 'a malformed e-mail is not sent to the server').toBe(0);

        await retype(email, accounts.admin.email);
        await expect(page.getByText('Formato email non valido.')).toHaveCount(0);
        const check = page.waitForResponse((r) => r.url().includes('/api/user/isEmailUnique/'));
        await next.click();
        expect(((await (await check).json()) as { data: unknown }).data).toBe(false);
        await expect(page.getByText('L’email esiste già nel database.')).toBeVisible();
        await expect(current).toHaveText('Passo 1 di 4');
        await screenshot(page, 'wizard-step-1');

        await retype(email, customer.email);
        await next.click();
        await expect(current).toHaveText('Passo 2 di 4');
      });

      await test.step('2 personal data: name required; role User', async () => {
        await expect(page.getByRole('heading', { level: 2, name: 'Dati personali' })).toBeVisible();
        await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
        // Spec §5: the wizard's default role is Admin; a customer is a User.
        const role = page.getByLabel('Ruolo utente');
        await expect(role.locator('option:checked')).toHaveText('Admin');
        await expect(page.getByLabel('Utente Attivo')).toBeChecked();

        await next.click();
        await expect(page.getByText('Il nome è obbligatorio.')).toBeVisible();
        await expect(current).toHaveText('Passo 2 di 4');

        await retype(page.getByRole('textbox', { name: 'Nome completo', exact: true }), customer.name);
        await expect(page.getByText('Il nome è obbligatorio.')).toHaveCount(0);
        await page.getByLabel('Numero di telefono').fill(customer.phone);
        await role.selectOption({ label: 'User' });
        await screenshot(page, 'wizard-step-2');
        await next.click();
        await expect(current).toHaveText('Passo 3 di 4');
      });

      await test.step('3 billing address: street and municipality required; region → province → comune', async () => {
        await expect(
          page.getByRole('heading', { level: 2, name: 'Indirizzo di fatturazione' }),
        ).toBeVisible();
        const region = page.getByRole('combobox', { name: 'Regione', exact: true });
        const province = page.getByRole('combobox', { name: 'Provincia', exact: true });
        const comune = page.getByRole('combobox', { name: 'Comune', exact: true });
        // Spec §4: province disabled without a region, comune without a province.
        await expect(province).toBeDisabled();
        await expect(comune).toBeDisabled();

        await next.click();
        await expect(page.getByText('La via è obbligatoria.')).toBeVisible();
        await expect(page.getByText('Il municipio è obbligatorio.')).toBeVisible();
        await expect(current).toHaveText('Passo 3 di 4');

        await page.getByRole('textbox', { name: 'Via', exact: true }).fill(customer.street);
        await page.getByRole('textbox', { name: 'CAP', exact: true }).fill(customer.zip);
        await pick(page, region, 'Vene', 'Veneto');
        await expect(province).toBeEnabled();
        await expect(comune).toBeDisabled();
        await pick(page, province, 'Pado', 'Padova');
        await expect(comune).toBeEnabled();
        await pick(page, comune, 'Abano', 'Abano Terme');
        await expect(selectShown(page, 'Regione')).toHaveText('Veneto');
        await expect(selectShown(page, 'Provincia')).toHaveText('Padova');
        await expect(selectShown(page, 'Comune')).toHaveText('Abano Terme');
        await expect(page.getByText('La via è obbligatoria.')).toHaveCount(0);
        await expect(page.getByText('Il municipio è obbligatorio.')).toHaveCount(0);
        await screenshot(page, 'wizard-step-3');
        await next.click();
        await expect(current).toHaveText('Passo 4 di 4');
      });

      await test.step('4 summary shows what was entered; confirm creates the user', async () => {
        await expect(page.getByRole('heading', { level: 2, name: 'Riepilogo' })).toBeVisible();
        const account = page.getByRole('region', { name: 'Account' });
        const personal = page.getByRole('region', { name: 'Dati personali' });
        const billing = page.getByRole('region', { name: 'Indirizzo di fatturazione' });
        await expect(summaryValue(account, 'Indirizzo email')).toHaveText(customer.email);
        await expect(summaryValue(account, 'Ruolo utente')).toHaveText('User');
        await expect(summaryValue(personal, 'Nome completo')).toHaveText(customer.name);
        await expect(summaryValue(personal, 'Numero di telefono')).toHaveText(customer.phone);
        await expect(summaryValue(personal, 'Indirizzo PEC')).toHaveText('N/D');
        await expect(summaryValue(personal, 'Azienda')).toHaveText('No');
        await expect(summaryValue(personal, 'Utente Attivo')).toHaveText('Sì');
        await expect(summaryValue(billing, 'Via')).toHaveText(customer.street);
        await expect(summaryValue(billing, 'CAP')).toHaveText(customer.zip);
        await expect(summaryValue(billing, 'Regione')).toHaveText('Veneto');
        await expect(summaryValue(billing, 'Provincia')).toHaveText('Padova');
        await expect(summaryValue(billing, 'Comune')).toHaveText('Abano Terme');
        await screenshot(page, 'wizard-step-4');

        const created = page.waitForResponse(
          (r) => r.url().includes('/api/user/Create') && r.request().method() === 'POST',
        );
        await page.getByRole('button', { name: 'Conferma e crea utente' }).click();
        const answer = (await (await created).json()) as { success: boolean; data: { id: number } };
        expect(answer.success).toBe(true);
        customerId = answer.data.id;
        await expect(toast(page, 'Utente creato con successo!')).toBeVisible();
        await expect(page).toHaveURL(/\/user$/);
      });

      await test.step('the set-password e-mail is in the outbox', async () => {
        const mail = await waitForMail((m) => m.to === customer.email, mailsBefore);
        expect(mail.subject).toBe('Rinnova: imposta la password del tuo account');
        expect(mail.text).toContain(`Ciao ${customer.name},`);
        expect(mail.text).toContain('Demo Srl ha creato per te un account su Rinnova.');
        const link = resetLinkOf(mail);
        expect(link.origin).toBe(new URL(env.baseUrl).origin);
        expect(link.searchParams.get('token')).toBeTruthy();
      });

      await test.step('the list: nine labelled columns; search finds the new customer', async () => {
        await expect(heading1(page, 'Lista Utenti')).toBeVisible();
        await expect(page.getByRole('columnheader')).toHaveText(['', ...USER_COLUMNS, 'Azioni']);
        const rows = bodyRows(page, 'Lista Utenti');
        await expect(rows).not.toHaveCount(0);
        await expect(page.getByText('Ancora niente qui ¯\\_(ツ)_/¯')).toHaveCount(0);
        await screenshot(page, 'user-list');

        await searchList(page, tag);
        await expect(range(page)).toHaveText('1–1 di 1');
        await expect(rows).toHaveCount(1);
        await expect(rows.first().getByRole('cell')).toHaveText([
          '',
          customer.name,
          customer.email,
          'N/D',
          'No',
          'N/D',
          'N/D',
          customer.phone,
          'User',
          'Sì',
          '',
        ]);
      });
    });

    test('billing address tab: a new region clears province and comune; the new address is kept', async ({
      page,
    }) => {
      expect(customerId, 'the wizard test created the customer').toBeGreaterThan(0);
      await login(page, accounts.admin, { to: '/user' });
      await searchList(page, tag);
      const rows = bodyRows(page, 'Lista Utenti');
      await expect(rows).toHaveCount(1);
      await rows.first().getByRole('link', { name: 'Modifica' }).click();
      await expect(page).toHaveURL(new RegExp(`/user/${customerId}$`));
      await expect(heading1(page, 'Modifica Utente')).toBeVisible();
      await expectOpaque(page.locator('[data-visible]'));

      const tabs = page.getByRole('tablist', { name: 'Modifica Utente' });
      await expect(tabs.getByRole('tab')).toHaveText(['Dati utente', 'Indirizzo di fatturazione']);
      const dataTab = tabs.getByRole('tab', { name: 'Dati utente' });
      const billingTab = tabs.getByRole('tab', { name: 'Indirizzo di fatturazione' });
      await expect(dataTab).toHaveAttribute('aria-selected', 'true');
      const dataPanel = page.getByRole('tabpanel', { name: 'Dati utente' });
      await expect(dataPanel.getByLabel('Nome completo')).toHaveValue(customer.name);
      await expect(dataPanel.getByLabel('Indirizzo email')).toHaveValue(customer.email);
      await expect(dataPanel.getByLabel('Ruolo utente').locator('option:checked')).toHaveText('User');
      await screenshot(page, 'user-detail-data');

      await billingTab.click();
      await expect(billingTab).toHaveAttribute('aria-selected', 'true');
      const billing = page.getByRole('tabpanel', { name: 'Indirizzo di fatturazione' });
      await expect(billing).toBeVisible();
      await expect(dataPanel).toBeHidden();
      const region = billing.getByLabel('Regione', { exact: true });
      const province = billing.getByLabel('Provincia', { exact: true });
      const comune = billing.getByLabel('Comune', { exact: true });
      await expect(billing.getByLabel('Via', { exact: true })).toHaveValue(customer.street);
      await expect(billing.getByLabel('CAP', { exact: true })).toHaveValue(customer.zip);
      await expect(selectShown(billing, 'Regione')).toHaveText('Veneto');
      await expect(selectShown(billing, 'Provincia')).toHaveText('Padova');
      await expect(selectShown(billing, 'Comune')).toHaveText('Abano Terme');
      await screenshot(page, 'user-detail-billing');

      await test.step('changing the region clears province and comune; comune waits for a province', async () => {
        await pick(page, region, 'Tosc', 'Toscana');
        await expect(selectShown(billing, 'Regione')).toHaveText('Toscana');
        await expect(selectShown(billing, 'Provincia')).toHaveText('Seleziona…');
        await expect(selectShown(billing, 'Comune')).toHaveText('Seleziona…');
        await expect(province).toBeEnabled();
        await expect(comune).toBeDisabled();

        await pick(page, province, 'Fire', 'Firenze');
        await expect(comune).toBeEnabled();
        await expect(selectShown(billing, 'Comune')).toHaveText('Seleziona…');
        await pick(page, comune, 'Fieso', 'Fiesole');
        await billing.getByLabel('Via', { exact: true }).fill('Piazza Mino 1');
        await billing.getByLabel('CAP', { exact: true }).fill('50014');
      });

      await page.getByRole('button', { name: 'Salva', exact: true }).click();
      await expect(toast(page, 'Utente aggiornato con successo!')).toBeVisible();
      await expect(page).toHaveURL(/\/user(\?.*)?$/);

      await test.step('reopened, the form shows the new address', async () => {
        await page.goto(`/user/${customerId}`);
        await expect(heading1(page, 'Modifica Utente')).toBeVisible();
        await page.getByRole('tab', { name: 'Indirizzo di fatturazione' }).click();
        const reopened = page.getByRole('tabpanel', { name: 'Indirizzo di fatturazione' });
        await expect(reopened.getByLabel('Via', { exact: true })).toHaveValue('Piazza Mino 1');
        await expect(reopened.getByLabel('CAP', { exact: true })).toHaveValue('50014');
        await expect(selectShown(reopened, 'Regione')).toHaveText('Toscana');
        await expect(selectShown(reopened, 'Provincia')).toHaveText('Firenze');
        await expect(selectShown(reopened, 'Comune')).toHaveText('Fiesole');
      });
    });
  });

  test('wizard: after correcting an error one mouse click on “Avanti” is enough (steps 1–3), and leaving a field never moves “Azienda”', async ({
    page,
  }) => {
    // Regression: messages cleared only on blur, so the mousedown on 'Avanti' removed the
    // message, the button moved up and the click was lost; in step 2 a message appearing on
    // blur moved 'Azienda' the same way.
    await login(page, accounts.admin, { to: '/user-wizard' });
    await expect(heading1(page, 'Creazione Utente Wizard')).toBeVisible();
    const next = page.getByRole('button', { name: 'Avanti' });
    const current = page.getByText(/^Passo \d di 4$/);

    const email = page.getByRole('textbox', { name: 'Indirizzo email', exact: true });
    await email.fill('non-una-email');
    await mouseClick(page, next);
    await expect(page.getByText('Formato email non valido.')).toBeVisible();
    await email.fill(`mouse.${uniqueTag()}@e2e.rinnova.it`);
    await expect(page.getByText('Formato email non valido.')).toHaveCount(0);
    await mouseClick(page, next);
    await expect(current).toHaveText('Passo 2 di 4');

    const name = page.getByRole('textbox', { name: 'Nome completo', exact: true });
    const company = page.getByLabel('Azienda');
    await name.click();
    await mouseClick(page, company);
    await expect(company).toBeChecked();
    await expect(page.getByText('Il nome è obbligatorio.')).toHaveCount(0);
    await mouseClick(page, next);
    await expect(page.getByText('Il nome è obbligatorio.')).toBeVisible();
    await name.fill('Cliente Mouse');
    await mouseClick(page, next);
    await expect(current).toHaveText('Passo 3 di 4');

    await mouseClick(page, next);
    await expect(page.getByText('Il municipio è obbligatorio.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Via', exact: true }).fill('Via del Mouse 1');
    await page.getByRole('textbox', { name: 'CAP', exact: true }).fill('35031');
    await pick(page, page.getByRole('combobox', { name: 'Regione', exact: true }), 'Vene', 'Veneto');
    await pick(page, page.getByRole('combobox', { name: 'Provincia', exact: true }), 'Pado', 'Padova');
    await pick(page, page.getByRole('combobox', { name: 'Comune', exact: true }), 'Abano', 'Abano Terme');
    await expect(page.getByText('Il municipio è obbligatorio.')).toHaveCount(0);
    await mouseClick(page, next);
    await expect(current).toHaveText('Passo 4 di 4');
  });

  test('plan: required fields, VAT 22, features only after the first save, add/remove, iframe code copied', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const tag = uniqueTag();
    const name = `Piano E2E ${tag}`;
    await login(page, accounts.admin, { to: '/plan' });
    await expect(heading1(page, 'Gestisci piani di abbonamento')).toBeVisible();
    const rows = bodyRows(page, 'Gestisci piani di abbonamento');
    // The demo seed's plans.
    for (const seeded of ['Basic', 'Pro', 'Enterprise']) {
      await expect(rows.filter({ has: page.getByRole('cell', { name: seeded, exact: true }) })).toHaveCount(
        1,
      );
    }

    await test.step('new plan: required messages, VAT 22 by default, no features before saving', async () => {
      await page.getByRole('link', { name: 'Crea Nuovo Piano' }).click();
      await expect(page).toHaveURL(/\/plan\/new$/);
      await expect(heading1(page, 'Crea Nuovo Piano')).toBeVisible();
      await expectOpaque(page.locator('[data-visible]'));

      // Amounts read and type the Italian way: a text box with a decimal keyboard, '22,00'.
      const vat = page.getByRole('textbox', { name: 'IVA (%)' });
      await expect(vat).toHaveValue('22,00');
      const features = page.getByRole('region', { name: 'Funzionalità del piano' });
      await expect(features).toContainText(
        'Le funzionalità si possono aggiungere solo dopo il primo salvataggio del piano',
      );
      await expect(page.getByRole('textbox', { name: 'Nome funzionalità' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Aggiungi funzionalità' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Codice iframe del piano' })).toHaveCount(0);

      let creates = 0;
      page.on('request', (r) => {
        if (r.url().includes('/api/plan/Create')) creates += 1;
      });
      const create = page.getByRole('button', { name: 'Crea', exact: true });
      await create.click();
      await expect(page.getByText('Il nome del piano è obbligatorio.')).toBeVisible();
      await expect(page.getByText('Il costo è obbligatorio.')).toBeVisible();
      await expect(page.getByText('La ricorrenza è obbligatoria.')).toBeVisible();
      await expect(page.getByText('La percentuale IVA è obbligatoria.')).toHaveCount(0);
      await vat.fill('');
      await create.click();
      await expect(page.getByText('La percentuale IVA è obbligatoria.')).toBeVisible();
      await screenshot(page, 'plan-new-required');
      expect(creates, 'nothing is sent while required fields are empty').toBe(0);

      await page.getByRole('textbox', { name: 'Nome', exact: true }).fill(name);
      await page.getByRole('textbox', { name: 'Costo ricorrente (IVA esclusa)' }).fill('19,99');
      await vat.fill('22');
      await page.getByRole('combobox', { name: 'Ricorrenza' }).selectOption({ label: 'Mensile (1 mese)' });
      await create.click();
      await expect(toast(page, 'Nuovo elemento creato!')).toBeVisible();
      // The person stays on the new plan: its features can be added now.
      await expect(page).toHaveURL(/\/plan\/\d+$/);
      await expect(heading1(page, 'Modifica Piano')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Aggiungi funzionalità' })).toBeVisible();
      await page.getByRole('main').getByRole('link', { name: 'Gestisci piani di abbonamento' }).click();
      await expect(page).toHaveURL(/\/plan$/);
    });

    await searchList(page, tag);
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole('cell')).toHaveText([
      '',
      name,
      /^19,99\s€$/,
      /^22,00\s%$/,
      'Mensile',
      // 'Prova (giorni)' (issue 30): no free trial on this plan.
      'N/D',
      'Sì',
      '',
    ]);
    await rows.first().getByRole('link', { name: 'Modifica' }).click();
    await expect(page).toHaveURL(/\/plan\/\d+$/);
    const planId = Number(/\/plan\/(\d+)$/.exec(page.url())?.[1]);
    await expect(heading1(page, 'Modifica Piano')).toBeVisible();
    await expectOpaque(page.locator('[data-visible]'));
    await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveValue(name);
    await expect(page.getByRole('textbox', { name: 'Costo ricorrente (IVA esclusa)' })).toHaveValue('19,99');
    await expect(page.getByRole('textbox', { name: 'IVA (%)' })).toHaveValue('22,00');

    const features = page.getByRole('region', { name: 'Funzionalità del piano' });
    const featureRows = features
      .getByRole('table', { name: 'Funzionalità associate al piano' })
      .locator('tbody tr');
    const added = [
      { name: `Report mensile ${tag}`, description: 'PDF via email il primo giorno del mese' },
      { name: `Accesso API ${tag}`, description: 'Chiavi dedicate con rate limiting' },
    ];

    await test.step('two features added, both listed after a reload', async () => {
      await expect(features.getByText('Nessuna funzionalità associata a questo piano.')).toBeVisible();
      for (const f of added) {
        await features.getByRole('textbox', { name: 'Nome funzionalità' }).fill(f.name);
        await features.getByRole('textbox', { name: 'Descrizione' }).fill(f.description);
        await features.getByRole('button', { name: 'Aggiungi funzionalità' }).click();
        await expectToastOnce(page, 'Elemento salvato con successo!');
        await expect(features.getByRole('textbox', { name: 'Nome funzionalità' })).toHaveValue('');
      }
      await page.reload();
      await expect(featureRows).toHaveCount(2);
      for (const [i, f] of added.entries()) {
        await expect(featureRows.nth(i).getByRole('cell')).toHaveText([f.name, f.description, '']);
      }
    });

    await test.step('the iframe code holds the plan id; the copy button puts exactly it on the clipboard', async () => {
      const code = page.getByRole('textbox', { name: 'Codice iframe' });
      await expect(code).toHaveValue(new RegExp(`^<iframe[^]*planId=${planId}\\b`));
      const res = await page.request.get(`/api/plan/iframe?planId=${planId}`, {
        headers: await adminHeaders(),
      });
      expect(res.headers()['content-type']).toContain('text/plain');
      const served = await res.text();
      await expect(code).toHaveValue(served);
      await expectOpaque(page.locator('[data-visible]'));
      await screenshot(page, 'plan-form');

      await page.getByRole('button', { name: 'Copia codice' }).click();
      await expect(toast(page, 'Codice copiato negli appunti.')).toBeVisible();
      const clipboard = await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      );
      expect(clipboard).toBe(served);
    });

    await test.step('removing one feature: confirmed, “Elemento eliminato!”, gone after a reload', async () => {
      const [first, second] = added as [(typeof added)[0], (typeof added)[0]];
      await features.getByRole('button', { name: `Rimuovi la funzionalità ${first.name}` }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Sei sicuro?' })).toBeVisible();
      await dialog.getByRole('button', { name: 'Sì, elimina!' }).click();
      await expectToastOnce(page, 'Elemento eliminato!');
      await expect(featureRows).toHaveCount(1);
      await page.reload();
      await expect(featureRows).toHaveCount(1);
      await expect(featureRows.first().getByRole('cell')).toHaveText([second.name, second.description, '']);
    });
  });

  test('Configura PayPal: the secret is write-only (masked in the list, absent from answers, kept when left empty)', async ({
    page,
  }) => {
    const tag = uniqueTag();
    const clientId = `e2e-client-${tag}`;
    const secret = `e2e-secret-${tag}-Zq9`;
    const { user } = await apiLogin(accounts.admin);
    await login(page, accounts.admin, { to: '/paymentprovider' });
    await expect(heading1(page, 'Configura PayPal')).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText([
      '',
      'Nome',
      'URL API',
      'Client ID (API key)',
      'Secret API',
      'Tipo',
      'Modalità',
      'Attivo',
      'Azioni',
    ]);
    const rows = bodyRows(page, 'Configura PayPal');
    // The demo seed's sandbox row, its placeholder secret stored (so shown masked).
    const row = rows.filter({ has: page.getByRole('cell', { name: DEMO_PROVIDER, exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(4)).toHaveText(SECRET_MASK);
    expect(await page.content()).not.toContain(DEMO_PROVIDER_SECRET);

    /**
     * Opens the row's form by its address, so the form is filled from a GetById the test sees
     * (clicking 'Modifica' within 30 s of a save may reuse the cached row), and returns that answer.
     */
    const editPath = await row.getByRole('link', { name: 'Modifica' }).getAttribute('href');
    expect(editPath).toMatch(/^\/paymentprovider\/\d+$/);
    async function openForm(): Promise<{ text: string; data: Record<string, unknown> }> {
      const loaded = page.waitForResponse((r) => r.url().includes('/api/paymentprovider/GetById/'));
      await page.goto(editPath ?? '');
      const res = await loaded;
      await expect(heading1(page, 'Modifica Provider di pagamento')).toBeVisible();
      await expectOpaque(page.locator('[data-visible]'));
      const text = await res.text();
      return { text, data: (JSON.parse(text) as { data: Record<string, unknown> }).data };
    }
    const secretBox = page.getByRole('textbox', { name: 'Secret API' });
    const save = async (): Promise<Record<string, unknown>> => {
      const sent = page.waitForRequest((r) => r.url().includes('/api/paymentprovider/Update'));
      await page.getByRole('button', { name: 'Salva', exact: true }).click();
      const body = (await sent).postDataJSON() as Record<string, unknown>;
      await expect(toast(page, 'Elemento aggiornato!')).toBeVisible();
      await expect(page).toHaveURL(/\/paymentprovider$/);
      return body;
    };

    await test.step('set a client id and a secret', async () => {
      const { text, data } = await openForm();
      expect(text).not.toContain(DEMO_PROVIDER_SECRET);
      expect(data.apiSecret).toBe(SECRET_MASK);
      await expect(secretBox).toHaveValue('');
      await expect(secretBox).toHaveAttribute('type', 'password');
      await expect(
        page.getByText('Per sicurezza il valore salvato non viene mostrato').first(),
      ).toBeVisible();
      await page.getByRole('textbox', { name: 'Client ID (API key)' }).fill(clientId);
      await secretBox.fill(secret);
      const body = await save();
      expect(body.apiSecret).toBe(secret);
    });

    await test.step('the list shows the mask, never the secret', async () => {
      await expect(row.getByRole('cell').nth(3)).toHaveText(clientId);
      await expect(row.getByRole('cell').nth(4)).toHaveText(SECRET_MASK);
      expect(await page.content()).not.toContain(secret);
      await screenshot(page, 'paymentprovider-list');
    });

    await test.step('reopened: GetById answers the mask, the box is empty; saved empty, the secret stays', async () => {
      const { text, data } = await openForm();
      expect(text).not.toContain(secret);
      expect(data.apiSecret).toBe(SECRET_MASK);
      expect(data.apiKey).toBe(clientId);
      await expect(secretBox).toHaveValue('');
      expect(await page.content()).not.toContain(secret);
      await page.getByRole('textbox', { name: 'Client ID (API key)' }).fill(`${clientId}-b`);
      const body = await save();
      // An empty secret box is left out of the body, so the server keeps the stored one.
      expect(body).not.toHaveProperty('apiSecret');
      await expect(row.getByRole('cell').nth(3)).toHaveText(`${clientId}-b`);
      await expect(row.getByRole('cell').nth(4)).toHaveText(SECRET_MASK);
      expect(await page.content()).not.toContain(secret);
    });

    await test.step('the public GetPayPalSettingsByTenant answers the client id only', async () => {
      const res = await page.request.get(
        `/api/paymentprovider/GetPayPalSettingsByTenant/${user.defaultTenantId}`,
        {
          headers: { 'x-api-key': env.apiKey },
        },
      );
      expect(res.status()).toBe(200);
      const text = await res.text();
      expect(text).not.toContain(secret);
      const answer = JSON.parse(text) as { success: boolean; data: Record<string, unknown> };
      expect(answer.success).toBe(true);
      expect(answer.data.apiKey).toBe(`${clientId}-b`);
      expect(answer.data).not.toHaveProperty('apiSecret');
    });
  });

  test('a User sees no admin entries in the sidebar and is refused on the admin screens', async ({
    page,
  }) => {
    await login(page, accounts.cliente);
    await page.getByRole('button', { name: 'Apri menu principale' }).click();
    const panel = page.getByRole('dialog', { name: 'Menu principale' });
    const nav = panel.getByRole('navigation', { name: 'Menu principale' });
    await expect(nav.getByRole('link', { name: 'Le mie fatture' })).toBeVisible();
    for (const entry of [
      'Gestisci Sottoscrizioni',
      'Lista Tenants',
      'Lista Utenti',
      'Configura PayPal',
      'Gestisci piani di abbonamento',
    ]) {
      await expect(nav.getByRole('link', { name: entry }), entry).toHaveCount(0);
    }

    for (const path of ['/user', '/plan', '/paymentprovider', '/tenant', '/user-wizard']) {
      await page.goto(path);
      // A customer is not told the back office exists (issue 28).
      await expect(page.getByRole('heading', { name: 'Pagina non trovata' }), path).toBeVisible();
      await expect(page.getByRole('table'), path).toHaveCount(0);
      await expect(page.getByRole('textbox'), path).toHaveCount(0);
    }

    // The server refuses too: the screens are not the only guard.
    const { token, user } = await apiLogin(accounts.cliente);
    for (const entity of ['user', 'plan', 'paymentprovider']) {
      const res = await page.request.get(`/api/${entity}/getAll?page=1&pageSize=5`, {
        headers: {
          'x-api-key': env.apiKey,
          Authorization: `Bearer ${token}`,
          'X-Tenant-Id': String(user.defaultTenantId),
        },
      });
      expect(res.status(), `api/${entity}/getAll as a User`).toBe(403);
    }
  });
});

test.describe('Layout: scroll position and the user list width', () => {
  test('opening a row’s form from a scrolled list starts at the top of the page', async ({ page }) => {
    // Regression: without ScrollRestoration a form opened as far down as its list was scrolled.
    await page.setViewportSize({ width: 1280, height: 400 });
    await login(page, accounts.admin, { to: '/plan' });
    const rows = bodyRows(page, 'Gestisci piani di abbonamento');
    await expect(rows).not.toHaveCount(0);
    await rows.last().getByRole('link', { name: 'Modifica' }).click();
    await expect(heading1(page, 'Modifica Piano')).toBeVisible();
    await expect(heading1(page, 'Modifica Piano')).toBeInViewport({ timeout: 2_000 });
  });

  test('at 1280 px the user list shows its nine columns without scrolling sideways', async ({ page }) => {
    // Regression: with the demo seed's long e-mail and PEC values the table was 1584 px wide in
    // a 1214 px card, hiding the last columns under the sticky 'Azioni' column.
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, accounts.admin, { to: '/user' });
    const table = page.getByRole('table', { name: 'Lista Utenti' });
    await expect(table.locator('tbody tr')).toHaveCount(5);
    const { scrollWidth, clientWidth } = await table.evaluate((t) => {
      const box = t.parentElement as unknown as { scrollWidth: number; clientWidth: number };
      return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
    });
    expect(scrollWidth, `table ${scrollWidth}px in a ${clientWidth}px card`).toBeLessThanOrEqual(clientWidth);
  });
});

test.describe('Admin screens at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('user list fits the screen as stacked cards with labelled values', async ({ page }) => {
    await login(page, accounts.admin, { to: '/user' });
    await expect(heading1(page, 'Lista Utenti')).toBeVisible();
    const rows = page.getByRole('list', { name: 'Lista Utenti' }).locator('> li');
    await expect(rows).not.toHaveCount(0);
    await expect(rows.first().getByText('Indirizzo email')).toBeVisible();
    await expect(rows.first().getByRole('definition').first()).not.toHaveText('');
    await expectNoHorizontalOverflow(page);
    await expect(rows.first().getByRole('link', { name: 'Modifica' })).toBeVisible();
    await screenshot(page, 'mobile-user-list');
  });

  test('plan form with its features and iframe code fits the screen', async ({ page }) => {
    const res = await page.request.get('/api/plan/getAll?page=1&pageSize=5&filters[name]=Pro', {
      headers: await adminHeaders(),
    });
    const pro = ((await res.json()) as { data: { items: { id: number; name: string }[] } }).data.items.find(
      (p) => p.name === 'Pro',
    );
    expect(pro, 'the demo seed’s Pro plan').toBeDefined();
    await login(page, accounts.admin, { to: `/plan/${pro?.id}` });
    await expect(heading1(page, 'Modifica Piano')).toBeVisible();
    await expectOpaque(page.locator('[data-visible]'));
    const features = page.getByRole('region', { name: 'Funzionalità del piano' });
    await expect(features.getByRole('table').locator('tbody tr')).toHaveCount(3);
    await expect(page.getByRole('textbox', { name: 'Codice iframe' })).toHaveValue(/^<iframe/);
    await expectNoHorizontalOverflow(page);
    // The remove buttons stay within the screen's width (fixed table layout).
    for (const remove of await features.getByRole('button', { name: /^Rimuovi la funzionalità/ }).all()) {
      const box = await remove.boundingBox();
      expect(box && box.x + box.width, 'remove button right edge').toBeLessThanOrEqual(390);
    }
    await screenshot(page, 'mobile-plan-form');
  });
});
