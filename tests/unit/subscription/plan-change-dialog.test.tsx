/**
 * 'Cambia piano' (issue 30) on the subscription page: the dialog asks the server's preview
 * (changePlan with preview: true) and shows it item by item (lines, each document's imponibile,
 * cassa, IVA, ritenuta, 'Netto da pagare', residual credit, next periods); a cheaper plan defaults
 * to 'Al prossimo rinnovo'; the server's field errors go on their field, a provider's 502 above the
 * buttons, and the dialog stays (nothing changed).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Quote } from '../../../contract/invoice/quote';
import { renderApp } from '../app/harness';
import { fakeSelectServer } from '../components/fixtures';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';
import { answerSwal, payment, subscription, subscriptionServer } from './fixtures';

const plan = (id: number, name: string, cost: number) => ({
  id,
  name,
  recurringCostBeforeVAT: cost,
  vatPercentage: 22,
  recurrenceType: 1,
  recurrenceTypeName: 'Mensile',
  natura: null,
  paypalPlanId: null,
  stripePlanId: null,
  isActive: true,
  planFeatures: [],
});
const plans = { 7: plan(7, 'Base', 29), 8: plan(8, 'Pro', 49), 6: plan(6, 'Mini', 9) };

const quote = (over: Partial<Quote>): Quote => ({
  lines: [{ description: 'x', quantity: 1, unitPrice: 0, vatPercentage: 22, natura: null }],
  taxable: 0,
  vat: 0,
  cassa: 0,
  bollo: 0,
  total: 0,
  withholding: 0,
  netToPay: 0,
  natura: null,
  legalReference: null,
  ...over,
});

/** Base 29 € → Pro 49 € on 16/12/2026, 15 days of 30, with a 4 % cassa and a 20 % ritenuta. */
const upgrade: PlanChangePreview = {
  effective: 'now',
  effectiveDay: '2026-12-16',
  fromPlan: { id: 7, name: 'Base' },
  toPlan: { id: 8, name: 'Pro' },
  periodStart: '2026-12-01',
  periodEnd: '2026-12-31',
  totalDays: 30,
  unusedDays: 15,
  credit: quote({ taxable: 15.08, cassa: 0.58, vat: 3.32, total: 18.4, withholding: 2.9, netToPay: 15.5 }),
  charge: quote({ taxable: 25.48, cassa: 0.98, vat: 5.61, total: 31.09, withholding: 4.9, netToPay: 26.19 }),
  lines: [
    {
      description: 'Storno giorni non goduti piano «Base» dal 16/12/2026 al 30/12/2026',
      amount: -14.5,
      periodStart: '2026-12-16',
      periodEnd: '2026-12-30',
    },
    {
      description: 'Piano «Pro» dal 16/12/2026 al 30/12/2026 (conguaglio cambio piano)',
      amount: 24.5,
      periodStart: '2026-12-16',
      periodEnd: '2026-12-30',
    },
  ],
  netToPay: 10.69,
  residualCredit: 0,
  nextPeriod: quote({
    taxable: 50.96,
    cassa: 1.96,
    vat: 11.21,
    total: 62.17,
    withholding: 9.8,
    netToPay: 52.37,
  }),
  nextBillingDate: '2026-12-31',
  recurrenceChanges: false,
};

const downgrade: PlanChangePreview = {
  ...upgrade,
  effective: 'renewal',
  effectiveDay: '2026-12-31',
  toPlan: { id: 6, name: 'Mini' },
  unusedDays: 0,
  credit: null,
  charge: null,
  lines: [],
  netToPay: 0,
  nextPeriod: quote({
    taxable: 9.36,
    cassa: 0.36,
    vat: 2.06,
    total: 11.42,
    withholding: 1.8,
    netToPay: 9.62,
  }),
};

function arrange() {
  const paid = payment({
    id: 509,
    periodStart: '2026-12-01T09:00:00Z',
    periodEnd: '2026-12-31T09:00:00Z',
    paidAt: '2026-12-01T10:00:00Z',
    method: 'bankTransfer',
    amountDue: 35.38,
  });
  subscriptionServer([
    subscription(9, 3, {
      plan: { ...subscription(9, 3).plan, name: 'Base', recurringCostBeforeVAT: 29 },
      costBeforeVAT: 29,
      nextBillingDate: '2026-12-31T09:00:00Z',
      payments: [paid],
      scheduledPlanChange: null,
    }),
  ]);
  fakeSelectServer('plan', [
    { value: 7, label: 'Base', isActive: 'true', recurrenceType: '1' },
    { value: 8, label: 'Pro', isActive: 'true', recurrenceType: '1' },
    { value: 6, label: 'Mini', isActive: 'true', recurrenceType: '1' },
  ]);
  const calls: Record<string, unknown>[] = [];
  server.use(
    apiGet('plan/GetById/:id', ({ params }) => ok(plans[Number(params.id) as 7 | 8 | 6])),
    apiPost('subscription/changePlan/:id', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push(body);
      if (body.planId === 7)
        return fail(400, 'I dati inviati non sono validi.', null, [
          'planId: Scegli un piano diverso da quello attuale',
        ]);
      if (typeof body.when === 'string' && /^\d{4}-/.test(body.when))
        return fail(400, 'I dati inviati non sono validi.', null, [
          'when: La data deve essere entro il periodo in corso o alla scadenza',
        ]);
      if (!body.preview)
        return fail(
          502,
          'Stripe è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
        );
      return ok(body.planId === 8 ? upgrade : downgrade);
    }),
  );
  return { calls };
}

async function pickPlan(user: UserEvent, dialog: HTMLElement, name: string) {
  await user.click(await within(dialog).findByRole('combobox', { name: 'Nuovo piano' }, { timeout: 10_000 }));
  await user.click(await screen.findByRole('option', { name }));
}

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
/** The value beside a label (`dt`, its whole text) in the preview's figure lists. */
function figure(scope: HTMLElement, label: string): string {
  const dt = Array.from(scope.querySelectorAll('dt')).find((d) => norm(d.textContent) === label);
  if (!dt) throw new Error(`no figure «${label}» in: ${norm(scope.textContent)}`);
  return norm(dt.nextElementSibling?.textContent);
}

afterEach(() => {
  document.querySelector('.swal2-container')?.remove();
});

describe('Cambia piano', { timeout: 30_000 }, () => {
  it('a residual credit: the preview says it will be set off on the next payment (issue 30)', async () => {
    arrange();
    server.use(
      apiPost('subscription/changePlan/:id', () =>
        ok({ ...upgrade, netToPay: 0, residualCredit: 12.2 } satisfies PlanChangePreview),
      ),
    );
    const { user } = renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Cambia piano' }, { timeout: 10_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Cambia piano' });
    await pickPlan(user, dialog, 'Pro');
    const preview = await within(dialog).findByRole(
      'region',
      { name: 'Anteprima del cambio' },
      { timeout: 10_000 },
    );
    expect(preview).toHaveTextContent(
      'Credito residuo · Resta a favore del cliente: sarà scalato dal prossimo pagamento.',
    );
    expect(preview).toHaveTextContent('12,20 €');
  });

  it('another recurrence: the preview says a new period from today and the new billing date', async () => {
    arrange();
    const newPeriod: PlanChangePreview = {
      ...upgrade,
      toPlan: { id: 8, name: 'Pro' },
      lines: [
        upgrade.lines[0]!,
        {
          description: 'Piano «Pro» dal 16/12/2026 al 15/12/2027 (conguaglio cambio piano)',
          amount: 490,
          periodStart: '2026-12-16',
          periodEnd: '2027-12-15',
        },
      ],
      nextBillingDate: '2027-12-16',
      recurrenceChanges: true,
    };
    server.use(apiPost('subscription/changePlan/:id', () => ok(newPeriod)));
    const { user } = renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Cambia piano' }, { timeout: 10_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Cambia piano' });
    await pickPlan(user, dialog, 'Pro');
    const preview = await within(dialog).findByRole(
      'region',
      { name: 'Anteprima del cambio' },
      { timeout: 10_000 },
    );
    expect(preview).toHaveTextContent(
      'Dal 16/12/2026 parte un nuovo periodo del nuovo piano, fino al 15/12/2027 (nuova data di rinnovo): 15 giorni su 30 del periodo in corso sono stornati.',
    );
    const lines = within(within(preview).getByRole('list', { name: 'Righe del conguaglio' })).getAllByRole(
      'listitem',
    );
    expect(norm(lines[1]!.textContent)).toBe(
      'Piano «Pro» dal 16/12/2026 al 15/12/2027 (conguaglio cambio piano)Fattura · 365 giorni490,00 €',
    );
    // The next periods from the new billing date, without the current plan's recurrence.
    expect(figure(preview, 'Dal rinnovo del 16/12/2027')).toBe('52,37 €');
  });

  it('shows the server’s preview item by item: lines, each document with cassa and ritenuta, net to pay, next periods', async () => {
    const { calls } = arrange();
    const { user } = renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Cambia piano' }, { timeout: 10_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Cambia piano' });
    expect(within(dialog).getByText('Scegli il nuovo piano per vedere l’anteprima.')).toBeInTheDocument();
    await pickPlan(user, dialog, 'Pro');
    const preview = await within(dialog).findByRole(
      'region',
      { name: 'Anteprima del cambio' },
      { timeout: 10_000 },
    );
    expect(within(dialog).getByRole('radio', { name: /^Subito/ })).toBeChecked();
    expect(calls.at(-1)).toEqual({ planId: 8, when: 'now', preview: true });
    expect(preview).toHaveTextContent('«Base» → «Pro»');
    expect(preview).toHaveTextContent(
      'Dal 16/12/2026: 15 giorni su 30 del periodo in corso passano al nuovo piano.',
    );
    const lines = within(within(preview).getByRole('list', { name: 'Righe del conguaglio' })).getAllByRole(
      'listitem',
    );
    expect(lines.map((l) => norm(l.textContent))).toEqual([
      'Storno giorni non goduti piano «Base» dal 16/12/2026 al 30/12/2026Nota di credito · 15 giorni− 14,50 €',
      'Piano «Pro» dal 16/12/2026 al 30/12/2026 (conguaglio cambio piano)Fattura · 15 giorni24,50 €',
    ]);
    const credit = within(preview).getByRole('group', { name: 'Nota di credito (giorni non goduti)' });
    expect(figure(credit, 'Imponibile')).toBe('− 15,08 €');
    expect(figure(credit, 'Cassa previdenziale')).toBe('− 0,58 €');
    expect(figure(credit, 'IVA 22 %')).toBe('− 3,32 €');
    expect(figure(credit, 'Ritenuta d’acconto')).toBe('2,90 €');
    expect(figure(credit, 'Netto')).toBe('− 15,50 €');
    const charge = within(preview).getByRole('group', { name: 'Fattura (giorni del nuovo piano)' });
    expect(figure(charge, 'Imponibile')).toBe('25,48 €');
    expect(figure(charge, 'Cassa previdenziale')).toBe('0,98 €');
    expect(figure(charge, 'IVA 22 %')).toBe('5,61 €');
    expect(figure(charge, 'Ritenuta d’acconto')).toBe('− 4,90 €');
    expect(figure(charge, 'Netto')).toBe('26,19 €');
    expect(figure(preview, 'Netto da pagare ora')).toBe('10,69 €');
    expect(within(preview).queryByText('Credito residuo')).toBeNull();
    expect(figure(preview, 'Dal rinnovo del 31/12/2026')).toBe('52,37 € (mensile)');
    expect(within(dialog).getByRole('button', { name: 'Conferma cambio piano' })).toBeEnabled();
  });

  it('a cheaper plan goes at the renewal by default; a refused plan or day is said on its field; a provider’s 502 above the buttons, the dialog kept', async () => {
    const { calls } = arrange();
    const { user } = renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Cambia piano' }, { timeout: 10_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Cambia piano' });

    await pickPlan(user, dialog, 'Mini');
    await waitFor(() =>
      expect(within(dialog).getByRole('radio', { name: /^Al prossimo rinnovo/ })).toBeChecked(),
    );
    const preview = await within(dialog).findByRole(
      'region',
      { name: 'Anteprima del cambio' },
      { timeout: 10_000 },
    );
    await waitFor(() => expect(preview).toHaveTextContent('Il nuovo piano parte al rinnovo del 31/12/2026'));
    expect(calls.at(-1)).toEqual({ planId: 6, when: 'renewal', preview: true });
    expect(within(preview).queryByRole('list', { name: 'Righe del conguaglio' })).toBeNull();
    expect(figure(preview, 'Dal rinnovo del 31/12/2026')).toBe('9,62 € (mensile)');

    // The current plan: the server's field error under 'Nuovo piano'.
    await pickPlan(user, dialog, 'Base');
    const planError = await within(dialog).findByText('Scegli un piano diverso da quello attuale');
    expect(planError).toHaveClass('field-error');
    // Under the plan's field (its label's box), not elsewhere.
    expect(planError.parentElement).toHaveTextContent(/^Nuovo piano/);
    expect(within(dialog).queryByRole('region', { name: 'Anteprima del cambio' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Conferma cambio piano' })).toBeDisabled();

    // A day the server refuses: said under the date.
    await pickPlan(user, dialog, 'Pro');
    await user.click(within(dialog).getByRole('radio', { name: /^In una data/ }));
    const date = within(dialog).getByLabelText('Data del cambio');
    fireEvent.change(date, { target: { value: '2027-03-01' } });
    await waitFor(() =>
      expect(date).toHaveAccessibleDescription(
        'La data deve essere entro il periodo in corso o alla scadenza',
      ),
    );
    expect(date).toHaveAttribute('aria-invalid', 'true');

    // 'Subito', then the provider fails: the message above the buttons, the dialog stays.
    await user.click(within(dialog).getByRole('radio', { name: /^Subito/ }));
    await within(dialog).findByRole('region', { name: 'Anteprima del cambio' }, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Conferma cambio piano' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Stripe è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
    );
    expect(calls.filter((c) => c.preview === false)).toEqual([{ planId: 8, when: 'now', preview: false }]);
    expect(screen.queryByRole('dialog', { name: 'Piano cambiato' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Cambia piano' })).toBeInTheDocument();
  });

  it('shows a scheduled change with its cancel, and no Cambia piano meanwhile', async () => {
    arrange();
    subscriptionServer([
      subscription(9, 1, {
        nextBillingDate: '2026-12-31T09:00:00Z',
        payments: [payment({ periodEnd: '2026-12-31T09:00:00Z', paidAt: '2026-12-01T10:00:00Z' })],
        scheduledPlanChange: {
          id: 3,
          planId: 6,
          planName: 'Mini',
          effectiveAt: '2026-12-31T09:00:00Z',
          effectiveDay: '2026-12-31',
          when: 'renewal',
        },
      }),
    ]);
    renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    expect(
      await screen.findByText('Cambio piano programmato al 31/12/2026: Mini', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Annulla cambio programmato' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cambia piano' })).toBeNull();
  });

  it('once confirmed, says what was issued and how the proration is collected', async () => {
    arrange();
    const rows = [
      subscription(9, 3, {
        plan: { ...subscription(9, 3).plan, name: 'Base', recurringCostBeforeVAT: 29 },
        costBeforeVAT: 29,
        nextBillingDate: '2026-12-31T09:00:00Z',
        payments: [
          payment({
            id: 509,
            periodEnd: '2026-12-31T09:00:00Z',
            paidAt: '2026-12-01T10:00:00Z',
            method: 'bankTransfer',
          }),
        ],
        scheduledPlanChange: null,
      }),
    ];
    subscriptionServer(rows);
    server.use(
      apiPost('subscription/changePlan/:id', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        if (body.preview) return ok(upgrade);
        // The change made: the page's next read has the proration payment.
        rows[0] = {
          ...rows[0]!,
          planID: 8,
          payments: [
            ...rows[0]!.payments,
            payment({ id: 510, causale: 'RNV-1-000510', amountDue: 10.69, method: 'bankTransfer' }),
          ],
        };
        return ok(
          {
            ...upgrade,
            status: 'applied',
            planChangeId: 4,
            prorationPaymentId: 510,
            creditNote: { id: 77, number: '2026/000141' },
          },
          'Piano cambiato: ora «Pro».',
        );
      }),
    );
    const { user } = renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Cambia piano' }, { timeout: 10_000 }));
    const dialog = screen.getByRole('dialog', { name: 'Cambia piano' });
    await pickPlan(user, dialog, 'Pro');
    await within(dialog).findByRole('region', { name: 'Anteprima del cambio' }, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Conferma cambio piano' }));
    const done = await screen.findByRole('dialog', { name: 'Piano cambiato' });
    expect(done).toHaveTextContent('Piano cambiato: ora «Pro».');
    expect(done).toHaveTextContent('Nota di credito n. 2026/000141 emessa per i giorni non goduti.');
    expect(done).toHaveTextContent('Pagamento di conguaglio di 10,69 € da incassare.');
    await waitFor(() =>
      expect(done).toHaveTextContent('Il cliente lo paga con bonifico, causale RNV-1-000510'),
    );
    // Issue 30: or by card, with the proration's own payment link.
    const asked: unknown[] = [];
    server.use(
      apiPost('PaymentToken/create', async ({ request }) => {
        asked.push(await request.json());
        return ok({ token: 'tok-proration' });
      }),
    );
    await user.click(
      within(done).getByRole('button', { name: 'Link di pagamento con carta del conguaglio' }),
    );
    expect(await screen.findByDisplayValue(/token=tok-proration/)).toBeVisible();
    expect(asked).toEqual([{ paymentId: 510 }]);
  });

  it('cancels a scheduled change after asking', async () => {
    arrange();
    subscriptionServer([
      subscription(9, 1, {
        nextBillingDate: '2026-12-31T09:00:00Z',
        payments: [payment({ periodEnd: '2026-12-31T09:00:00Z', paidAt: '2026-12-01T10:00:00Z' })],
        scheduledPlanChange: {
          id: 3,
          planId: 6,
          planName: 'Mini',
          effectiveAt: '2026-12-31T09:00:00Z',
          effectiveDay: '2026-12-31',
          when: 'renewal',
        },
      }),
    ]);
    const cancels: string[] = [];
    server.use(
      apiPost('subscription/cancelPlanChange/:id', ({ params }) => {
        cancels.push(String(params.id));
        return ok({ canceled: true, planChangeId: 3 }, 'Cambio di piano a «Mini» dal 31/12/2026 annullato.');
      }),
    );
    const { user } = renderApp('/subscription/9', { role: Role.Admin, tenantId: 1 });
    await user.click(
      await screen.findByRole('button', { name: 'Annulla cambio programmato' }, { timeout: 10_000 }),
    );
    // 'No': nothing is sent.
    expect(await answerSwal('No, mantienilo')).toContain('Annullare il cambio di piano programmato?');
    expect(cancels).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Annulla cambio programmato' }));
    await answerSwal('Sì, annulla il cambio');
    await waitFor(() => expect(cancels).toEqual(['9']));
    expect(await screen.findByText('Cambio di piano a «Mini» dal 31/12/2026 annullato.')).toBeInTheDocument();
  });
});
