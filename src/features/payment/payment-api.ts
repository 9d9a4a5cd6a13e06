/** The public payment page's and the plan widget's calls: no session, no tenant header. */
import { apiPaths } from '../../../contract/api-paths';
import type { Envelope } from '../../../contract/envelope';
import type {
  PaymentTokenView,
  PlanWidgetView,
  SubscribeAnswer,
  SubscribeConfirmAnswer,
} from '../../../contract/schemas/payment';
import type { PublicProviderSettings } from '../../../contract/schemas/payment-provider';
import { unwrap } from '../../lib/entity-hooks';
import { http } from '../../lib/http';

const publicCall = { tenantId: null } as const;

/** The token object, or null when the server says it is not valid. */
export async function validatePaymentToken(token: string): Promise<PaymentTokenView | null> {
  const res = await http.get<Envelope<PaymentTokenView>>(apiPaths.paymentToken.validate, {
    params: { token },
    ...publicCall,
  });
  return res.data?.success ? (res.data.data ?? null) : null;
}

export interface PayPalPublicSettings {
  apiKey: string;
  /** Set by a server running PAYPAL_FAKE: where the fake PayPal SDK is served. */
  sdkBaseUrl?: string;
}

export function getPayPalSettings(tenantId: number) {
  return unwrap<PayPalPublicSettings>(
    http.get(apiPaths.paymentProvider.payPalSettingsByTenant(tenantId), publicCall),
  );
}

/** The public keys of the tenant's active providers: which ways to pay the page offers. */
export function getPublicSettings(tenantId: number) {
  return unwrap<PublicProviderSettings>(
    http.get(apiPaths.paymentProvider.publicSettingsByTenant(tenantId), publicCall),
  );
}

/** A Stripe Checkout Session for the token: `url` is Stripe's payment page. */
export function createStripeCheckout(token: string) {
  return unwrap<{ url: string; sessionId: string }>(
    http.post(apiPaths.payment.stripeCheckout, { token }, publicCall),
  );
}

/** Back from Stripe: the server confirms the session with Stripe, then records the payment. */
export function confirmStripeCheckout(sessionId: string, tenantId: number) {
  return unwrap<{ result: string }>(
    http.put(apiPaths.payment.stripeConfirm, { sessionId, tenantId }, publicCall),
  );
}

export function updatePayment(token: string, providerSubscriptionId: string) {
  return unwrap<{ result: string }>(
    http.put(apiPaths.payment.updatePayment, { token, providerSubscriptionId }, publicCall),
  );
}

export function getPlanWidget(planId: number) {
  return unwrap<PlanWidgetView>(http.get(apiPaths.plan.widget, { params: { planId }, ...publicCall }));
}

/** The widget's request: the server e-mails a confirmation link and creates nothing yet. */
export function subscribe(body: { planId: number; email: string; name?: string }) {
  return unwrap<SubscribeAnswer>(http.post(apiPaths.subscription.subscribe, body, publicCall));
}

/** The e-mailed link opened: customer, subscription and payment are made; `paymentUrl` is where to pay. */
export function confirmSubscription(token: string) {
  return unwrap<SubscribeConfirmAnswer>(
    http.post(apiPaths.subscription.subscribeConfirm, { token }, publicCall),
  );
}

/** 'al mese', 'ogni 3 mesi', 'all’anno'. */
export function periodLabel(months: number): string {
  if (months === 1) return 'al mese';
  if (months === 12) return 'all’anno';
  return `ogni ${months} mesi`;
}
