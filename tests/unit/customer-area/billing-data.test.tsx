import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { customerAreaMessages } from '../../../contract/messages';
import type { CustomerBilling } from '../../../contract/schemas/user';
import { renderApp } from '../app/harness';
import { api, apiGet, fail, ok, server } from '../msw/server';

const record: CustomerBilling = {
  id: 7,
  name: 'Cliente Demo',
  email: 'cliente@demo.rinnova.it',
  isCompany: false,
  fiscalCode: null,
  vatCode: null,
  countryCode: 'IT',
  billingCity: null,
  sdi: null,
  pec: null,
  phone: null,
  billingAddress: null,
};

/** GET/PUT user/me/billing as the server answers them; the PUT bodies are kept. */
function billingApi(answer: (body: Record<string, unknown>) => Response) {
  const puts: Record<string, unknown>[] = [];
  server.use(
    apiGet('tenant/getAll', () => ok({ items: [{ id: 1, name: 'Demo Srl' }], totalCount: 1 })),
    apiGet('user/me/billing', () => ok(record)),
    apiGet('region/getAllForSelect', () => ok({ options: [], totalCount: 0 })),
    http.put(api('user/me/billing'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      puts.push(body);
      return answer(body);
    }),
  );
  return puts;
}

describe("'Dati di fatturazione' (/my/billing, issue 28)", () => {
  it('a wrong codice fiscale is said on its field and nothing is sent; a right one saves and says what was issued', async () => {
    const puts = billingApi((body) =>
      HttpResponse.json({
        success: true,
        message: customerAreaMessages.billingSaved(1, 0),
        data: { customer: { ...record, fiscalCode: body.fiscalCode }, issued: 1, waiting: 0 },
      }),
    );
    const { user } = renderApp('/my/billing', { role: Role.User, tenantId: 1 });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dati di fatturazione' }),
    ).toBeInTheDocument();
    const cf = await screen.findByRole('textbox', { name: 'Codice fiscale' });
    await user.type(cf, 'RSSMRA80A01H501X');
    await user.click(screen.getByRole('button', { name: 'Salva dati di fatturazione' }));
    await waitFor(() => expect(cf).toHaveAccessibleDescription(/codice fiscale/i));
    expect(puts).toHaveLength(0);

    await user.clear(cf);
    await user.type(cf, 'RSSMRA80A01H501U');
    await user.click(screen.getByRole('button', { name: 'Salva dati di fatturazione' }));
    expect(await screen.findByText('Dati di fatturazione salvati: 1 fattura emessa.')).toBeInTheDocument();
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ fiscalCode: 'RSSMRA80A01H501U', isCompany: false, name: 'Cliente Demo' });
  });

  it("the server's field error shows under its field; a business gets its own labels", async () => {
    billingApi(() =>
      fail(400, 'Controlla i campi evidenziati.', null, undefined, {
        vatCode: 'La Partita IVA non è valida: la cifra di controllo non torna.',
      }),
    );
    const { user } = renderApp('/my/billing', { role: Role.User, tenantId: 1 });
    await user.click(await screen.findByRole('radio', { name: 'Azienda o professionista' }));
    await user.clear(screen.getByRole('textbox', { name: 'Ragione sociale' }));
    await user.type(screen.getByRole('textbox', { name: 'Ragione sociale' }), 'Demo Clienti Srl');
    await user.type(screen.getByRole('textbox', { name: 'Partita IVA' }), '01234567897');
    await user.click(screen.getByRole('button', { name: 'Salva dati di fatturazione' }));
    const vat = screen.getByRole('textbox', { name: 'Partita IVA' });
    await waitFor(() => expect(vat).toHaveAccessibleDescription(/cifra di controllo/));
  });
});
