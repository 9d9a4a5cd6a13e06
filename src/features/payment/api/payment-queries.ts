/** The public payment page's and the plan widget's reads (no session, no tenant header), and the widget's period wording. */
import { apiPaths } from '../../../../contract/api-paths';
import type { Envelope } from '../../../../contract/envelope';
import type { PaymentTokenView, PlanWidgetView } from '../../../../contract/schemas/payment';
import { unwrap } from '../../../lib/entity-hooks';
import { http } from '../../../lib/http';

/** Public calls: no session, no tenant header. */
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

export function getPlanWidget(planId: number) {
  return unwrap<PlanWidgetView>(http.get(apiPaths.plan.widget, { params: { planId }, ...publicCall }));
}

/** 'al mese', 'ogni 3 mesi', 'all’anno'. */
export function periodLabel(months: number): string {
  if (months === 1) return 'al mese';
  if (months === 12) return 'all’anno';
  return `ogni ${months} mesi`;
}
