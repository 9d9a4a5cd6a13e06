import { Role, type RoleId } from '../../../contract/enums';

/** The sidebar of each role, as the spec's route table (§2) lists it, in order. */
export const sidebarEntriesByRole: [RoleId, string[]][] = [
  [Role.User, ['Area clienti', 'Le mie fatture', 'Dati di fatturazione', 'I miei dati']],
  [
    Role.Admin,
    [
      'Lista Tenants',
      'Lista Utenti',
      'Gestisci Sottoscrizioni',
      'Crea Sottoscrizione',
      'Fatture',
      'Incassi in sospeso',
      'Configura PayPal',
      'Gestisci piani di abbonamento',
      'Coupon',
      'Chiavi API',
      'Webhook',
    ],
  ],
  [
    Role.SuperAdmin,
    [
      'Lista Tenants',
      'Lista Utenti',
      'Gestisci Sottoscrizioni',
      'Crea Sottoscrizione',
      'Fatture',
      'Incassi in sospeso',
      'Configura PayPal',
      'Gestisci piani di abbonamento',
      'Coupon',
      'Chiavi API',
      'Webhook',
      'Status aggiornamento subscription',
    ],
  ],
];
