/**
 * 'Crea Sottoscrizione' with a coupon (issue 30): the code, once typed, goes to the quote (the
 * Anteprima fattura shows the discount), a code the server refuses is said under the field, and
 * Create sends it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { couponMessages as m } from '../../../contract/messages';
import type { Plan } from '../../../contract/schemas/plan';
import { renderApp } from '../app/harness';
import { fakeSelectServer } from '../components/fixtures';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';
import { subscriptionServer } from './fixtures';

const pro: Plan = {
  id: 7,
  name: 'Pro',
  recurringCostBeforeVAT: 49,
  vatPercentage: 22,
  recurrenceType: 1,
  recurrenceTypeName: 'Mensile',
  natura: null,
  paypalPlanId: null,
  stripePlanId: null,
  isActive: true,
  planFeatures: [],
};

const line = { description: 'Pro', quantity: 1, unitPrice: 49, vatPercentage: 22, natura: null };
const base = { cassa: 0, bollo: 0, withholding: 0, natura: null, legalReference: null };

function arrange() {
  fakeSelectServer('user', [{ value: 3, label: 'Mario Rossi' }]);
  fakeSelectServer('plan', [{ value: 7, label: 'Pro', isActive: 'true' }]);
  const quoteCalls: Record<string, unknown>[] = [];
  server.use(
    apiGet('plan/GetById/:id', () => ok(pro)),
    apiPost('subscription/quote', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      quoteCalls.push(body);
      if (body.couponCode === 'SCADUTO')
        return fail(400, 'I dati inviati non sono validi.', null, [`couponCode: ${m.expired}`]);
      if (body.couponCode === 'DIECI')
        return ok({
          ...base,
          lines: [{ ...line, discount: 4.9 }],
          taxable: 44.1,
          discount: 4.9,
          vat: 9.7,
          total: 53.8,
          netToPay: 53.8,
        });
      return ok({ ...base, lines: [line], taxable: 49, vat: 10.78, total: 59.78, netToPay: 59.78 });
    }),
  );
  return { quoteCalls };
}

async function pick(user: UserEvent, label: string, option: string) {
  await user.click(await screen.findByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('/subscription/new with a coupon', { timeout: 20_000 }, () => {
  it('previews the discount, says a refused code under the field, and sends the code with Create', async () => {
    const { quoteCalls } = arrange();
    const { calls } = subscriptionServer([]);
    const { user } = renderApp('/subscription/new', { role: Role.Admin, tenantId: 1 });
    await pick(user, 'Cliente', 'Mario Rossi');
    await pick(user, 'Piano', 'Pro');
    const coupon = screen.getByRole('textbox', { name: 'Coupon' });

    await user.type(coupon, 'SCADUTO');
    await user.tab();
    await waitFor(() => expect(coupon).toHaveAccessibleDescription(expect.stringContaining(m.expired)));
    expect(coupon).toHaveAttribute('aria-invalid', 'true');

    await user.clear(coupon);
    await user.type(coupon, 'DIECI');
    await user.tab();
    const preview = await screen.findByRole('region', { name: 'Anteprima fattura' });
    const row = (label: string) =>
      within(preview).queryByText(label)?.nextElementSibling?.textContent?.replace(/\s/g, ' ');
    await waitFor(() => expect(row('Sconto coupon')).toBe('− 4,90 €'));
    expect(row('Netto a pagare')).toBe('53,80 €');
    expect(coupon).toHaveAttribute('aria-invalid', 'false');
    // Typing does not ask at every key: only the codes left in the field were quoted.
    expect(quoteCalls.map((q) => q.couponCode ?? null).filter(Boolean)).toEqual(['SCADUTO', 'DIECI']);

    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toMatchObject({ userId: 3, planId: 7, couponCode: 'DIECI' });
  });
});
