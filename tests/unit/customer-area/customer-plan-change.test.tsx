/**
 * The customer's own 'Cambia piano' on the customer home (issue 30,
 * src/features/customer-area/customer-plan-change.tsx): no button where the tenant does not allow
 * it (the server's `allowed`); where it does, the button opens the Admin's dialog with the
 * customer's calls (`user/me/subscriptions/{id}/changePlan`, never the Admin's plan reads): the
 * plans offered as choices with their price, the preview, then the change made.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Quote } from '../../../contract/invoice/quote';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, ok, server } from '../msw/server';
import { payment, subscription } from '../subscription/fixtures';

afterEach(() => document.querySelector('.swal2-container')?.remove());

const ACTIVE = subscription(11, 1, {
  nextBillingDate: '2026-04-15T09:00:00Z',
  payments: [
    payment({
      id: 511,
      method: 'bankTransfer',
      periodStart: '2026-03-15T09:00:00Z',
      periodEnd: '2026-04-15T09:00:00Z',
      paidAt: '2026-03-15T09:00:00Z',
    }),
  ],
});

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

const preview: PlanChangePreview = {
  effective: 'now',
  effectiveDay: '2026-03-31',
  fromPlan: { id: 7, name: 'Pro' },
  toPlan: { id: 9, name: 'Business' },
  periodStart: '2026-03-15',
  periodEnd: '2026-04-15',
  totalDays: 31,
  unusedDays: 15,
  credit: quote({ taxable: 19.83, vat: 4.36, total: 24.19, netToPay: 24.19 }),
  charge: quote({ taxable: 38.71, vat: 8.52, total: 47.23, netToPay: 47.23 }),
  lines: [
    {
      description: 'Storno giorni non goduti piano «Pro» dal 31/03/2026 al 14/04/2026',
      amount: -19.83,
      periodStart: '2026-03-31',
      periodEnd: '2026-04-14',
    },
    {
      description: 'Piano «Business» dal 31/03/2026 al 14/04/2026 (conguaglio cambio piano)',
      amount: 38.71,
      periodStart: '2026-03-31',
      periodEnd: '2026-04-14',
    },
  ],
  netToPay: 23.04,
  residualCredit: 0,
  nextPeriod: quote({ taxable: 80, vat: 17.6, total: 97.6, netToPay: 97.6 }),
  nextBillingDate: '2026-04-15',
  recurrenceChanges: false,
};

/** The customer's one subscription; the tenant allows changes or not. Records the calls. */
function customerServer(allowed: boolean, sub = ACTIVE) {
  const sent: { path: string; body: unknown }[] = [];
  let optionsAsked = 0;
  server.use(
    apiGet('subscription/getAll', () => ok({ items: [sub], totalCount: 1 })),
    apiGet('invoice/getAll', () => ok({ items: [], totalCount: 0 })),
    apiGet('user/me/subscriptions/renewal', () => ok({ items: [] })),
    apiGet('user/me/subscriptions/:id/changePlan', ({ params }) => {
      optionsAsked += 1;
      sent.push({ path: `options/${String(params.id)}`, body: null });
      return ok(
        allowed
          ? {
              allowed: true,
              plans: [
                { id: 8, name: 'Light', recurringCostBeforeVAT: 19, price: 23.18 },
                { id: 9, name: 'Business', recurringCostBeforeVAT: 80, price: 97.6 },
              ],
            }
          : { allowed: false, plans: [] },
      );
    }),
    apiPost('user/me/subscriptions/:id/changePlan', async ({ request, params }) => {
      const body = (await request.json()) as { planId: number; when: string; preview: boolean };
      sent.push({ path: `change/${String(params.id)}`, body });
      if (body.preview) return ok(preview);
      return ok(
        {
          ...preview,
          status: 'applied',
          planChangeId: 4,
          prorationPaymentId: 612,
          creditNote: { id: 90, number: 'NC-2026-3' },
        },
        'Piano cambiato in «Business».',
      );
    }),
    // The Admin's reads are not the customer's: a call here would be a bug.
    apiGet('plan/GetById/:id', ({ params }) => {
      sent.push({ path: `admin-plan/${String(params.id)}`, body: null });
      return ok(null);
    }),
  );
  return { sent, asked: () => optionsAsked };
}

const card = async () => (await screen.findByRole('heading', { name: 'Pro', level: 3 })).closest('li')!;

describe("the customer's 'Cambia piano'", () => {
  it('is not offered where the tenant does not allow it', async () => {
    const { asked } = customerServer(false);
    renderApp('/', { role: Role.User, tenantId: 1 });
    const c = await card();
    await waitFor(() => expect(asked()).toBe(1));
    // Let the answer render before asserting the absence.
    await waitFor(() => expect(within(c).queryByText('Prossimo addebito')).toBeInTheDocument());
    expect(within(c).queryByRole('button', { name: 'Cambia piano' })).not.toBeInTheDocument();
  });

  it('is not offered while a proration is unpaid (it waits in «Da pagare ora»)', async () => {
    const withProration = {
      ...ACTIVE,
      payments: [
        ...ACTIVE.payments,
        payment({
          id: 612,
          method: 'bankTransfer',
          periodStart: '2026-03-31T09:00:00Z',
          periodEnd: '2026-04-15T09:00:00Z',
          amountDue: 23.04,
        }),
      ],
    };
    const { asked } = customerServer(true, withProration);
    renderApp('/', { role: Role.User, tenantId: 1 });
    expect(await screen.findByRole('heading', { name: 'Da pagare ora' })).toBeInTheDocument();
    const c = await card();
    await waitFor(() => expect(screen.getByText('Nessuna fattura.')).toBeInTheDocument());
    // Not even asked: the card knows the change would be refused.
    expect(asked()).toBe(0);
    expect(within(c).queryByRole('button', { name: 'Cambia piano' })).not.toBeInTheDocument();
  });

  it('opens the same dialog with the plans offered, previews and changes through the customer’s own call', async () => {
    const { sent } = customerServer(true);
    const { user } = renderApp('/', { role: Role.User, tenantId: 1 });
    await user.click(await within(await card()).findByRole('button', { name: 'Cambia piano' }));

    const dialog = await screen.findByRole('dialog', { name: 'Cambia piano' });
    const group = within(dialog).getByRole('group', { name: 'Nuovo piano' });
    const choices = within(group).getAllByRole('radio');
    expect(choices.map((r) => r.closest('label')?.textContent?.replace(/\s/g, ' '))).toEqual([
      'Light23,18 € / mensile',
      'Business97,60 € / mensile',
    ]);
    await user.click(within(group).getByRole('radio', { name: /Business/ }));

    // A dearer plan: 'Subito' by default, and the server's preview item by item.
    expect(await within(dialog).findByText(/Storno giorni non goduti piano «Pro»/)).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /Subito/ })).toBeChecked();
    expect(sent).toContainEqual({ path: 'change/11', body: { planId: 9, when: 'now', preview: true } });

    await user.click(within(dialog).getByRole('button', { name: 'Conferma cambio piano' }));
    const done = await screen.findByRole('dialog', { name: 'Piano cambiato' });
    expect(
      within(done).getByText('Nota di credito n. NC-2026-3 emessa per i giorni non goduti.'),
    ).toBeInTheDocument();
    // Said to the customer, not to the seller's staff.
    expect(within(done).getByText(/Conguaglio da pagare: 23,04/)).toBeInTheDocument();
    expect(within(done).queryByText(/da incassare/)).not.toBeInTheDocument();
    expect(sent).toContainEqual({ path: 'change/11', body: { planId: 9, when: 'now', preview: false } });
    expect(sent.some((s) => s.path.startsWith('admin-plan'))).toBe(false);
    await user.click(within(done).getByText('Chiudi', { selector: 'footer button' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
