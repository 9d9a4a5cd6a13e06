/**
 * 'Cambia piano' (issue 30): the subscription page shows the customer's credit left by a plan
 * change ('Credito a favore del cliente'), set off on the next payment — or, for a subscription
 * PayPal charges, left to the Admin; nothing when there is none.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { renderApp } from '../app/harness';
import { subscription, subscriptionServer } from './fixtures';

async function page(over: Parameters<typeof subscription>[2]) {
  subscriptionServer([subscription(12, 3, { scheduledPlanChange: null, ...over })]);
  renderApp('/subscription/12', { role: Role.Admin, tenantId: 1 });
  await screen.findByRole('heading', { name: 'Azioni disponibili' }, { timeout: 20_000 });
}

describe('subscription credit', () => {
  it('a credit set off on the next payment', async () => {
    await page({ creditBalance: 12.2, creditSetOff: true });
    const box = await screen.findByTestId('subscription-credit');
    expect(box).toHaveTextContent('Credito a favore del cliente: 12,20 €');
    expect(box).toHaveTextContent(
      'Sarà scalato dal prossimo pagamento (e dai successivi, fino a esaurimento).',
    );
  }, 30_000);

  it('a PayPal subscription: the credit is left to the Admin, said so', async () => {
    await page({ creditBalance: 5, creditSetOff: false });
    const box = await screen.findByTestId('subscription-credit');
    expect(box).toHaveTextContent('Credito a favore del cliente: 5,00 €');
    expect(box).toHaveTextContent('PayPal non permette di ridurre un singolo addebito');
    expect(box).not.toHaveTextContent('Sarà scalato');
  }, 30_000);

  it('no credit: nothing shown', async () => {
    await page({ creditBalance: 0, creditSetOff: true });
    expect(screen.queryByTestId('subscription-credit')).toBeNull();
    expect(screen.queryByText(/Credito a favore del cliente/)).toBeNull();
  }, 30_000);
});
