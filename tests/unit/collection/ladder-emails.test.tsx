/**
 * 'Solleciti' (issue 29), the ladder's e-mails: each card's Oggetto and Messaggio (the defaults
 * shown, the tenant's texts loaded), chips inserting a placeholder at the cursor, an unknown
 * placeholder refused under its field with nothing sent, 'Ripristina il testo predefinito', the
 * server's preview asked with the text and the method, and the texts saved with the one 'Salva'.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import {
  DEFAULT_FINAL_EMAIL,
  defaultReminderEmail,
  type CollectionSettings,
} from '../../../contract/schemas/collection';
import { renderApp } from '../app/harness';
import { apiPut, fail, server } from '../msw/server';
import { collectionServer, defaultLadder, overdueList } from './collection-fixtures';

const saved: CollectionSettings = {
  ...defaultLadder,
  emails: {
    steps: [
      null,
      { subject: 'Promemoria per {piano}', body: 'Gentile {cliente},\nti aspettiamo.' },
      null,
      null,
    ],
    final: null,
  },
};

async function openCard(user: ReturnType<typeof renderApp>['user'], title: RegExp) {
  await screen.findByRole('heading', { level: 1, name: 'Solleciti' });
  const emails = await screen.findByRole('region', { name: 'Le e-mail dei solleciti' });
  const toggle = within(emails).getByRole('button', { name: title });
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return toggle.closest('li')!;
}

describe('Solleciti: the e-mails', () => {
  it('shows the default texts and the tenant’s own; the preview is the server’s, for a transfer or a card', async () => {
    const calls = collectionServer(overdueList, saved);
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    const first = await openCard(user, /Sollecito 1 · giorno 0/);
    expect(within(first).getByLabelText('Oggetto')).toHaveValue(defaultReminderEmail(0).subject);
    expect(within(first).getByLabelText('Messaggio')).toHaveValue(defaultReminderEmail(0).body);
    expect(first).toHaveTextContent(/aggiunge sempre come pagare/);
    // The default is asked as empty texts (the server words it for the day), with the day.
    await waitFor(() => expect(calls.previews.length).toBeGreaterThan(0));
    expect(calls.previews.at(-1)).toEqual({
      step: 0,
      subject: '',
      body: '',
      method: 'bankTransfer',
      day: 0,
      graceDays: 14,
    });
    const frame = await within(first).findByTitle('Anteprima dell’e-mail: Sollecito 1 · giorno 0');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('Effettua il bonifico');
    await user.click(within(first).getByRole('button', { name: 'Carta' }));
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('Paga ora'));
    expect(calls.previews.at(-1)).toMatchObject({ step: 0, method: 'card' });

    const second = await openCard(user, /Sollecito 2 · giorno 3/);
    expect(second).toHaveTextContent('Testo personalizzato');
    expect(within(second).getByLabelText('Oggetto')).toHaveValue('Promemoria per {piano}');
    const final = await openCard(user, /Azione finale · giorno 21/);
    expect(within(final).getByLabelText('Oggetto')).toHaveValue(DEFAULT_FINAL_EMAIL.subject);
    expect(within(final).queryByRole('button', { name: 'Carta' })).not.toBeInTheDocument();
  });

  it('typing asks the preview again with the text; a chip inserts its placeholder at the cursor', async () => {
    const calls = collectionServer(overdueList, saved);
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    const card = await openCard(user, /Sollecito 2 · giorno 3/);
    const subject = within(card).getByLabelText('Oggetto');
    await user.clear(subject);
    await user.type(subject, 'Ciao  scaduto');
    // The cursor after 'Ciao ': the chip goes there.
    (subject as HTMLInputElement).setSelectionRange(5, 5);
    await user.click(within(card).getByRole('button', { name: 'Inserisci {cliente}' }));
    expect(subject).toHaveValue('Ciao {cliente} scaduto');
    expect(subject).toHaveFocus();
    // Without a field chosen before, the message gets it at its end.
    const body = within(card).getByLabelText('Messaggio');
    await user.click(body);
    await user.keyboard('{Control>}{End}{/Control}');
    await user.click(within(card).getByRole('button', { name: 'Inserisci {importo}' }));
    expect(body).toHaveValue('Gentile {cliente},\nti aspettiamo.{importo}');
    await waitFor(() =>
      expect(calls.previews.at(-1)).toEqual({
        step: 1,
        subject: 'Ciao {cliente} scaduto',
        body: 'Gentile {cliente},\nti aspettiamo.{importo}',
        method: 'bankTransfer',
        day: 3,
        graceDays: 14,
      }),
    );
    await waitFor(() =>
      expect(within(card).getByTestId('preview-subject')).toHaveTextContent('Ciao {cliente} scaduto'),
    );
  });

  it('an unknown placeholder: the Italian error under the field, no preview, nothing saved', async () => {
    const calls = collectionServer(overdueList, saved);
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    const card = await openCard(user, /Sollecito 2 · giorno 3/);
    const body = within(card).getByLabelText('Messaggio');
    await user.type(body, ' {{xyz}');
    expect(
      await within(card).findByText('Correggi gli errori del testo per vedere l’anteprima.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    expect(await within(card).findByText('Segnaposto sconosciuto: {xyz}')).toBeInTheDocument();
    expect(body).toHaveAttribute('aria-invalid', 'true');
    expect(calls.saved).toHaveLength(0);
  });

  it('Ripristina il testo predefinito puts the default back; Salva sends the texts (defaults as null)', async () => {
    const calls = collectionServer(overdueList, saved);
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    const second = await openCard(user, /Sollecito 2 · giorno 3/);
    await user.click(within(second).getByRole('button', { name: 'Ripristina il testo predefinito' }));
    expect(within(second).getByLabelText('Oggetto')).toHaveValue(defaultReminderEmail(3).subject);
    expect(within(second).getByLabelText('Messaggio')).toHaveValue(defaultReminderEmail(3).body);
    expect(second).toHaveTextContent('Testo predefinito');
    const final = await openCard(user, /Azione finale/);
    const subject = within(final).getByLabelText('Oggetto');
    await user.clear(subject);
    await user.type(subject, 'Abbonamento sospeso: {{piano}');
    await waitFor(() =>
      expect(calls.previews.at(-1)).toMatchObject({ step: 'final', subject: 'Abbonamento sospeso: {piano}' }),
    );
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.saved[0]).toEqual({
      ...defaultLadder,
      emails: {
        steps: [null, null, null, null],
        final: { subject: 'Abbonamento sospeso: {piano}', body: DEFAULT_FINAL_EMAIL.body },
      },
    });
  });

  it('a step left at the default follows its day; removing a step takes its text away', async () => {
    const calls = collectionServer(overdueList, saved);
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    const first = await openCard(user, /Sollecito 1 · giorno 0/);
    const day = screen.getByLabelText('Sollecito 1: giorno');
    await user.clear(day);
    await user.type(day, '2');
    await waitFor(() =>
      expect(within(first).getByLabelText('Messaggio')).toHaveValue(defaultReminderEmail(2).body),
    );
    await user.click(screen.getByRole('button', { name: 'Rimuovi sollecito 2' }));
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.saved[0]).toEqual({
      steps: [2, 7, 14],
      graceDays: 14,
      finalDay: 21,
      emails: { steps: [null, null, null], final: null },
    });
  });

  it('a server field error on a text shows under it', async () => {
    collectionServer(overdueList, saved);
    server.use(
      apiPut('collection/settings', () =>
        fail(400, 'Dati non validi', null, [
          'emails.steps.1.body: Il messaggio può avere al massimo 2000 caratteri.',
        ]),
      ),
    );
    const { user } = renderApp('/collection/settings', { role: Role.Admin, tenantId: 1 });
    await user.click(await screen.findByRole('button', { name: 'Salva' }));
    expect(await screen.findByText('Il messaggio può avere al massimo 2000 caratteri.')).toBeInTheDocument();
    // Its card opened to show it.
    expect(screen.getByRole('button', { name: /Sollecito 2 · giorno 3/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });
});
