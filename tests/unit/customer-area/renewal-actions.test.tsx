/**
 * 'Disattiva il rinnovo' on the customer home (issue 28, src/features/customer-area/renewal-actions.tsx):
 * an Active card offers the button, the dialog asks a reason (radio buttons) and a note with
 * Italian errors under the fields, the call carries them; a card whose renewal is off says until
 * when it stays active and turns it back on.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { renewalMessages, type OwnRenewal } from '../../../contract/schemas/renewal';
import { renderApp } from '../app/harness';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';
import { payment, subscription } from '../subscription/fixtures';

afterEach(() => document.querySelector('.swal2-container')?.remove());

const ACTIVE = subscription(11, 1, {
  nextBillingDate: '2026-04-15T09:00:00Z',
  payments: [
    payment({ id: 511, method: 'stripe', providerSubscriptionId: 'sub_1', paidAt: '2026-03-15T09:00:00Z' }),
  ],
});

function renewal(over: Partial<OwnRenewal> = {}): OwnRenewal {
  return {
    subscriptionId: 11,
    status: 1,
    renewal: 'on',
    endsAt: '2026-04-15T09:00:00Z',
    stoppedAt: null,
    reason: null,
    canResume: false,
    ...over,
  };
}

/** The customer's one subscription and its renewal, kept in memory; records what the SPA sends. */
function customerServer(initial: OwnRenewal) {
  let current = initial;
  const sent: { path: string; body: unknown }[] = [];
  server.use(
    apiGet('subscription/getAll', () =>
      ok({
        items: [
          current.renewal === 'stopped'
            ? { ...ACTIVE, subscriptionStatus: 3, subscriptionStatusName: 'ActiveNoRenewal' }
            : ACTIVE,
        ],
        totalCount: 1,
      }),
    ),
    apiGet('invoice/getAll', () => ok({ items: [], totalCount: 0 })),
    apiGet('user/me/subscriptions/renewal', () => ok({ items: [current] })),
    apiPost('user/me/subscriptions/:id/cancelRenewal', async ({ request, params }) => {
      const body = (await request.json()) as { reason?: string; note?: string };
      sent.push({ path: `cancel/${String(params.id)}`, body });
      current = renewal({
        status: 3,
        renewal: 'stopped',
        stoppedAt: '2026-03-20T10:00:00Z',
        reason: 'Troppo costoso',
        canResume: true,
      });
      return ok(current, renewalMessages.stopped('15/04/2026'));
    }),
    apiPost('user/me/subscriptions/:id/resumeRenewal', ({ params }) => {
      sent.push({ path: `resume/${String(params.id)}`, body: null });
      current = renewal();
      return ok(current, renewalMessages.resumed);
    }),
  );
  return sent;
}

const card = async () => (await screen.findByRole('heading', { name: 'Pro', level: 3 })).closest('li')!;

describe('Disattiva il rinnovo', () => {
  it('opens an accessible dialog; no reason and «Altro» without a note show Italian errors; then sends reason and note', async () => {
    const sent = customerServer(renewal());
    const { user } = renderApp('/', { role: Role.User, tenantId: 1 });
    const button = await within(await card()).findByRole('button', { name: 'Disattiva il rinnovo' });
    await user.click(button);

    const dialog = await screen.findByRole('dialog', { name: 'Disattiva il rinnovo' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByText(/resta attivo fino al 15\/04\/2026/)).toBeInTheDocument();
    const radios = within(dialog).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([
      'Troppo costoso',
      'Non lo uso abbastanza',
      'Passo a un altro servizio',
      'Problemi tecnici',
      'Altro',
    ]);

    const submit = within(dialog).getByRole('button', { name: 'Disattiva il rinnovo' });
    await user.click(submit);
    expect(await within(dialog).findByText(renewalMessages.reasonRequired)).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'Perché disattivi il rinnovo?' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    await user.click(within(dialog).getByRole('radio', { name: 'Altro' }));
    await user.click(submit);
    expect(await within(dialog).findByText(renewalMessages.noteRequired)).toBeInTheDocument();
    const note = within(dialog).getByRole('textbox', { name: 'Raccontaci il motivo' });
    expect(note).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);

    await user.type(note, 'Chiudo la partita IVA');
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([{ path: 'cancel/11', body: { reason: 'other', note: 'Chiudo la partita IVA' } }]);
    expect(await screen.findByText(renewalMessages.stopped('15/04/2026'))).toBeInTheDocument();
    // The card now says until when, and offers to turn it back on.
    expect(
      await within(await card()).findByText('Il rinnovo è disattivato: resta attivo fino al 15/04/2026.'),
    ).toBeInTheDocument();
  });

  it('the server’s field error shows under its field, and Annulla closes without a call', async () => {
    const sent = customerServer(renewal());
    server.use(
      apiPost('user/me/subscriptions/:id/cancelRenewal', () =>
        fail(400, 'Dati non validi', null, [`note: ${renewalMessages.noteTooLong}`]),
      ),
    );
    const { user } = renderApp('/', { role: Role.User, tenantId: 1 });
    await user.click(await within(await card()).findByRole('button', { name: 'Disattiva il rinnovo' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Troppo costoso' }));
    await user.click(within(dialog).getByRole('button', { name: 'Disattiva il rinnovo' }));
    expect(await within(dialog).findByText(renewalMessages.noteTooLong)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(await card()).getByRole('button', { name: 'Disattiva il rinnovo' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([]);
  });

  it('a renewal turned off says until when and «Riattiva il rinnovo» turns it back on', async () => {
    const sent = customerServer(
      renewal({ status: 3, renewal: 'stopped', stoppedAt: '2026-03-20T10:00:00Z', canResume: true }),
    );
    const { user } = renderApp('/', { role: Role.User, tenantId: 1 });
    const c = await card();
    expect(
      await within(c).findByText('Il rinnovo è disattivato: resta attivo fino al 15/04/2026.'),
    ).toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'Disattiva il rinnovo' })).not.toBeInTheDocument();
    await user.click(within(c).getByRole('button', { name: 'Riattiva il rinnovo' }));
    expect(await screen.findByText(renewalMessages.resumed)).toBeInTheDocument();
    expect(sent).toEqual([{ path: 'resume/11', body: null }]);
    expect(
      await within(await card()).findByRole('button', { name: 'Disattiva il rinnovo' }),
    ).toBeInTheDocument();
  });

  it('nothing to turn off or on (a bank transfer’s period, unpaid): no button', async () => {
    customerServer(renewal({ renewal: 'none', status: 3 }));
    renderApp('/', { role: Role.User, tenantId: 1 });
    const c = await card();
    await screen.findByText('Nessuna fattura.');
    expect(within(c).queryByRole('button', { name: /rinnovo/ })).not.toBeInTheDocument();
  });
});
