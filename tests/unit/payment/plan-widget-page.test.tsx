import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PlanWidgetView } from '../../../contract/schemas/payment';
import { currentUrl, renderApp } from '../app/harness';
import { apiGet, apiPost, deferred, fail, ok, server } from '../msw/server';

const plan: PlanWidgetView = {
  id: 5,
  name: 'Pro',
  recurringCostBeforeVAT: 29.9,
  vatPercentage: 22,
  amount: 36.48,
  currency: 'EUR',
  recurrenceType: 1,
  recurrenceTypeName: 'Mensile',
  features: [{ featureName: 'Report mensili', description: 'PDF ogni mese' }],
  tenantName: 'Demo Srl',
  trialDays: null,
  trialEndsAt: null,
};

const sentMessage = 'Ti abbiamo inviato un’email: apri il link che contiene per confermare l’abbonamento.';

describe('the plan widget (/widget/plan)', () => {
  it('after subscribing says a confirmation e-mail was sent, and goes nowhere', async () => {
    const gate = deferred();
    const bodies: unknown[] = [];
    const headers: Headers[] = [];
    server.use(
      apiGet('plan/widget', ({ request }) =>
        new URL(request.url).searchParams.get('planId') === '5' ? ok(plan) : fail(404, 'x'),
      ),
      apiPost('subscription/subscribe', async ({ request }) => {
        bodies.push(await request.json());
        headers.push(request.headers);
        await gate.promise;
        return ok({ confirmationSent: true }, sentMessage);
      }),
    );
    const { user, router } = renderApp('/widget/plan?planId=5');
    expect(await screen.findByRole('heading', { name: 'Pro' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), ' mario.rossi@example.it ');
    await user.type(screen.getByLabelText('Nome (facoltativo)'), 'Mario Rossi');
    await user.click(screen.getByRole('button', { name: 'Abbonati' }));
    expect(await screen.findByRole('button', { name: 'Attendere…' })).toBeDisabled();
    gate.resolve();

    const status = await screen.findByRole('status');
    expect(within(status).getByRole('heading', { name: 'Controlla la tua email' })).toBeInTheDocument();
    expect(status).toHaveTextContent('Abbiamo inviato un link di conferma a mario.rossi@example.it');
    expect(status).toHaveTextContent(
      'Aprilo entro 1 ora per confermare l’abbonamento: poi potrai completare il pagamento.',
    );
    expect(screen.queryByRole('link', { name: /pagamento/i })).not.toBeInTheDocument();
    expect(bodies).toEqual([{ planId: 5, email: 'mario.rossi@example.it', name: 'Mario Rossi' }]);
    expect(headers[0]?.get('authorization')).toBeNull();
    expect(headers[0]?.get('x-tenant-id')).toBeNull();
    expect(currentUrl(router)).toBe('/widget/plan?planId=5');

    // Back to the form, the address kept, to change it or ask again.
    await user.click(screen.getByRole('button', { name: 'Cambia email o invia di nuovo' }));
    expect(screen.getByLabelText('Email')).toHaveValue('mario.rossi@example.it');
    expect(screen.getByRole('button', { name: 'Abbonati' })).toBeEnabled();
  });

  it('shows the server’s refusal (daily cap) and keeps the form', async () => {
    server.use(
      apiGet('plan/widget', () => ok(plan)),
      apiPost('subscription/subscribe', () =>
        fail(429, 'Oggi questo piano ha ricevuto troppe richieste di abbonamento: riprova più tardi.'),
      ),
    );
    const { user } = renderApp('/widget/plan?planId=5');
    await user.type(await screen.findByLabelText('Email'), 'a@example.it');
    await user.click(screen.getByRole('button', { name: 'Abbonati' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Oggi questo piano ha ricevuto troppe richieste di abbonamento: riprova più tardi.',
    );
    expect(screen.queryByText('Controlla la tua email')).not.toBeInTheDocument();
  });

  it('a malformed address is refused before any call', async () => {
    let called = false;
    server.use(
      apiGet('plan/widget', () => ok(plan)),
      apiPost('subscription/subscribe', () => {
        called = true;
        return ok({ confirmationSent: true });
      }),
    );
    const { user } = renderApp('/widget/plan?planId=5');
    await user.type(await screen.findByLabelText('Email'), 'non-valida');
    await user.click(screen.getByRole('button', { name: 'Abbonati' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Formato email non valido.');
    await waitFor(() => expect(called).toBe(false));
  });

  it('«Hai un codice sconto?» opens the field; the server’s error shows under it; a good code is sent', async () => {
    const bodies: unknown[] = [];
    server.use(
      apiGet('plan/widget', () => ok(plan)),
      apiPost('subscription/subscribe', async ({ request }) => {
        const body = (await request.json()) as { couponCode?: string };
        bodies.push(body);
        return body.couponCode === 'BENVENUTO10'
          ? ok({ confirmationSent: true }, sentMessage)
          : fail(400, 'Dati non validi', null, ['couponCode: Coupon non valido per questo piano']);
      }),
    );
    const { user } = renderApp('/widget/plan?planId=5');
    await user.type(await screen.findByLabelText('Email'), 'anna@example.it');
    expect(screen.queryByLabelText('Hai un codice sconto?')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hai un codice sconto?' }));
    const field = screen.getByLabelText('Hai un codice sconto?');
    await user.type(field, 'soloaltro');
    expect(field).toHaveValue('SOLOALTRO');
    await user.click(screen.getByRole('button', { name: 'Abbonati' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription('Coupon non valido per questo piano'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Controlla la tua email')).not.toBeInTheDocument();

    await user.clear(field);
    await user.type(field, 'benvenuto10');
    expect(field).not.toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Abbonati' }));
    expect(await screen.findByRole('heading', { name: 'Controlla la tua email' })).toBeInTheDocument();
    expect(bodies).toEqual([
      { planId: 5, email: 'anna@example.it', couponCode: 'SOLOALTRO' },
      { planId: 5, email: 'anna@example.it', couponCode: 'BENVENUTO10' },
    ]);
  });

  it('a plan with a free trial says «Prova gratuita di N giorni», what is due at its end and from when', async () => {
    server.use(
      apiGet('plan/widget', () => ok({ ...plan, trialDays: 14, trialEndsAt: '2026-04-28T08:00:00.000Z' })),
      apiPost('subscription/subscribe', () => ok({ confirmationSent: true }, sentMessage)),
    );
    const { user } = renderApp('/widget/plan?planId=5');
    expect(await screen.findByText('Prova gratuita di 14 giorni')).toBeInTheDocument();
    expect(screen.getByText('Poi 36,48 € al mese dal 28/04/2026, IVA inclusa.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Nessun addebito automatico durante la prova: prima della fine ti inviamo via email il link per pagare. Una prova per cliente e piano.',
      ),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'prova@example.it');
    await user.click(screen.getByRole('button', { name: 'Abbonati' }));
    const status = await screen.findByRole('status');
    expect(within(status).getByRole('heading', { name: 'Controlla la tua email' })).toBeInTheDocument();
    expect(status).toHaveTextContent('La prova gratuita di 14 giorni inizia quando confermi.');
  });

  it('one day is «1 giorno»; a plan without a trial (null or 0) says nothing of a trial', async () => {
    server.use(
      apiGet('plan/widget', ({ request }) => {
        const id = new URL(request.url).searchParams.get('planId');
        if (id === '6') return ok({ ...plan, id: 6, trialDays: 1, trialEndsAt: '2026-04-15T08:00:00.000Z' });
        return ok({ ...plan, id: Number(id), trialDays: id === '7' ? 0 : null, trialEndsAt: null });
      }),
    );
    const one = renderApp('/widget/plan?planId=6');
    expect(await screen.findByText('Prova gratuita di 1 giorno')).toBeInTheDocument();
    expect(screen.getByText('Poi 36,48 € al mese dal 15/04/2026, IVA inclusa.')).toBeInTheDocument();
    one.unmount();
    for (const id of ['5', '7']) {
      const view = renderApp(`/widget/plan?planId=${id}`);
      expect(await screen.findByRole('heading', { name: 'Pro' })).toBeInTheDocument();
      expect(screen.queryByText(/prova/i)).not.toBeInTheDocument();
      view.unmount();
    }
  });
});
