import type { PaymentProvider } from '../../../contract/schemas/payment-provider';
import { paymentProviderInputSchema } from '../../../contract/schemas/payment-provider';
import { messages } from '../../../contract/messages';
import { paymentProviderList } from '../../../contract/lists/payment-provider';
import { defineResource } from '../../lib/resource';

/**
 * Payment-provider settings ('Configura PayPal'), PayPal or Stripe. `apiKey` is PayPal's client id
 * or Stripe's publishable key; `apiSecret` (and Stripe's `webhookSecret`) is
 * write-only: the list shows it as the server sends it (masked), the form never shows it and an
 * empty box on edit keeps the stored one (the field is left out of the body).
 */
export const paymentProviderResource = defineResource<PaymentProvider>({
  name: 'paymentprovider',
  label: 'Provider di pagamento',
  routes: {
    access: 'guarded',
    list: { label: 'Configura PayPal', sidebar: true },
    create: { label: 'Nuova configurazione PayPal' },
    edit: { label: 'Dettaglio configurazione PayPal' },
  },
  titles: { list: 'Configura PayPal' },
  columns: paymentProviderList.columns,
  filters: paymentProviderList.filters,
  fields: [
    { kind: 'text', key: 'name', label: 'Nome', required: true, placeholder: 'PayPal' },
    {
      kind: 'choice',
      key: 'kind',
      label: 'Tipo',
      options: [
        { value: 'paypal', label: 'PayPal' },
        { value: 'stripe', label: 'Stripe (carte)' },
      ],
      defaultValue: 'paypal',
    },
    {
      kind: 'choice',
      key: 'mode',
      label: 'Modalità',
      options: [
        { value: 'sandbox', label: 'Sandbox (prove)' },
        { value: 'live', label: 'Live (pagamenti reali)' },
      ],
      defaultValue: 'sandbox',
    },
    {
      kind: 'text',
      key: 'apiUrl',
      label: 'URL API',
      inputType: 'url',
      required: true,
      placeholder: 'https://api-m.sandbox.paypal.com',
    },
    {
      kind: 'text',
      key: 'apiKey',
      label: 'Client ID (API key)',
      required: true,
      placeholder: 'PayPal: Client ID · Stripe: chiave pubblicabile pk_…',
    },
    {
      kind: 'text',
      key: 'apiSecret',
      label: 'Secret API',
      inputType: 'password',
      writeOnly: true,
      required: 'create',
      placeholder: 'PayPal: Secret · Stripe: chiave segreta sk_…',
    },
    { kind: 'text', key: 'webhookId', label: 'ID webhook PayPal', placeholder: 'WH-…' },
    {
      kind: 'text',
      key: 'webhookSecret',
      label: 'Segreto di firma webhook Stripe',
      inputType: 'password',
      writeOnly: true,
      placeholder: 'whsec_…',
    },
    { kind: 'checkbox', key: 'isActive', label: 'Fornitore attivo', defaultValue: true },
  ],
  // The same checks as the server, one message per field; the secret is required on create only.
  schema: paymentProviderInputSchema,
  messages: { deleteFailed: messages.user.deleteError },
});
