import type { User } from '../../../contract/schemas/user';
import { Role, roleNameById } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { userList } from '../../../contract/lists/user';
import { defineResource, type ChoiceOption, type FieldDef } from '../../lib/resource';

/** The three roles, by id (spec §3), named as the server names them (`roleName`). */
export const roleOptions: readonly ChoiceOption[] = ([Role.SuperAdmin, Role.Admin, Role.User] as const).map(
  (id) => ({
    value: id,
    label: roleNameById[id],
  }),
);

export const userTabs = { data: 'Dati utente', billing: 'Indirizzo di fatturazione' } as const;

/**
 * The billing address fields (spec §2 /user/{id}, §4 'Address selects'): changing the region
 * clears province and municipality, changing the province clears the municipality; a select is
 * disabled while its parent is empty. The form sends them flat (contract: `street`, `zip`,
 * `region`, `province`, `municipality`); the server answers them nested in `billingAddress`.
 */
export const billingAddressFields: FieldDef[] = [
  { kind: 'text', key: 'street', label: 'Via', group: userTabs.billing, from: 'billingAddress.street' },
  { kind: 'text', key: 'zip', label: 'CAP', group: userTabs.billing, from: 'billingAddress.zip' },
  {
    kind: 'select',
    key: 'region',
    label: 'Regione',
    group: userTabs.billing,
    from: 'billingAddress.regionId',
    source: { entity: 'region', pageSize: 10 },
  },
  {
    kind: 'select',
    key: 'province',
    label: 'Provincia',
    group: userTabs.billing,
    from: 'billingAddress.provinceId',
    source: { entity: 'province', pageSize: 20 },
    dependsOn: { field: 'region', filterKey: 'regionId' },
  },
  {
    kind: 'select',
    key: 'municipality',
    label: 'Comune',
    group: userTabs.billing,
    from: 'billingAddress.municipalityId',
    source: { entity: 'municipality', pageSize: 20 },
    dependsOn: { field: 'province', filterKey: 'provinceId' },
  },
];

/**
 * Users. New users are created by the wizard (/user-wizard); /user/{id} edits one in two tabs.
 * Spec §5: the edit form has no client-side validation (the server checks; its errors are shown).
 */
export const userResource = defineResource<User>({
  name: 'user',
  label: 'Utente',
  routes: {
    access: 'guarded',
    list: { label: 'Lista Utenti', sidebar: true },
    edit: { label: 'Dettaglio Utente' },
  },
  titles: { list: 'Lista Utenti' },
  createPath: '/user-wizard',
  // Saving a customer's data issues the invoices waiting for them (server: customer.billingDataChanged).
  refreshes: ['invoice'],
  // Spec §2: the user list's nine columns (contract/lists/user.ts).
  columns: userList.columns,
  filters: userList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome completo', group: userTabs.data },
    { kind: 'text', key: 'email', label: 'Indirizzo email', inputType: 'email', group: userTabs.data },
    { kind: 'text', key: 'pec', label: 'Indirizzo PEC', inputType: 'email', group: userTabs.data },
    { kind: 'text', key: 'phone', label: 'Numero di telefono', inputType: 'tel', group: userTabs.data },
    { kind: 'text', key: 'sdi', label: 'Codice SDI', group: userTabs.data },
    {
      kind: 'text',
      key: 'vatCode',
      label: 'Partita IVA',
      group: userTabs.data,
      // Italian 11 digits, or a foreign EU number with its country prefix.
      placeholder: '01234567897 oppure DE123456789',
    },
    { kind: 'text', key: 'fiscalCode', label: 'Codice fiscale', group: userTabs.data },
    {
      kind: 'text',
      key: 'paOfficeCode',
      label: 'Codice univoco ufficio (solo pubblica amministrazione)',
      group: userTabs.data,
    },
    { kind: 'text', key: 'cig', label: 'CIG (solo pubblica amministrazione)', group: userTabs.data },
    { kind: 'choice', key: 'roleId', label: 'Ruolo utente', options: roleOptions, group: userTabs.data },
    { kind: 'checkbox', key: 'isCompany', label: 'Azienda', group: userTabs.data },
    {
      kind: 'checkbox',
      key: 'publicAdministration',
      label: 'Pubblica amministrazione (split payment)',
      group: userTabs.data,
    },
    {
      kind: 'checkbox',
      key: 'withholdingAgent',
      label: 'Sostituto d’imposta (trattiene la ritenuta d’acconto)',
      group: userTabs.data,
    },
    { kind: 'checkbox', key: 'isActive', label: 'Utente Attivo', group: userTabs.data },
    ...billingAddressFields,
    {
      kind: 'text',
      key: 'countryCode',
      label: 'Paese (IT, DE, FR…)',
      group: userTabs.billing,
      defaultValue: 'IT',
    },
    { kind: 'text', key: 'billingCity', label: 'Città (clienti esteri)', group: userTabs.billing },
  ],
  messages: {
    created: messages.user.created,
    updated: messages.user.updated,
    deleteFailed: messages.user.deleteError,
  },
});
