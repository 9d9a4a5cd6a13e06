/**
 * The 'Coupon' screen (issue 30, Admin): the list's texts (sconto, durata, utilizzi, stato), the
 * form's Italian errors (the contract's rules before sending, the server's on their fields) and the
 * delete with its confirmation, against a fake server (MSW).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { couponMessages as m, messages } from '../../../contract/messages';
import type { Coupon } from '../../../contract/schemas/coupon';
import { renderApp } from '../app/harness';
import { fakeEntityServer } from '../components/fixtures';
import { apiDelete, apiPost, fail, server } from '../msw/server';

const coupon = (over: Partial<Coupon>): Coupon => ({
  id: 1,
  code: 'BENVENUTO10',
  percentOff: 10,
  amountOff: null,
  duration: 'once',
  durationPeriods: null,
  planIds: [],
  expiresAt: null,
  maxRedemptions: 10,
  timesRedeemed: 3,
  active: true,
  discountLabel: '10%',
  durationLabel: 'Una volta',
  usageLabel: '3 / 10',
  createdAt: '2026-03-01T10:00:00.000Z',
  ...over,
});

const rows = [
  coupon({}),
  coupon({
    id: 2,
    code: 'TREMESI',
    percentOff: null,
    amountOff: 5,
    duration: 'repeating',
    durationPeriods: 3,
    maxRedemptions: null,
    timesRedeemed: 0,
    discountLabel: '5,00 €',
    durationLabel: 'Per 3 periodi',
    usageLabel: '0',
    expiresAt: '2026-02-28',
    active: false,
  }),
];

const rowOf = (code: string) => screen.getByRole('cell', { name: code }).closest('tr') as HTMLElement;

describe("'Coupon' list", () => {
  it('shows code, discount, duration, uses, expiry and state', async () => {
    fakeEntityServer<Coupon>(
      'coupon',
      rows.map((r) => structuredClone(r)),
    );
    renderApp('/coupon', { role: Role.Admin, tenantId: 1 });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Coupon' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await screen.findByRole('cell', { name: 'BENVENUTO10' });
    const first = within(rowOf('BENVENUTO10'));
    expect(first.getByRole('cell', { name: '10%' })).toBeInTheDocument();
    expect(first.getByRole('cell', { name: 'Una volta' })).toBeInTheDocument();
    expect(first.getByRole('cell', { name: '3 / 10' })).toBeInTheDocument();
    const second = within(rowOf('TREMESI'));
    expect(second.getByRole('cell', { name: '5,00 €' })).toBeInTheDocument();
    expect(second.getByRole('cell', { name: 'Per 3 periodi' })).toBeInTheDocument();
    expect(second.getByRole('cell', { name: '28/02/2026' })).toBeInTheDocument();
    expect(first.getByText('Sì')).toBeInTheDocument();
    expect(second.getByText('No')).toBeInTheDocument();
  });

  it('deletes after the confirmation; a used coupon is refused with the server’s reason', async () => {
    const { calls } = fakeEntityServer<Coupon>(
      'coupon',
      rows.map((r) => structuredClone(r)),
    );
    const { user } = renderApp('/coupon', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('cell', { name: 'TREMESI' }, { timeout: 10_000 });
    await user.click(within(rowOf('TREMESI')).getByRole('button', { name: 'Elimina' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sì, elimina!' }));
    await waitFor(() => expect(calls.deleted).toEqual(['2']));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'TREMESI' })).not.toBeInTheDocument());

    server.use(apiDelete('coupon/Delete/:id', () => fail(409, m.deleteRedeemed)));
    await user.click(within(rowOf('BENVENUTO10')).getByRole('button', { name: 'Elimina' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sì, elimina!' }));
    expect(await screen.findByText(messages.user.deleteError(m.deleteRedeemed))).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'BENVENUTO10' })).toBeInTheDocument();
  });
});

describe("'Coupon' form", () => {
  it('says in Italian what is missing before sending anything', async () => {
    const { calls } = fakeEntityServer<Coupon>('coupon', []);
    const { user } = renderApp('/coupon/new', { role: Role.Admin, tenantId: 1 });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Crea Nuovo Coupon' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Codice' }), 'x y');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Durata' }), 'repeating');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    expect(await screen.findByText(m.codeInvalid)).toBeInTheDocument();
    expect(screen.getByText(m.discountRequired)).toBeInTheDocument();
    expect(screen.getByText(m.periodsRequired)).toBeInTheDocument();
    expect(calls.created).toEqual([]);
  });

  it('sends a valid coupon; a code in use comes back on the Codice field', async () => {
    const { calls } = fakeEntityServer<Coupon>('coupon', []);
    const { user } = renderApp('/coupon/new', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('heading', { level: 1, name: 'Crea Nuovo Coupon' }, { timeout: 10_000 });
    await user.type(screen.getByRole('textbox', { name: 'Codice' }), 'estate');
    await user.type(screen.getByRole('textbox', { name: 'Sconto percentuale' }), '12,5');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Durata' }), 'repeating');
    await user.type(
      screen.getByRole('textbox', { name: 'Numero di periodi (solo per «Per un numero di periodi»)' }),
      '3',
    );
    server.use(apiPost('coupon/Create', () => fail(409, m.codeTaken, null, [`code: ${m.codeTaken}`])));
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    const code = screen.getByRole('textbox', { name: 'Codice' });
    await waitFor(() => expect(code).toHaveAccessibleDescription(m.codeTaken));
    expect(calls.created).toEqual([]);

    fakeEntityServer<Coupon>('coupon', []);
    const { calls: again } = fakeEntityServer<Coupon>('coupon', []);
    await user.clear(code);
    await user.type(code, 'ESTATE25');
    await user.click(screen.getByRole('button', { name: 'Crea' }));
    await waitFor(() => expect(again.created).toHaveLength(1));
    expect(again.created[0]).toMatchObject({
      code: 'ESTATE25',
      percentOff: 12.5,
      duration: 'repeating',
      durationPeriods: 3,
    });
  });
});

describe("'Piani del coupon'", () => {
  it('limits a saved coupon to the chosen plans, sending its stored figures with planIds', async () => {
    fakeEntityServer('plan', [
      { id: 7, name: 'Pro' },
      { id: 8, name: 'Basic' },
    ]);
    const { calls } = fakeEntityServer<Coupon>('coupon', [coupon({ planIds: [8] })]);
    const { user } = renderApp('/coupon/1', { role: Role.Admin, tenantId: 1 });
    const section = await screen.findByRole('region', { name: 'Piani del coupon' }, { timeout: 10_000 });
    const pro = await within(section).findByRole('checkbox', { name: 'Pro' });
    expect(within(section).getByRole('checkbox', { name: 'Basic' })).toBeChecked();
    expect(pro).not.toBeChecked();
    await user.click(pro);
    await user.click(within(section).getByRole('button', { name: 'Salva piani' }));
    await waitFor(() => expect(calls.updated).toHaveLength(1));
    expect(calls.updated[0]).toEqual({
      id: 1,
      code: 'BENVENUTO10',
      percentOff: 10,
      amountOff: null,
      duration: 'once',
      durationPeriods: null,
      expiresAt: null,
      maxRedemptions: 10,
      planIds: [8, 7],
    });
    expect(await screen.findByText('Piani del coupon salvati.')).toBeInTheDocument();
  });

  it('a new coupon says its plans come after the first save', async () => {
    fakeEntityServer<Coupon>('coupon', []);
    renderApp('/coupon/new', { role: Role.Admin, tenantId: 1 });
    expect(
      await screen.findByText(
        'I piani si scelgono dopo aver creato il coupon: senza piani scelti vale per tutti.',
        undefined,
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
  });
});
