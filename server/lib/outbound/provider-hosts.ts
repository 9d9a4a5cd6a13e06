/**
 * The payment providers' official hosts. With the outbound guard on (production), a provider's
 * `apiUrl` must be one of its hosts for the row's mode (checked when it is saved and again before
 * every call, for rows saved earlier), and the Stripe Checkout URL a customer is sent to must be
 * on Stripe's Checkout host: a tenant's secret is sent to PayPal or Stripe and nowhere else.
 */
import type { PaymentProviderKind, PaymentProviderMode } from '../../../contract/schemas/payment-provider';

/** PayPal's REST hosts by mode (`api-m.` is today's name, `api.` the older one). */
export const PAYPAL_HOSTS: Record<PaymentProviderMode, readonly string[]> = {
  sandbox: ['api-m.sandbox.paypal.com', 'api.sandbox.paypal.com'],
  live: ['api-m.paypal.com', 'api.paypal.com'],
};
/** Stripe's API host, the same in test and live mode (the key decides). */
export const STRIPE_HOSTS: readonly string[] = ['api.stripe.com'];
/** Where Stripe Checkout Sessions live. */
export const STRIPE_CHECKOUT_HOST = 'checkout.stripe.com';

export const providerHostMessages = {
  paypal: (mode: PaymentProviderMode) =>
    `In produzione l’URL API di PayPal in modalità ${mode} è https://${PAYPAL_HOSTS[mode][0]}: nessun altro indirizzo è ammesso.`,
  stripe: `In produzione l’URL API di Stripe è https://${STRIPE_HOSTS[0]}: nessun altro indirizzo è ammesso.`,
  /** Before a call, for a row saved before the rule (its Admin corrects it). */
  storedPaypal:
    'L’URL API di PayPal salvato non è un indirizzo ufficiale di PayPal: correggilo in Configura PayPal (e inserisci di nuovo il Secret).',
  storedStripe:
    'L’URL API di Stripe salvato non è l’indirizzo ufficiale di Stripe: correggilo nella configurazione di Stripe (e inserisci di nuovo la chiave segreta).',
} as const;

/**
 * A stored secret goes only to the address it was typed for: changing the address asks for it
 * again (on the secret's own field).
 */
export const secretRetypeMessages = {
  apiSecret:
    'Hai cambiato l’URL API: inserisci di nuovo il secret, non viene inviato a un indirizzo diverso da quello per cui era stato salvato.',
  pecSmtpPassword:
    'Hai cambiato il server SMTP: inserisci di nuovo la password, non viene inviata a un server diverso da quello per cui era stata salvata.',
  pecHostPrivate: 'Server SMTP non ammesso: punta a una rete privata o locale.',
} as const;

/** The hosts `apiUrl` may name for a provider of this kind and mode. */
export function officialHosts(kind: PaymentProviderKind, mode: PaymentProviderMode): readonly string[] {
  return kind === 'stripe' ? STRIPE_HOSTS : PAYPAL_HOSTS[mode];
}

/** True when `url` is `https://<one of hosts>` with no port, credentials, path, query or fragment. */
export function isOfficialUrl(url: string, hosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'https:' &&
    hosts.includes(parsed.hostname) &&
    parsed.port === '' &&
    parsed.username === '' &&
    parsed.password === '' &&
    (parsed.pathname === '/' || parsed.pathname === '') &&
    parsed.search === '' &&
    parsed.hash === ''
  );
}

/** The Italian field error when `apiUrl` is not an official host of the provider, else null. */
export function apiUrlProblem(
  kind: PaymentProviderKind,
  mode: PaymentProviderMode,
  apiUrl: string,
): string | null {
  if (isOfficialUrl(apiUrl, officialHosts(kind, mode))) return null;
  return kind === 'stripe' ? providerHostMessages.stripe : providerHostMessages.paypal(mode);
}

/** Stripe's customer billing portal (a billing portal session's `url`). */
export const STRIPE_BILLING_PORTAL_HOST = 'billing.stripe.com';

/** True when a billing portal URL Stripe answered is on Stripe's billing host (https, default port). */
export function isStripeBillingPortalUrl(url: string): boolean {
  return isOnHost(url, STRIPE_BILLING_PORTAL_HOST);
}

/** True when a Checkout URL Stripe answered is on Stripe's Checkout host (https, default port). */
export function isStripeCheckoutUrl(url: string): boolean {
  return isOnHost(url, STRIPE_CHECKOUT_HOST);
}

function isOnHost(url: string, host: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      parsed.hostname === host &&
      parsed.port === '' &&
      parsed.username === '' &&
      parsed.password === ''
    );
  } catch {
    return false;
  }
}

/**
 * The same URL for the purpose of "was it changed?": scheme, host (lower case, no final dot),
 * port and path without trailing slashes. A stored secret goes only to the URL it was saved for.
 */
export function sameEndpoint(a: string, b: string): boolean {
  const key = (raw: string) => {
    try {
      const u = new URL(raw.trim());
      return `${u.protocol}//${u.username}:${u.password}@${u.hostname.replace(/\.$/, '')}:${u.port}${u.pathname.replace(/\/+$/, '')}${u.search}`;
    } catch {
      return raw.trim();
    }
  };
  return key(a) === key(b);
}

/** The same for an SMTP host name (case and a final dot do not matter). */
export function sameHost(a: string | null, b: string | null): boolean {
  const key = (h: string | null) => (h ?? '').trim().toLowerCase().replace(/\.$/, '');
  return key(a) === key(b);
}
