import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../app/harness';
import { apiPost, deferred, fail, ok, server } from '../msw/server';

const original = window.location;

/** jsdom cannot load another document: records what the page asks `location.replace` to load. */
function stubLocationReplace(): string[] {
  const replaced: string[] = [];
  Object.defineProperty(window, 'location', {
    configurable: true,
    value: {
      ...original,
      origin: original.origin,
      href: original.href,
      replace: (url: string) => replaced.push(url),
    },
  });
  return replaced;
}

function restoreLocation() {
  Object.defineProperty(window, 'location', { configurable: true, value: original });
}

describe('the widget’s confirmation page (/widget/confirm)', () => {
  it('shows that it is confirming, then loads the payment page of the answer as a whole page (history replaced)', async () => {
    const gate = deferred();
    const bodies: unknown[] = [];
    const headers: Headers[] = [];
    const paymentUrl = `${window.location.origin}/payment?token=pay-tok&bypassTenant=true`;
    server.use(
      apiPost('subscription/subscribe/confirm', async ({ request }) => {
        bodies.push(await request.json());
        headers.push(request.headers);
        await gate.promise;
        return ok({ paymentUrl, result: 'created' }, 'Abbonamento confermato: completa il pagamento.');
      }),
    );
    const replaced = stubLocationReplace();
    try {
      const { router } = renderApp('/widget/confirm?token=abc_DEF-123');
      expect(await screen.findByRole('heading', { name: 'Conferma abbonamento' })).toBeInTheDocument();
      expect(await screen.findByText('Stiamo confermando il tuo abbonamento…')).toBeInTheDocument();
      expect(replaced).toEqual([]);
      gate.resolve();

      // Not a client-side route change: the payment page's CSP (PayPal, Stripe) comes with its document.
      await waitFor(() => expect(replaced).toEqual([paymentUrl]));
      expect(currentUrl(router)).toBe('/widget/confirm?token=abc_DEF-123');
      expect(screen.getByText('Abbonamento confermato')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Vai al pagamento' })).toHaveAttribute('href', paymentUrl);
      expect(bodies).toEqual([{ token: 'abc_DEF-123' }]);
      expect(headers[0]?.get('authorization')).toBeNull();
      expect(headers[0]?.get('x-tenant-id')).toBeNull();
    } finally {
      restoreLocation();
    }
  });

  it.each([
    ['invalid', 400, 'Link non valido', 'Link di conferma non valido o sostituito da uno più recente.'],
    ['expired', 400, 'Link scaduto', 'Il link di conferma è scaduto: richiedi di nuovo l’abbonamento.'],
    ['used', 409, 'Link già usato', 'Questo link di conferma è già stato usato.'],
    ['notAllowed', 409, 'Email non utilizzabile', 'Questa email non può essere usata per abbonarsi da qui.'],
    [
      'unavailable',
      409,
      'Piano non disponibile',
      'Questo piano non si può acquistare online in questo momento.',
    ],
  ])('a refusal (%s) says why and goes nowhere', async (reason, status, heading, message) => {
    server.use(apiPost('subscription/subscribe/confirm', () => fail(status, message, { reason })));
    const { router } = renderApp('/widget/confirm?token=tok');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(heading);
    expect(alert).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Riprova' })).not.toBeInTheDocument();
    expect(currentUrl(router)).toBe('/widget/confirm?token=tok');
  });

  it('without a token: the link is incomplete, and nothing is called', async () => {
    let called = false;
    server.use(
      apiPost('subscription/subscribe/confirm', () => {
        called = true;
        return fail(400, 'x');
      }),
    );
    renderApp('/widget/confirm');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Link non validoIl link è incompleto: aprilo di nuovo dall’email, per intero.',
    );
    expect(called).toBe(false);
  });

  it('a failure without a reason (server down) offers to try again, which can succeed', async () => {
    let calls = 0;
    server.use(
      apiPost('subscription/subscribe/confirm', () => {
        calls += 1;
        return calls === 1
          ? fail(503, 'Servizio momentaneamente non disponibile.')
          : ok({ paymentUrl: 'https://pagamenti.example.com/payment?token=x', result: 'replayed' });
      }),
    );
    const replaced = stubLocationReplace();
    try {
      const { user } = renderApp('/widget/confirm?token=tok');
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Conferma non riuscita');
      expect(alert).toHaveTextContent('Servizio momentaneamente non disponibile.');
      await user.click(screen.getByRole('button', { name: 'Riprova' }));
      await waitFor(() => expect(replaced).toEqual(['https://pagamenti.example.com/payment?token=x']));
      expect(screen.getByText('Abbonamento confermato')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Vai al pagamento' })).toHaveAttribute(
        'href',
        'https://pagamenti.example.com/payment?token=x',
      );
    } finally {
      restoreLocation();
    }
  });

  it('a confirmation that started a free trial says until when and what is due then; no automatic move to the payment page', async () => {
    const paymentUrl = `${window.location.origin}/payment?token=pay-trial&bypassTenant=true`;
    server.use(
      apiPost('subscription/subscribe/confirm', () =>
        ok({ paymentUrl, result: 'created', trialEndsAt: '2026-04-28T08:00:00.000Z', amount: 36.6 }),
      ),
    );
    const replaced = stubLocationReplace();
    try {
      renderApp('/widget/confirm?token=trial');
      const status = await screen.findByRole('status');
      await waitFor(() => expect(status).toHaveTextContent('Abbonamento confermato'));
      expect(status).toHaveTextContent('Prova gratuita attiva fino al 28/04/2026');
      expect(status).toHaveTextContent(
        'Il primo pagamento, di 36,60 €, è dovuto il 28/04/2026. Puoi pagarlo ora oppure più avanti: prima della fine della prova ti inviamo via email il link per pagare. Senza pagamento, alla fine della prova l’abbonamento si ferma.',
      );
      expect(screen.getByRole('link', { name: 'Paga ora' })).toHaveAttribute('href', paymentUrl);
      expect(screen.queryByText('Ti stiamo portando al pagamento…')).not.toBeInTheDocument();
      expect(replaced).toEqual([]);
    } finally {
      restoreLocation();
    }
  });

  it('a widget coupon refused at the confirmation is told with its reason and the full price; no automatic move', async () => {
    const paymentUrl = `${window.location.origin}/payment?token=pay-full&bypassTenant=true`;
    server.use(
      apiPost('subscription/subscribe/confirm', () =>
        ok({
          paymentUrl,
          result: 'created',
          trialEndsAt: null,
          amount: 35.38,
          coupon: { code: 'ULTIMO', error: 'Coupon esaurito' },
        }),
      ),
    );
    const replaced = stubLocationReplace();
    try {
      renderApp('/widget/confirm?token=coupon');
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Codice sconto non applicato');
      expect(alert).toHaveTextContent('Il codice ULTIMO non è stato applicato: Coupon esaurito.');
      expect(alert).toHaveTextContent(
        'Il primo pagamento è di 35,38 €, senza sconto. Nella pagina di pagamento puoi inserire un altro codice.',
      );
      expect(screen.getByText('Abbonamento confermato')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Vai al pagamento' })).toHaveAttribute('href', paymentUrl);
      expect(screen.queryByText('Ti stiamo portando al pagamento…')).not.toBeInTheDocument();
      expect(replaced).toEqual([]);
    } finally {
      restoreLocation();
    }
  });

  it('refused without a reason, and with a trial: both told', async () => {
    server.use(
      apiPost('subscription/subscribe/confirm', () =>
        ok({
          paymentUrl: 'https://pagamenti.example.com/payment?token=t',
          result: 'replayed',
          trialEndsAt: '2026-04-28T08:00:00.000Z',
          amount: 36.6,
          coupon: { code: 'BENVENUTO', error: 'Il codice sconto non è stato applicato.' },
        }),
      ),
    );
    const replaced = stubLocationReplace();
    try {
      renderApp('/widget/confirm?token=both');
      const alert = await screen.findByRole('alert');
      // The amount is said once, by the trial's paragraph.
      expect(alert).toHaveTextContent(
        'Il codice BENVENUTO non è stato applicato.Il primo pagamento sarà senza sconto. Nella pagina di pagamento puoi inserire un altro codice.',
      );
      expect(screen.getAllByText(/36,60 €/)).toHaveLength(1);
      expect(screen.getByText('Prova gratuita attiva fino al 28/04/2026')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Paga ora' })).toBeInTheDocument();
      expect(replaced).toEqual([]);
    } finally {
      restoreLocation();
    }
  });

  it('a widget coupon applied: on to the payment page as before (it shows the discount)', async () => {
    const paymentUrl = 'https://pagamenti.example.com/payment?token=sconto';
    server.use(
      apiPost('subscription/subscribe/confirm', () =>
        ok({
          paymentUrl,
          result: 'created',
          trialEndsAt: null,
          amount: 31.84,
          coupon: { code: 'WIDGET10', error: null },
        }),
      ),
    );
    const replaced = stubLocationReplace();
    try {
      renderApp('/widget/confirm?token=ok');
      await waitFor(() => expect(replaced).toEqual([paymentUrl]));
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      restoreLocation();
    }
  });
});
