import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import type { Plan } from '../../../contract/schemas/plan';
import { validationMessages } from '../../../contract/validation/italian';
import { renderApp } from '../app/harness';
import { fakeEntityServer } from '../components/fixtures';
import { apiGet, apiPost, fail, ok, recordRequests, server } from '../msw/server';

const IFRAME = '<iframe src="https://rinnova.example/widget?planId=7" width="100%" height="420"></iframe>';

const pro: Plan = {
  id: 7,
  name: 'Pro',
  recurringCostBeforeVAT: 19.99,
  vatPercentage: 22,
  recurrenceType: 1,
  recurrenceTypeName: 'Mensile',
  natura: null,
  paypalPlanId: 'P-123',
  stripePlanId: null,
  isActive: true,
  planFeatures: [
    { id: 1, featureName: 'Report PDF', description: 'Esporta i report' },
    { id: 2, featureName: 'API', description: null },
  ],
};

/** The selected tenant (1): an ordinary company unless told otherwise. */
function tenantServer(profile: Record<string, unknown> = {}) {
  fakeEntityServer('tenant', [
    {
      id: 1,
      name: 'Demo Srl',
      configuration: null,
      taxRegime: 'RF01',
      pensionFund: null,
      withholdingTax: null,
      stampDutyToCustomer: false,
      ossRegistered: false,
      ...profile,
    },
  ]);
}

/** A plan server with associateFeatures replacing the list (or failing with `status`). */
function planServer(
  options: { associateStatus?: number; iframe?: 'ok' | 'fail'; tenant?: Record<string, unknown> } = {},
) {
  tenantServer(options.tenant);
  const { rows, calls } = fakeEntityServer<Plan>('plan', [structuredClone(pro)]);
  const associated: unknown[] = [];
  server.use(
    apiPost('plan/associateFeatures/:planId', async ({ request, params }) => {
      const body = (await request.json()) as { featureName: string; description: string | null }[];
      associated.push({ planId: params.planId, body });
      if (options.associateStatus) return fail(options.associateStatus, 'Errore interno');
      const list = body.map((f, i) => ({ id: 100 + i, ...f }));
      rows[0]!.planFeatures = list;
      return ok(list);
    }),
    apiGet('plan/iframe', ({ request }) =>
      options.iframe === 'fail'
        ? fail(500, 'Errore interno')
        : new URL(request.url).searchParams.get('planId') === '7'
          ? HttpResponse.text(IFRAME)
          : fail(404, 'Elemento non trovato.'),
    ),
  );
  return { rows, calls, associated };
}

const field = (name: string) => screen.getByRole('textbox', { name });
const COST = 'Costo ricorrente (IVA esclusa)';
const VAT = 'IVA (%)';

describe('plan form (spec §2, §5, §8)', () => {
  it('new plan: VAT 22,00 by default, six recurrences; required fields in Italian, nothing sent', async () => {
    const { calls } = planServer();
    const requests = recordRequests();
    const { user } = renderApp('/plan/new', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Crea Nuovo Piano' })).toBeInTheDocument();
    // Amounts read and type the Italian way: decimal keyboard, comma, two places.
    expect(field(VAT)).toHaveValue('22,00');
    expect(field(VAT)).toHaveAttribute('inputmode', 'decimal');
    expect(field(COST)).toHaveAttribute('inputmode', 'decimal');
    const recurrence = screen.getByRole('combobox', { name: 'Ricorrenza' });
    expect(
      within(recurrence)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['', '1', '2', '3', '4', '6', '12']);

    await user.clear(field(VAT));
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(validationMessages.planNameRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.costRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.vatRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.recurrenceRequired)).toBeInTheDocument();
    expect(calls.created).toEqual([]);

    await user.type(field(VAT), '120');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(validationMessages.vatPercentageInvalid)).toBeInTheDocument();
    // Words are not a number: 'invalid', not 'required'.
    await user.type(field(COST), 'tanti');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(validationMessages.costInvalid)).toBeInTheDocument();
    expect(calls.created).toEqual([]);
    expect(requests.some((r) => r.url.includes('plan/iframe'))).toBe(false);
  });

  it.each([
    ['49,5', '49,50', 49.5],
    ['49.5', '49,50', 49.5],
    ['1.234,56', '1234,56', 1234.56],
    ['0,1', '0,10', 0.1],
  ])('Italian number entry: %s reads as %s and is sent as %s', async (typed, shown, sent) => {
    const { calls } = planServer();
    const { user } = renderApp('/plan/new', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('heading', { level: 1, name: 'Crea Nuovo Piano' });
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), `Piano ${typed}`);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Ricorrenza' }), '1');
    await user.type(field(COST), typed);
    await user.tab();
    expect(field(COST)).toHaveValue(shown);
    await user.clear(field(VAT));
    await user.type(field(VAT), '10.5');
    await user.tab();
    expect(field(VAT)).toHaveValue('10,50');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toMatchObject({ recurringCostBeforeVAT: sent, vatPercentage: 10.5 });
  });

  it('a duplicate name from the server lands on the Nome field; the toast shows the message without its key', async () => {
    planServer();
    const { user } = renderApp('/plan/new', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('heading', { level: 1, name: 'Crea Nuovo Piano' });
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'Pro');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Ricorrenza' }), '1');
    await user.type(field(COST), '9,90');
    server.use(
      apiPost('plan/Create', () =>
        fail(409, validationMessages.planNameTaken, null, [`name: ${validationMessages.planNameTaken}`]),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    const name = screen.getByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveAccessibleDescription(validationMessages.planNameTaken));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => {
      const toasts = screen.getAllByRole('alert').filter((a) => a.closest('.Toastify'));
      expect(toasts.map((t) => t.textContent)).toEqual([validationMessages.planNameTaken]);
    });
    expect(document.body.textContent).not.toContain('name:');
  });

  it('a valid new plan is created with numbers and stays open on the new plan; a refused one toasts errors[0]', async () => {
    const { calls } = planServer();
    const { user, router } = renderApp('/plan/new', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('heading', { level: 1, name: 'Crea Nuovo Piano' });
    await user.type(screen.getByRole('textbox', { name: 'Nome' }), 'Base');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Ricorrenza' }), '3');
    await user.type(field(COST), '9,90');
    server.use(
      apiPost('plan/Create', () =>
        fail(400, 'I dati inviati non sono validi.', null, [
          'Esiste già un piano con questo nome.',
          'Secondo errore',
        ]),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    // The toast carries errors[0] alone (the form's own box lists every error).
    await waitFor(() => {
      const toasts = screen.getAllByRole('alert').filter((a) => a.closest('.Toastify'));
      expect(toasts.map((t) => t.textContent)).toEqual(['Esiste già un piano con questo nome.']);
    });
    expect(screen.queryByText(messages.http.saveError)).not.toBeInTheDocument();

    server.resetHandlers();
    const again = planServer();
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(messages.http.created)).toBeInTheDocument();
    expect(again.calls.created).toEqual([
      {
        name: 'Base',
        recurrenceType: 3,
        recurringCostBeforeVAT: 9.9,
        vatPercentage: 22,
        natura: null,
        // Generic forms send an empty text box as '' (the contract reads it as absent).
        paypalPlanId: '',
        stripePlanId: '',
        isActive: true,
        // Issue 30: 'Giorni di prova' left empty: no trial.
        trialDays: null,
      },
    ]);
    expect(calls.created).toEqual([]);
    // Its features can only be added now: the person stays on the new plan, in edit mode.
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/plan\/\d+$/));
    expect(await screen.findByRole('heading', { level: 1, name: 'Modifica Piano' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Aggiungi funzionalità' })).toBeInTheDocument();
  });

  it('features can be added only after the first save: a note instead of the editor', async () => {
    planServer();
    renderApp('/plan/new', { role: Role.Admin, tenantId: 1 });
    const section = await screen.findByRole('region', { name: 'Funzionalità del piano' });
    expect(within(section).getByText(/solo dopo il primo salvataggio/)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Aggiungi funzionalità' })).not.toBeInTheDocument();
    expect(within(section).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Codice iframe del piano' })).not.toBeInTheDocument();
  });
});

describe('Anteprima fattura on the plan screen (issue 27)', () => {
  const preview = () => screen.findByRole('region', { name: 'Anteprima fattura' });
  const row = (region: HTMLElement, label: string | RegExp) =>
    within(region).getByText(label).closest('div')?.textContent?.replace(/\s+/g, ' ');

  it('follows the price as it is typed, for the kind of customer chosen', async () => {
    planServer();
    const { user } = renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    let region = await preview();
    expect(row(region, 'Pro')).toMatch(/19,99\s€/);
    expect(row(region, 'IVA')).toMatch(/4,40\s€/);
    expect(row(region, 'Netto a pagare')).toMatch(/24,39\s€/);

    await user.clear(field(COST));
    await user.type(field(COST), '100');
    region = await preview();
    await waitFor(() => expect(row(region, 'Netto a pagare')).toMatch(/122,00\s€/));

    await user.selectOptions(within(region).getByRole('combobox', { name: 'Per un cliente' }), 'euCompany');
    region = await preview();
    expect(row(region, 'IVA (N2.1)')).toMatch(/0,00\s€/);
    expect(row(region, 'Netto a pagare')).toMatch(/100,00\s€/);
    expect(within(region).getByText(/art\. 7-ter DPR 633\/72 - inversione contabile/)).toBeInTheDocument();
  });

  it('shows a professional’s rivalsa and ritenuta with the tenant’s profile', async () => {
    planServer({ tenant: { pensionFund: { type: 'TC22', rate: 4 }, withholdingTax: 'RT01' } });
    const { user } = renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('region', { name: 'Anteprima fattura' });
    await user.clear(field(COST));
    await user.type(field(COST), '1000');
    const region = await preview();
    // Golden document (1): 1.000,00 + 40,00; VAT 228,80; total 1.268,80; ritenuta 208,00.
    await waitFor(() => expect(row(region, 'Netto a pagare')).toMatch(/1060,80\s€/));
    expect(row(region, 'Cassa previdenziale')).toMatch(/40,00\s€/);
    expect(row(region, 'Totale documento')).toMatch(/1268,80\s€/);
    expect(row(region, 'Ritenuta d’acconto')).toMatch(/208,00\s€/);
    await user.selectOptions(within(region).getByRole('combobox', { name: 'Per un cliente' }), 'itPerson');
    expect(within(await preview()).queryByText('Ritenuta d’acconto')).not.toBeInTheDocument();
  });
});

describe('plan features (spec §2, §8 inline table)', () => {
  it('lists the features and adds one through associateFeatures with the whole list', async () => {
    const { associated } = planServer();
    const { user } = renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    const table = await screen.findByRole('table', { name: 'Funzionalità associate al piano' });
    expect(within(table).getByRole('cell', { name: 'Report PDF' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Esporta i report' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Aggiungi funzionalità' }));
    expect(await screen.findByText(validationMessages.featureNameRequired)).toBeInTheDocument();
    expect(associated).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: 'Nome funzionalità' }), 'Webhook');
    await user.type(screen.getByRole('textbox', { name: 'Descrizione' }), 'Notifiche in tempo reale');
    await user.click(screen.getByRole('button', { name: 'Aggiungi funzionalità' }));
    expect(await screen.findByText(messages.inlineTable.saved)).toBeInTheDocument();
    expect(associated).toEqual([
      {
        planId: '7',
        body: [
          { featureName: 'Report PDF', description: 'Esporta i report' },
          { featureName: 'API', description: null },
          { featureName: 'Webhook', description: 'Notifiche in tempo reale' },
        ],
      },
    ]);
    expect(await within(table).findByRole('cell', { name: 'Webhook' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Nome funzionalità' })).toHaveValue('');
  });

  it('removes one after confirmation', async () => {
    const { associated } = planServer();
    const { user } = renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Rimuovi la funzionalità Report PDF' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sì, elimina!' }));
    expect(await screen.findByText(messages.inlineTable.deleted)).toBeInTheDocument();
    expect(associated).toEqual([{ planId: '7', body: [{ featureName: 'API', description: null }] }]);
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Report PDF' })).not.toBeInTheDocument());
  });

  it('failures use the inline-table messages', async () => {
    planServer({ associateStatus: 500 });
    const { user } = renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    await user.type(await screen.findByRole('textbox', { name: 'Nome funzionalità' }), 'Webhook');
    await user.click(screen.getByRole('button', { name: 'Aggiungi funzionalità' }));
    expect(await screen.findByText(messages.inlineTable.saveError)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Nome funzionalità' })).toHaveValue('Webhook');

    await user.click(screen.getByRole('button', { name: 'Rimuovi la funzionalità API' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sì, elimina!' }));
    expect(await screen.findByText(messages.inlineTable.deleteError)).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'API' })).toBeInTheDocument();
  });

  it('changing features keeps unsaved edits of the plan form', async () => {
    planServer();
    const { user } = renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    const name = await screen.findByRole('textbox', { name: 'Nome' });
    await waitFor(() => expect(name).toHaveValue('Pro'));
    await user.clear(name);
    await user.type(name, 'Pro Plus');
    await user.type(screen.getByRole('textbox', { name: 'Nome funzionalità' }), 'Webhook');
    await user.click(screen.getByRole('button', { name: 'Aggiungi funzionalità' }));
    expect(await screen.findByRole('cell', { name: 'Webhook' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveValue('Pro Plus');
  });
});

describe('plan iframe code (spec §2, §8)', () => {
  it('shows the code read-only and copies it', async () => {
    planServer();
    const { user } = renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    const section = await screen.findByRole('region', { name: 'Codice iframe del piano' });
    const code = within(section).getByRole('textbox', { name: 'Codice iframe' });
    await waitFor(() => expect(code).toHaveValue(IFRAME));
    expect(code).toHaveAttribute('readonly');
    await user.click(within(section).getByRole('button', { name: 'Copia codice' }));
    expect(await screen.findByText('Codice copiato negli appunti.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(IFRAME);
  });

  it('a failed fetch says the code could not be retrieved', async () => {
    planServer({ iframe: 'fail' });
    renderApp('/plan/7', { role: Role.Admin, tenantId: 1 });
    const section = await screen.findByRole('region', { name: 'Codice iframe del piano' });
    expect(await within(section).findByText(messages.plan.iframeError)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Copia codice' })).not.toBeInTheDocument();
    // …and the toast, once (the error path).
    await waitFor(() => expect(screen.getAllByText(messages.plan.iframeError)).toHaveLength(2));
  });
});
