import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { ladderMessages } from '../../../contract/schemas/collection';
import { renderApp } from '../app/harness';
import { collectionServer, defaultLadder, overdueList } from './collection-fixtures';

async function form() {
  await screen.findByRole('heading', { level: 1, name: 'Solleciti' });
  return screen.findByRole('group', { name: 'Giorni dei solleciti' });
}

const stepBox = (i: number) => screen.getByLabelText(`Sollecito ${i}: giorno`);

describe('Solleciti (/collection/settings, Admin)', () => {
  it('loads the ladder and previews the timeline and the e-mails', async () => {
    collectionServer();
    renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    await form();
    expect(stepBox(1)).toHaveValue(0);
    expect(stepBox(4)).toHaveValue(14);
    expect(screen.getByLabelText(/Fine della tolleranza/)).toHaveValue(14);
    expect(screen.getByLabelText(/Azione finale/)).toHaveValue(21);

    const timeline = screen.getByRole('list', { name: 'Sequenza dei solleciti' });
    const items = within(timeline)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toContain('Giorno 0');
    expect(items[0]).toContain('Scadenza del pagamento');
    expect(items.some((t) => t?.includes('Giorno 7') && t.includes('Sollecito 3 via e-mail'))).toBe(true);
    expect(screen.getByText('Accesso mantenuto fino al giorno 14')).toBeInTheDocument();
    expect(screen.getByText('Abbonamento sospeso il giorno 21')).toBeInTheDocument();

    // One collapsed card per e-mail, below the days.
    const emails = screen.getByRole('region', { name: 'Le e-mail dei solleciti' });
    expect(
      within(emails)
        .getAllByRole('button', { expanded: false })
        .map((b) => b.textContent),
    ).toEqual([
      expect.stringContaining('Sollecito 1 · giorno 0'),
      expect.stringContaining('Sollecito 2 · giorno 3'),
      expect.stringContaining('Sollecito 3 · giorno 7'),
      expect.stringContaining('Sollecito 4 · giorno 14'),
      expect.stringContaining('Azione finale · giorno 21'),
    ]);
  });

  it('the preview follows the form as it is typed', async () => {
    collectionServer();
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    await form();
    const final = screen.getByLabelText(/Azione finale/);
    await user.clear(final);
    await user.type(final, '30');
    expect(await screen.findByText('Abbonamento sospeso il giorno 30')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Aggiungi sollecito' }));
    expect(stepBox(5)).toHaveValue(21);
    expect(screen.getByText('Sollecito 5 via e-mail')).toBeInTheDocument();
  });

  it('days out of order: the Italian error on the field, nothing sent', async () => {
    const calls = collectionServer();
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    const steps = await form();
    await user.clear(stepBox(2));
    await user.type(stepBox(2), '9');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    expect(await within(steps).findByText(ladderMessages.stepsOrder)).toBeInTheDocument();
    expect(stepBox(2)).toHaveAttribute('aria-invalid', 'true');
    expect(calls.saved).toHaveLength(0);
  });

  it('final day not after the last reminder, grace past the final day: each field says why', async () => {
    const calls = collectionServer();
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    await form();
    const final = screen.getByLabelText(/Azione finale/);
    await user.clear(final);
    await user.type(final, '10');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    expect(await screen.findByText(ladderMessages.finalAfterSteps)).toBeInTheDocument();
    expect(screen.getByText(ladderMessages.graceRange)).toBeInTheDocument();
    expect(final).toHaveAttribute('aria-invalid', 'true');
    expect(calls.saved).toHaveLength(0);
  });

  it('an empty day box reads as out of range', async () => {
    const calls = collectionServer();
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    await form();
    await user.clear(stepBox(3));
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    expect(await screen.findByText(ladderMessages.stepRange)).toBeInTheDocument();
    expect(calls.saved).toHaveLength(0);
  });

  it('a valid ladder is PUT as the contract’s shape, and the toast says so', async () => {
    const calls = collectionServer();
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    await form();
    await user.click(screen.getByRole('button', { name: 'Rimuovi sollecito 4' }));
    await user.click(screen.getByRole('button', { name: 'Aggiungi sollecito' }));
    await user.clear(stepBox(4));
    await user.type(stepBox(4), '10');
    const grace = screen.getByLabelText(/Fine della tolleranza/);
    await user.clear(grace);
    await user.type(grace, '12');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.saved[0]).toEqual({
      steps: [0, 3, 7, 10],
      graceDays: 12,
      finalDay: 21,
      emails: { steps: [null, null, null, null], final: null },
    });
    expect(await screen.findByText('Solleciti salvati.')).toBeInTheDocument();
  });

  it('Ripristina i valori predefiniti puts the default ladder back', async () => {
    collectionServer(overdueList, { steps: [1, 5], graceDays: 6, finalDay: 9 });
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    await form();
    expect(screen.queryByLabelText('Sollecito 3: giorno')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ripristina i valori predefiniti' }));
    expect(stepBox(4)).toHaveValue(defaultLadder.steps[3]);
    expect(screen.getByLabelText(/Azione finale/)).toHaveValue(21);
  });
});
