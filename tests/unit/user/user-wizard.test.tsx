import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { validationMessages } from '../../../contract/validation/italian';
import { currentUrl, renderApp } from '../app/harness';
import { fakeGeographySelects, pickOption } from '../components/fixtures';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';

/** isEmailUnique answers `unique` (or fails with `status`); returns the e-mails asked about. */
function emailCheck(answer: boolean | { status: number }) {
  const asked: string[] = [];
  server.use(
    apiGet('user/isEmailUnique/:email', ({ params }) => {
      asked.push(decodeURIComponent(String(params.email)));
      return typeof answer === 'boolean' ? ok(answer) : fail(answer.status, 'Errore interno');
    }),
  );
  return asked;
}

function start() {
  fakeGeographySelects();
  const app = renderApp('/user-wizard', { role: Role.Admin, tenantId: 1 });
  return app;
}

const next = (user: UserEvent) => user.click(screen.getByRole('button', { name: 'Avanti' }));

/** The e-mail field, whose label carries the required marker. */
const emailInput = () => screen.getByRole('textbox', { name: 'Indirizzo email' });

async function stepHeading(name: string) {
  return screen.findByRole('heading', { level: 2, name });
}

async function passEmailStep(user: UserEvent, email = 'nuovo@example.it') {
  await user.type(emailInput(), email);
  await next(user);
  await stepHeading('Dati personali');
}

async function passPersonalStep(user: UserEvent) {
  await user.type(screen.getByRole('textbox', { name: 'Nome completo' }), 'Mario Rossi');
  await user.type(screen.getByRole('textbox', { name: 'Indirizzo PEC' }), 'mario@pec.it');
  await user.type(screen.getByRole('textbox', { name: 'Numero di telefono' }), '+39 333 1234567');
  await user.type(screen.getByRole('textbox', { name: 'Codice SDI' }), 'm5uxcr1');
  await user.type(screen.getByRole('textbox', { name: 'Partita IVA' }), '01234567897');
  await user.click(screen.getByRole('checkbox', { name: 'Azienda' }));
  await next(user);
  await stepHeading('Indirizzo di fatturazione');
}

async function passAddressStep(user: UserEvent) {
  await user.type(screen.getByRole('textbox', { name: 'Via' }), 'Via Roma 1');
  await user.type(screen.getByRole('textbox', { name: 'CAP' }), '20017');
  await pickOption(user, 'Regione', 'Lombardia');
  await pickOption(user, 'Provincia', 'Milano');
  await pickOption(user, 'Comune', 'Rho');
  await next(user);
  await stepHeading('Riepilogo');
}

describe('user wizard (spec §2, §5, §8)', () => {
  it('shows four steps with the current one marked, and starts on the e-mail', async () => {
    start();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Creazione Utente Wizard' }),
    ).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Avanzamento' })).getAllByRole('listitem');
    expect(steps).toHaveLength(4);
    expect(steps[0]).toHaveAttribute('aria-current', 'step');
    expect(steps[0]).toHaveTextContent('Passo 1 di 4: Email, passo attuale');
    expect(await stepHeading('Email')).toBeInTheDocument();
  });

  it('step 1: e-mail required, then well formed, before asking the server', async () => {
    const asked = emailCheck(true);
    const { user } = start();
    await stepHeading('Email');
    await next(user);
    expect(await screen.findByText(messages.wizard.emailRequired)).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    await user.type(emailInput(), 'mario@example');
    await next(user);
    expect(await screen.findByText(messages.wizard.emailInvalid)).toBeInTheDocument();
    expect(asked).toEqual([]);
    expect(screen.getByRole('heading', { level: 2, name: 'Email' })).toBeInTheDocument();
  });

  it('messages clear as the value becomes valid, and none appears on leaving a field', async () => {
    emailCheck(true);
    const { user } = start();
    await stepHeading('Email');
    await next(user);
    expect(await screen.findByText(messages.wizard.emailRequired)).toBeInTheDocument();
    // Typing a valid e-mail clears the message at once, without leaving the field.
    await user.type(emailInput(), 'nuovo@example.it');
    // The resolver validates asynchronously: the message goes in the render that follows.
    await waitFor(() => expect(screen.queryByText(messages.wizard.emailRequired)).not.toBeInTheDocument());
    expect(screen.queryByText(messages.wizard.emailInvalid)).not.toBeInTheDocument();
    expect(emailInput()).toHaveFocus();
    await next(user);
    await stepHeading('Dati personali');
    // Step 2: leaving the empty name shows nothing (the controls below stay where they are)…
    const name = screen.getByRole('textbox', { name: 'Nome completo' });
    await user.click(name);
    await user.click(screen.getByRole('checkbox', { name: 'Azienda' }));
    expect(screen.queryByText(messages.wizard.nameRequired)).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Azienda' })).toBeChecked();
    // …'Avanti' does, and typing the name clears it.
    await next(user);
    expect(await screen.findByText(messages.wizard.nameRequired)).toBeInTheDocument();
    await user.type(name, 'Mario Rossi');
    await waitFor(() => expect(screen.queryByText(messages.wizard.nameRequired)).not.toBeInTheDocument());
  });

  it('step 1: an e-mail already in the database stops the wizard', async () => {
    const asked = emailCheck(false);
    const { user } = start();
    await stepHeading('Email');
    await user.type(emailInput(), 'preso@example.it');
    await next(user);
    expect(await screen.findByText(messages.wizard.emailTaken)).toBeInTheDocument();
    expect(asked).toEqual(['preso@example.it']);
    expect(screen.getByRole('heading', { level: 2, name: 'Email' })).toBeInTheDocument();
  });

  it('step 1: a failed check says so and stays', async () => {
    emailCheck({ status: 500 });
    const { user } = start();
    await stepHeading('Email');
    await user.type(emailInput(), 'nuovo@example.it');
    await next(user);
    expect(await screen.findByText(messages.wizard.emailCheckFailed)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Email' })).toBeInTheDocument();
  });

  it('step 2: name required, Italian format checks, role Admin by default; Indietro keeps the values', async () => {
    emailCheck(true);
    const { user } = start();
    await stepHeading('Email');
    await passEmailStep(user);
    expect(screen.getByRole('combobox', { name: 'Ruolo utente' })).toHaveValue(String(Role.Admin));
    expect(screen.getByRole('checkbox', { name: 'Utente Attivo' })).toBeChecked();
    await user.type(screen.getByRole('textbox', { name: 'Partita IVA' }), '01234567890');
    await user.type(screen.getByRole('textbox', { name: 'Codice SDI' }), 'ABC');
    await next(user);
    expect(await screen.findByText(messages.wizard.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.vatInvalid)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.sdiInvalid)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Dati personali' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Indietro' }));
    await stepHeading('Email');
    expect(emailInput()).toHaveValue('nuovo@example.it');
  });

  it('step 3: street, ZIP and municipality required; the selects cascade', async () => {
    emailCheck(true);
    const { user } = start();
    await stepHeading('Email');
    await passEmailStep(user);
    await passPersonalStep(user);
    expect(await screen.findByRole('combobox', { name: 'Provincia' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Comune' })).toBeDisabled();
    await next(user);
    expect(await screen.findByText(messages.wizard.streetRequired)).toBeInTheDocument();
    expect(screen.getByText(validationMessages.zipRequired)).toBeInTheDocument();
    expect(screen.getByText(messages.wizard.municipalityRequired)).toBeInTheDocument();

    await pickOption(user, 'Regione', 'Lombardia');
    await pickOption(user, 'Provincia', 'Milano');
    await pickOption(user, 'Comune', 'Rho');
    // A new region clears province and municipality.
    await pickOption(user, 'Regione', 'Piemonte');
    await waitFor(() => expect(screen.queryByText('Milano')).not.toBeInTheDocument());
    expect(screen.queryByText('Rho')).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Comune' })).toBeDisabled();
  });

  it('step 4: summary, confirm → POST api/user/Create with the PascalCase payload, toast, /user', async () => {
    emailCheck(true);
    const bodies: unknown[] = [];
    server.use(
      apiPost('user/Create', async ({ request }) => {
        bodies.push(await request.json());
        return ok({ id: 9 });
      }),
      apiGet('user/getAll', () => ok({ items: [], totalCount: 0 })),
    );
    const { user, router } = start();
    await stepHeading('Email');
    await passEmailStep(user);
    await passPersonalStep(user);
    await passAddressStep(user);

    const personal = screen.getByRole('region', { name: 'Dati personali' });
    expect(within(personal).getByText('Mario Rossi')).toBeInTheDocument();
    expect(within(personal).getByText('01234567897')).toBeInTheDocument();
    const billing = screen.getByRole('region', { name: 'Indirizzo di fatturazione' });
    expect(await within(billing).findByText('Rho')).toBeInTheDocument();
    expect(await within(billing).findByText('Lombardia')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Account' })).getByText('Admin')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Conferma e crea utente' }));
    expect(await screen.findByText(messages.wizard.created)).toBeInTheDocument();
    await waitFor(() => expect(currentUrl(router)).toBe('/user'));
    expect(bodies).toEqual([
      {
        Name: 'Mario Rossi',
        Email: 'nuovo@example.it',
        Pec: 'mario@pec.it',
        IsCompany: true,
        IsActive: true,
        SDI: 'M5UXCR1',
        VATCode: '01234567897',
        Phone: '+39 333 1234567',
        Street: 'Via Roma 1',
        ZIP: '20017',
        Region: 3,
        Province: 15,
        Municipality: 200,
        Role: { Id: 2, Name: 'Admin' },
        RoleId: 2,
      },
    ]);
  });

  it('a failed creation shows its message and stays on the summary', async () => {
    emailCheck(true);
    server.use(apiPost('user/Create', () => fail(409, 'Esiste già un utente con questa email.')));
    const { user, router } = start();
    await stepHeading('Email');
    await passEmailStep(user);
    await passPersonalStep(user);
    await passAddressStep(user);
    await user.click(screen.getByRole('button', { name: 'Conferma e crea utente' }));
    expect(await screen.findByText(messages.wizard.createFailed)).toBeInTheDocument();
    expect(
      screen.getByText('Esiste già un utente con questa email.').closest('[role="alert"]'),
    ).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/user-wizard');
    expect(screen.getByRole('button', { name: 'Conferma e crea utente' })).toBeEnabled();
  });
});
