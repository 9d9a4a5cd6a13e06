import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import type { PaymentTokenView } from '../../../contract/schemas/payment';
import { renderApp } from '../app/harness';
import { apiGet, fail, ok, server } from '../msw/server';

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

describe('the public payment page (/payment)', () => {
  it('without a token says so, and calls nothing', async () => {
    renderApp('/payment');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.payment.tokenMissing);
  });

  it('an invalid token: Token non valido.', async () => {
    server.use(apiGet('PaymentToken/validate', () => fail(200, messages.payment.tokenInvalid)));
    renderApp('/payment?token=old&bypassTenant=true');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.payment.tokenInvalid);
  });

  it('a tenant without PayPal: Configurazione PayPal non trovata per questo tenant.', async () => {
    server.use(
      apiGet('PaymentToken/validate', () => ok(view)),
      apiGet('paymentprovider/GetPayPalSettingsByTenant/:id', () =>
        fail(404, messages.payment.paypalNotConfigured),
      ),
    );
    renderApp('/payment/process?token=tok-123');
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.payment.paypalNotConfigured);
  });

  it('shows plan, features, price, VAT and total per period, signed out, without a tenant header', async () => {
    const headers: Headers[] = [];
    server.use(
      apiGet('PaymentToken/validate', ({ request }) => {
        headers.push(request.headers);
        return ok(view);
      }),
      apiGet('paymentprovider/GetPayPalSettingsByTenant/:id', ({ params }) =>
        params.id === '4' ? ok({ apiKey: 'client-id' }) : fail(404, 'x'),
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
});
