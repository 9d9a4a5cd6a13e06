/**
 * The one small interface Rinnova needs from a payment provider (PayPal now, Stripe later).
 * Implementations make plain HTTP calls outside any transaction; every failure is a
 * `ProviderError` with an Italian message, and callers change nothing in Rinnova when one is thrown.
 */

/** What the provider says a subscription is. */
export interface ProviderSubscription {
  id: string;
  /** PayPal: APPROVAL_PENDING, APPROVED, ACTIVE, SUSPENDED, CANCELLED, EXPIRED. */
  status: string;
  planId: string | null;
}

export interface WebhookDelivery {
  /** Request headers, names lower-case. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body as received. */
  event: unknown;
}

export interface ProviderPlanInput {
  productId: string;
  name: string;
  /** Price per period with VAT, in cents. */
  priceCents: number;
  /** Months per period (1, 2, 3, 4, 6, 12). */
  intervalMonths: number;
}

export interface PaymentProviderAdapter {
  readonly kind: 'paypal';
  getSubscription(id: string): Promise<ProviderSubscription>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  /** True only when the provider confirms the delivery's signature for this webhook id. */
  verifyWebhook(delivery: WebhookDelivery, webhookId: string): Promise<boolean>;
  createProduct(input: { name: string; description?: string }): Promise<string>;
  createPlan(input: ProviderPlanInput): Promise<string>;
}

export type ProviderErrorKind =
  'timeout' | 'network' | 'unauthorized' | 'notFound' | 'unprocessable' | 'server' | 'invalid';

/** Italian messages of provider failures (shown to the Admin or the customer as they are). */
export const providerMessages = {
  timeout: 'PayPal non ha risposto in tempo. Riprova tra qualche minuto: in Rinnova non è cambiato nulla.',
  network: 'Impossibile contattare PayPal. Riprova tra qualche minuto: in Rinnova non è cambiato nulla.',
  unauthorized:
    'PayPal ha rifiutato le credenziali (Client ID o Secret non validi): controllale in Configura PayPal.',
  notFound: 'PayPal non conosce questa sottoscrizione.',
  unprocessable: 'PayPal ha rifiutato l’operazione nello stato attuale della sottoscrizione.',
  server: 'PayPal è momentaneamente non disponibile. Riprova più tardi: in Rinnova non è cambiato nulla.',
  invalid: 'PayPal ha dato una risposta inattesa. Riprova più tardi: in Rinnova non è cambiato nulla.',
  notConfigured: 'Configurazione PayPal non trovata per questo tenant.',
  noSecret: 'Manca il Secret PayPal del tenant: aggiungilo in Configura PayPal.',
} as const;

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    /** HTTP status the provider answered, when it answered. */
    readonly providerStatus: number | null = null,
    /** The provider's own error name (e.g. RESOURCE_NOT_FOUND), for logs. */
    readonly providerCode: string | null = null,
  ) {
    super(providerMessages[kind]);
    this.name = 'ProviderError';
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
