import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, apiPut, fail, ok, server } from '../msw/server';

const view: PaymentTokenView = {
  id: 7,
  token: 'tok-123',
  expiryDate: '2026-03-10T10:00:00Z',
  status: 0,
  userId: 3,
  planId: 2,
  amount: 36.48,
  currency: 'EUR',
  paymentId: 11,
  selectedPaymentProviderId: 1,
  tenantID: 4,
  paymentProviderPlanId: 'P-ABC',
  providerSubscriptionId: null,
  tenantName: 'Demo Srl',
  plan: { name: 'Pro', recurrenceType: 1, recurrenceTypeName: 'Mensile', features: ['Report mensili'] },
  costBeforeVAT: 29.9,
  vatPercentage: 22,
};

/** The page's own card (the toasts live outside <main>). */
const card = async () => within(await screen.findByRole('main'));

/** Spec §8: every message is a toast unless stated; exactly one toast says this text. */
async function expectOneToast(text: string) {
  await waitFor(() =>
    expect(
      [...document.querySelectorAll('.Toastify__toast')].filter((t) => t.textContent === text),
    ).toHaveLength(1),
  );
}

describe('the public payment page (/payment)', () => {
  it('without a token says so, and calls nothing', async () => {
    renderApp('/payment');
    expect(await (await card()).findByRole('alert')).toHaveTextContent(messages.payment.tokenMissing);
    await expectOneToast(messages.payment.tokenMissing);
  });

  it('an invalid token: Token non valido.', async () => {
    server.use(apiGet('PaymentToken/validate', () => fail(200, messages.payment.tokenInvalid)));
    renderApp('/payment?token=old&bypassTenant=true');
    expect(await (await card()).findByRole('alert')).toHaveTextContent(messages.payment.tokenInvalid);
    await expectOneToast(messages.payment.tokenInvalid);
  });

  it('a tenant without PayPal: Configurazione PayPal non trovata per questo tenant.', async () => {
    server.use(
      apiGet('PaymentToken/validate', () => ok(view)),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () => ok({ paypal: null, stripe: null })),
    );
    renderApp('/payment/process?token=tok-123');
    expect(await (await card()).findByRole('alert')).toHaveTextContent(messages.payment.paypalNotConfigured);
    await expectOneToast(messages.payment.paypalNotConfigured);
  });

  it('shows plan, features, price, VAT and total per period, signed out, without a tenant header', async () => {
    const headers: Headers[] = [];
    server.use(
      apiGet('PaymentToken/validate', ({ request }) => {
        headers.push(request.headers);
        return ok(view);
      }),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', ({ params }) =>
        params.id === '4' ? ok({ paypal: { apiKey: 'client-id' }, stripe: null }) : fail(404, 'x'),
      ),
    );
    renderApp('/payment?token=tok-123&bypassTenant=true');
    expect(await screen.findByText('Pro')).toBeInTheDocument();
    expect(screen.getByText('Report mensili')).toBeInTheDocument();
    expect(screen.getByTestId('payment-amount')).toHaveTextContent('36,48 €');
    expect(screen.getByText('29,90 €')).toBeInTheDocument();
    expect(screen.getByText('6,58 €')).toBeInTheDocument();
    expect(screen.getByText('Totale al mese')).toBeInTheDocument();
    expect(headers[0]?.get('x-tenant-id')).toBeNull();
    expect(headers[0]?.get('authorization')).toBeNull();
  });

  it('with PayPal and Stripe the customer chooses; card opens Stripe Checkout for the token', async () => {
    const bodies: unknown[] = [];
    server.use(
      apiGet('PaymentToken/validate', () => ok(view)),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () =>
        ok({ paypal: { apiKey: 'client-id' }, stripe: { publishableKey: 'pk_test_1' } }),
      ),
      apiPost('Payment/stripe/checkout', async ({ request }) => {
        bodies.push(await request.json());
        return fail(502, 'Stripe è momentaneamente non disponibile.');
      }),
    );
    renderApp('/payment?token=tok-123');
    const card = await screen.findByRole('radio', { name: /Carta/ });
    expect(screen.getByRole('radio', { name: /PayPal/ })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Paga con carta' })).toBeNull();
    fireEvent.click(card);
    fireEvent.click(await screen.findByRole('button', { name: 'Paga con carta' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toContain(messages.payment.genericError);
    // Still on the page, the card choice kept: the customer may try again.
    expect(screen.getByRole('button', { name: 'Paga con carta' })).toBeEnabled();
    expect(bodies).toEqual([{ token: 'tok-123' }]);
  });

  it('an extra payment (a one-off charge): what it pays and its total, card only, no renewal text', async () => {
    const bodies: unknown[] = [];
    server.use(
      apiGet('PaymentToken/validate', () =>
        ok({
          ...view,
          amount: 111.02,
          paymentProviderPlanId: 'rinnova-one-off',
          extra: { kind: 'oneOff', description: 'Configurazione dominio' },
        }),
      ),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () =>
        ok({ paypal: { apiKey: 'client-id' }, stripe: { publishableKey: 'pk_test_1' } }),
      ),
      apiPost('Payment/stripe/checkout', async ({ request }) => {
        bodies.push(await request.json());
        return fail(502, 'Stripe è momentaneamente non disponibile.');
      }),
    );
    renderApp('/payment?token=tok-123');
    expect(await screen.findByText('Configurazione dominio')).toBeInTheDocument();
    expect(screen.getByText('Addebito una tantum')).toBeInTheDocument();
    expect(screen.getByTestId('payment-amount')).toHaveTextContent('111,02 €');
    expect(screen.getByText(/Pagamento unico con carta/)).toBeInTheDocument();
    expect(screen.queryByText(/Rinnovo automatico/)).toBeNull();
    expect(screen.queryByRole('radio', { name: /PayPal/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Paga con carta' }));
    await waitFor(() => expect(bodies).toEqual([{ token: 'tok-123' }]));
  });

  it('an extra payment without Stripe says to pay by transfer', async () => {
    server.use(
      apiGet('PaymentToken/validate', () =>
        ok({ ...view, extra: { kind: 'proration', description: 'Pro' } }),
      ),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () =>
        ok({ paypal: { apiKey: 'client-id' }, stripe: null }),
      ),
    );
    renderApp('/payment?token=tok-123');
    expect(await (await card()).findByRole('alert')).toHaveTextContent(
      'Il pagamento con carta non è disponibile: contatta il fornitore per pagare con bonifico.',
    );
  });

  it('back from Stripe: the session is confirmed, then the thank-you screen; a refusal says so', async () => {
    const confirmed: unknown[] = [];
    server.use(
      apiPut('Payment/stripe/confirm', async ({ request }) => {
        const body = (await request.json()) as { sessionId: string };
        confirmed.push(body);
        return body.sessionId === 'cs_test_ok' ? ok({ result: 'paid' }) : fail(400, 'no');
      }),
    );
    const first = renderApp('/payment/process?session_id=cs_test_ok&tenant=4');
    expect(await (await card()).findByText(messages.payment.success)).toBeInTheDocument();
    await expectOneToast(messages.payment.success);
    expect(confirmed).toEqual([{ sessionId: 'cs_test_ok', tenantId: 4 }]);
    first.unmount();
    renderApp('/payment/process?session_id=cs_test_bad&tenant=4');
    expect(await (await card()).findByRole('alert')).toHaveTextContent(messages.payment.updateFailed);
    await expectOneToast(messages.payment.updateFailed);
  });
});

describe('a discounted link (issue 30)', () => {
  const coupon = {
    code: 'TRIMESTRE20',
    discountLabel: '20%',
    durationLabel: 'Per 3 periodi',
    periodsLeft: 3,
    discountAmount: 5.98,
    fullAmount: 36.48,
    amount: 29.18,
    applied: true,
  };
  const both = { paypal: { apiKey: 'client-id' }, stripe: { publishableKey: 'pk_test_1' } };

  it('PayPal charges it (the coupon’s PayPal plan): PayPal and the card are both offered', async () => {
    server.use(
      apiGet('PaymentToken/validate', () =>
        ok({
          ...view,
          amount: 29.18,
          coupon,
          paymentProviderKind: 'paypal',
          paymentProviderPlanId: 'P-COUPON',
        }),
      ),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () => ok(both)),
    );
    renderApp('/payment?token=tok-123');
    expect(await screen.findByRole('radio', { name: /PayPal/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Carta/ })).toBeInTheDocument();
  });

  it('a link Stripe charges: only the card', async () => {
    server.use(
      apiGet('PaymentToken/validate', () =>
        ok({
          ...view,
          amount: 29.18,
          coupon,
          paymentProviderKind: 'stripe',
          paymentProviderPlanId: 'price_1',
        }),
      ),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () => ok(both)),
    );
    renderApp('/payment?token=tok-123');
    expect(await screen.findByRole('button', { name: 'Paga con carta' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /PayPal/ })).toBeNull();
  });

  it('a payment that sets off a residual credit: the credit’s line, the VAT of the period, the total asked', async () => {
    server.use(
      apiGet('PaymentToken/validate', () =>
        ok({
          ...view,
          amount: 19.18,
          coupon: { ...coupon, amount: 19.18, creditUsed: 10 },
          paymentProviderKind: 'stripe',
          paymentProviderPlanId: 'price_1',
        }),
      ),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () => ok(both)),
    );
    renderApp('/payment?token=tok-123');
    expect(await screen.findByTestId('payment-credit')).toHaveTextContent(
      /^Credito residuo compensato−10,00 €$/,
    );
    // 29,90 − 5,98 = 23,92 + IVA 5,26 = 29,18; less the credit: 19,18.
    expect(screen.getByText('5,26 €')).toBeInTheDocument();
    expect(screen.getByTestId('payment-amount')).toHaveTextContent('36,48 €19,18 €');
  });

  it('a renewal link that sets off a residual credit without a coupon: the credit’s line, the VAT of the whole period', async () => {
    server.use(
      apiGet('PaymentToken/validate', () =>
        ok({
          ...view,
          amount: 26.48,
          creditUsed: 10,
          paymentProviderKind: 'stripe',
          paymentProviderPlanId: 'price_1',
        }),
      ),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () => ok(both)),
    );
    renderApp('/payment?token=tok-123');
    expect(await screen.findByTestId('payment-credit')).toHaveTextContent(
      /^Credito residuo compensato−10,00 €$/,
    );
    // 29,90 + IVA 6,58 = 36,48; less the credit: 26,48 (the VAT is not the difference 26,48 − 29,90).
    expect(screen.getByText('6,58 €')).toBeInTheDocument();
    expect(screen.getByTestId('payment-amount')).toHaveTextContent('26,48 €');
  });

  it('a PayPal-only tenant: the coupon field is offered', async () => {
    server.use(
      apiGet('PaymentToken/validate', () => ok({ ...view, coupon: null, paymentProviderKind: 'paypal' })),
      apiGet('paymentprovider/GetPublicSettingsByTenant/:id', () =>
        ok({ paypal: { apiKey: 'client-id' }, stripe: null }),
      ),
    );
    renderApp('/payment?token=tok-123');
    expect(await screen.findByRole('button', { name: 'Hai un codice sconto?' })).toBeInTheDocument();
  });
});
