import { SDI_PEC_DEFAULT, type Tenant } from '../../../contract/schemas/tenant';
import { pensionFundNames, pensionFundTypes } from '../../../contract/invoice/fiscal-document';
import { messages } from '../../../contract/messages';
import { taxRegimes, type TaxRegime } from '../../../contract/validation/italian';
import { tenantList } from '../../../contract/lists/tenant';
import { defineResource, type ChoiceOption, type FieldDef } from '../../lib/resource';

export const tenantTabs = {
  data: 'Dati del tenant',
  billing: 'Dati di fatturazione',
  pec: 'Invio PEC',
} as const;

/** FatturaPA RegimeFiscale names (RF01 … RF19), shown as 'RF01 – Ordinario'. */
const taxRegimeNames: Record<TaxRegime, string> = {
  RF01: 'Ordinario',
  RF02: 'Contribuenti minimi',
  RF04: 'Agricoltura e attività connesse e pesca',
  RF05: 'Vendita sali e tabacchi',
  RF06: 'Commercio fiammiferi',
  RF07: 'Editoria',
  RF08: 'Gestione servizi telefonia pubblica',
  RF09: 'Rivendita documenti di trasporto pubblico e di sosta',
  RF10: 'Intrattenimenti, giochi e altre attività',
  RF11: 'Agenzie viaggi e turismo',
  RF12: 'Agriturismo',
  RF13: 'Vendite a domicilio',
  RF14: 'Rivendita beni usati, oggetti d’arte, d’antiquariato o da collezione',
  RF15: 'Agenzie di vendite all’asta di oggetti d’arte, antiquariato o da collezione',
  RF16: 'IVA per cassa P.A.',
  RF17: 'IVA per cassa',
  RF18: 'Altro',
  RF19: 'Forfettario',
};

export const taxRegimeOptions: readonly ChoiceOption[] = taxRegimes.map((code) => ({
  value: code,
  label: `${code} – ${taxRegimeNames[code]}`,
}));

const billing = tenantTabs.billing;

/** TipoCassa of FatturaPA (TC01–TC21 the professional funds, TC22 the 4 % rivalsa INPS). */
const pensionFundOptions: readonly ChoiceOption[] = pensionFundTypes.map((code) => ({
  value: code,
  label: `${code} – ${pensionFundNames[code]}`,
}));
const withholdingOptions: readonly ChoiceOption[] = [
  { value: 'RT01', label: 'RT01 – Persona fisica (20 %)' },
  { value: 'RT02', label: 'RT02 – Persona giuridica (20 %)' },
];

/**
 * The seller's billing profile (contract TenantBillingProfile): what bank-transfer instructions
 * (the IBAN) and invoices need. Region, province and municipality cascade as in the user form.
 */
export const tenantBillingFields: FieldDef[] = [
  { kind: 'text', key: 'legalName', label: 'Ragione sociale', group: billing },
  { kind: 'text', key: 'vatCode', label: 'Partita IVA', group: billing },
  { kind: 'text', key: 'fiscalCode', label: 'Codice fiscale', group: billing },
  {
    kind: 'choice',
    key: 'taxRegime',
    label: 'Regime fiscale',
    options: taxRegimeOptions,
    defaultValue: 'RF01',
    group: billing,
  },
  {
    kind: 'choice',
    key: 'pensionFundType',
    label: 'Cassa previdenziale o rivalsa INPS',
    options: pensionFundOptions,
    placeholder: 'Nessuna',
    from: 'pensionFund.type',
    to: 'pensionFund.type',
    group: billing,
  },
  {
    kind: 'number',
    key: 'pensionFundRate',
    label: 'Aliquota della cassa (%)',
    step: 0.01,
    min: 0,
    max: 100,
    suffix: '%',
    from: 'pensionFund.rate',
    to: 'pensionFund.rate',
    group: billing,
  },
  {
    kind: 'choice',
    key: 'withholdingTax',
    label: 'Ritenuta d’acconto',
    options: withholdingOptions,
    placeholder: 'Non soggetto',
    group: billing,
  },
  {
    kind: 'checkbox',
    key: 'stampDutyToCustomer',
    label: 'Addebita al cliente il bollo di 2,00 € (fatture senza IVA oltre 77,47 €)',
    group: billing,
  },
  {
    kind: 'checkbox',
    key: 'ossRegistered',
    label: 'Regime OSS: ai privati UE l’IVA del loro Stato (servizi elettronici oltre 10.000 € l’anno)',
    group: billing,
  },
  { kind: 'text', key: 'street', label: 'Indirizzo (via)', group: billing },
  { kind: 'text', key: 'zip', label: 'CAP', group: billing },
  {
    kind: 'select',
    key: 'regionId',
    label: 'Regione',
    source: { entity: 'region', pageSize: 10 },
    group: billing,
  },
  {
    kind: 'select',
    key: 'provinceId',
    label: 'Provincia',
    source: { entity: 'province', pageSize: 20 },
    dependsOn: { field: 'regionId', filterKey: 'regionId' },
    group: billing,
  },
  {
    kind: 'select',
    key: 'municipalityId',
    label: 'Comune',
    source: { entity: 'municipality', pageSize: 20 },
    dependsOn: { field: 'provinceId', filterKey: 'provinceId' },
    group: billing,
  },
  { kind: 'text', key: 'pec', label: 'PEC', inputType: 'email', group: billing },
  { kind: 'text', key: 'iban', label: 'IBAN', group: billing },
  { kind: 'text', key: 'accountHolder', label: 'Intestatario del conto', group: billing },
];

const pec = tenantTabs.pec;

/**
 * Sending invoices to the SdI through the tenant's own PEC mailbox (optional; without it the
 * invoices are downloaded and sent by the intermediary). The sender is the billing tab's PEC; the
 * password is write-only.
 */
export const tenantPecFields: FieldDef[] = [
  {
    kind: 'text',
    key: 'pecSmtpHost',
    label: 'Server SMTP della PEC',
    placeholder: 'smtps.pec.aruba.it',
    group: pec,
  },
  { kind: 'number', key: 'pecSmtpPort', label: 'Porta SMTP', step: 1, min: 1, max: 65535, group: pec },
  { kind: 'checkbox', key: 'pecSmtpSecure', label: 'Connessione SSL/TLS', defaultValue: true, group: pec },
  { kind: 'text', key: 'pecSmtpUser', label: 'Utente SMTP', group: pec },
  {
    kind: 'text',
    key: 'pecSmtpPassword',
    label: 'Password SMTP',
    inputType: 'password',
    writeOnly: true,
    group: pec,
  },
  {
    kind: 'text',
    key: 'sdiPec',
    label: 'PEC dello SdI',
    inputType: 'email',
    defaultValue: SDI_PEC_DEFAULT,
    placeholder: SDI_PEC_DEFAULT,
    group: pec,
  },
  {
    kind: 'checkbox',
    key: 'pecAutoSend',
    label: 'Invia automaticamente allo SdI ogni fattura emessa',
    group: pec,
  },
];

/**
 * Tenants (api-contract: a SuperAdmin creates and deletes; an Admin reads and updates the tenants
 * it belongs to). Titles as the route table names them: 'Lista Tenants', 'Dettaglio Tenant'.
 * The form has two tabs: the tenant itself and its billing profile.
 */
export const tenantResource = defineResource<Tenant>({
  name: 'tenant',
  label: 'Tenant',
  routes: {
    access: 'guarded',
    list: { label: 'Lista Tenants', sidebar: true },
    create: { label: 'Dettaglio Tenant' },
    edit: { label: 'Dettaglio Tenant' },
  },
  // Saving the billing profile issues the invoices waiting for it (server: tenant.billingProfileChanged).
  refreshes: ['invoice'],
  titles: { list: 'Lista Tenants', create: 'Dettaglio Tenant', edit: 'Dettaglio Tenant' },
  columns: tenantList.columns,
  filters: tenantList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome', required: true, group: tenantTabs.data },
    { kind: 'textarea', key: 'configuration', label: 'Configurazione', rows: 6, group: tenantTabs.data },
    {
      kind: 'checkbox',
      key: 'requireTwoFactor',
      label: 'Richiedi agli Admin l’accesso in due passaggi (codice dall’app di autenticazione)',
      group: tenantTabs.data,
    },
    {
      kind: 'checkbox',
      key: 'customerPlanChange',
      label: 'I clienti possono cambiare piano da soli dall’area clienti',
      group: tenantTabs.data,
    },
    {
      kind: 'checkbox',
      key: 'customerPause',
      label: 'I clienti possono sospendere l’incasso da soli dall’area clienti',
      group: tenantTabs.data,
    },
    ...tenantBillingFields,
    ...tenantPecFields,
  ],
  // Spec §8: a failed tenant delete shows a message with the error.
  messages: { deleteFailed: messages.user.deleteError },
});
