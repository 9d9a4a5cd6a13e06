/** /apikey 'Chiavi API': the tenant's rate limits, edited by a SuperAdmin (validated, Italian field errors), read-only for an Admin. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { renderApp } from '../app/harness';
import { apiGet, apiPut, fail, ok, recordRequests, server } from '../msw/server';

const limits = { perKeyPerMinute: 600, perTenantPerMinute: 12000 };
const screenCalls = [
  apiGet('apikey/list', () => ok([])),
  apiGet('apikey/settings', () => ok(limits)),
  apiGet('tenant/getAll', () => ok({ items: [{ id: 1, name: 'Demo Srl' }], totalCount: 1 })),
];

describe('/apikey rate limits', () => {
  it('shows an Admin the limits read-only, with nothing to edit', async () => {
    const calls = recordRequests();
    server.use(...screenCalls);
    renderApp('/apikey', { role: Role.Admin, tenantId: 1 });
    const card = await screen.findByRole('region', { name: 'Limiti di chiamate' });
    const values = within(card).getByTestId('limits-read-only');
    expect(values).toHaveTextContent('Per chiave600 al minuto');
    expect(values).toHaveTextContent('Per tutto il tenant12.000 al minuto');
    expect(within(card).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Salva limiti' })).not.toBeInTheDocument();
    expect(within(card).getByText('Solo un SuperAdmin può cambiare i limiti.')).toBeInTheDocument();
    expect(calls.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('lets a SuperAdmin edit them: Italian field errors before any call, the server’s own errors on their fields, then saved', async () => {
    const bodies: unknown[] = [];
    let answer: 'refuse' | 'save' = 'refuse';
    server.use(
      ...screenCalls,
      apiPut('apikey/settings', async ({ request }) => {
        const body = (await request.json()) as typeof limits;
        bodies.push(body);
        if (answer === 'refuse')
          return fail(400, 'Dati non validi.', null, [
            'perTenantPerMinute: Inserisci un numero intero da 1 a 1.000.000.',
          ]);
        return ok(body, 'Limiti salvati.');
      }),
    );
    const { user } = renderApp('/apikey', { role: Role.SuperAdmin, tenantId: 1 });
    const perKey = await screen.findByLabelText('Per chiave');
    const perTenant = screen.getByLabelText('Per tutto il tenant');
    expect(perKey).toHaveValue('600');
    expect(perTenant).toHaveValue('12000');
    const saveButton = screen.getByRole('button', { name: 'Salva limiti' });

    await user.clear(perKey);
    await user.type(perKey, '0');
    await user.clear(perTenant);
    await user.type(perTenant, 'tanti');
    await user.click(saveButton);
    expect(await screen.findByText('Inserisci un numero intero da 1 a 100.000.')).toBeInTheDocument();
    expect(screen.getByText('Inserisci un numero intero da 1 a 1.000.000.')).toBeInTheDocument();
    expect(perKey).toHaveAttribute('aria-invalid', 'true');
    expect(perTenant).toHaveAttribute('aria-invalid', 'true');

    await user.clear(perKey);
    await user.type(perKey, '5000');
    await user.clear(perTenant);
    await user.type(perTenant, '2.000');
    await user.click(saveButton);
    expect(
      await screen.findByText('Il limite per chiave non può superare quello del tenant.'),
    ).toBeInTheDocument();
    expect(perTenant).not.toHaveAttribute('aria-invalid');
    expect(bodies).toEqual([]);

    await user.clear(perKey);
    await user.type(perKey, '1.500');
    await user.click(saveButton);
    expect(await screen.findByText('Inserisci un numero intero da 1 a 1.000.000.')).toBeInTheDocument();
    expect(perTenant).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toEqual([{ perKeyPerMinute: 1500, perTenantPerMinute: 2000 }]);

    answer = 'save';
    await user.click(saveButton);
    expect(await screen.findByText('Limiti salvati.')).toBeInTheDocument();
    await waitFor(() => expect(perTenant).not.toHaveAttribute('aria-invalid'));
    expect(bodies).toHaveLength(2);
    expect(perKey).toHaveValue('1500');
    expect(perTenant).toHaveValue('2000');
  });
});
