/**
 * PayPal through its REST API against the provider row's `apiUrl` (https://api-m.sandbox.paypal.com
 * or https://api-m.paypal.com; a loopback fake in tests), with the outbound door's `fetch`
 * (lib/outbound: the socket checked at connect time, no redirects).
 * OAuth2 client credentials; the access token is cached until shortly before it expires.
 */
import { createHash } from 'node:crypto';
import { fromCents } from '../../contract/money';
import {
  ProviderError,
  type PaymentProviderAdapter,
  type ProviderPlanInput,
  type ProviderSubscription,
  type WebhookDelivery,
} from './payment-provider';

export interface PayPalCredentials {
  apiUrl: string;
  clientId: string;
  /** Decrypted here only, never logged or returned. */
  secret: string;
}

export interface PayPalOptions {
  timeoutMs: number;
  /** The clock of the token cache. */
  now: () => number;
  /** The outbound door's fetch (registry.ts): never the global one. */
  fetch: typeof fetch;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Access tokens by (apiUrl, clientId, secret fingerprint); one process-wide cache. */
const tokenCache = new Map<string, CachedToken>();

export function clearPayPalTokenCache(): void {
  tokenCache.clear();
}

function errorOfStatus(status: number, code: string | null): ProviderError {
  if (status === 401 || status === 403) return new ProviderError('unauthorized', status, code);
  if (status === 404) return new ProviderError('notFound', status, code);
  if (status === 422 || status === 400) return new ProviderError('unprocessable', status, code);
  if (status >= 500) return new ProviderError('server', status, code);
  return new ProviderError('invalid', status, code);
}

/** A refund PayPal made (`POST /v1/payments/sale/{id}/refund`): its id and state, upper case. */
export interface PayPalRefund {
  id: string;
  /** 'COMPLETED', 'PENDING', 'FAILED', … (v1's `state`, or `status`). */
  status: string;
}

export interface PayPalAdapter extends PaymentProviderAdapter {
  /**
   * A partial refund of a completed sale (issue 30: a plan change's residual credit given back),
   * `{ amount: { total, currency: 'EUR' } }`, PayPal-Request-Id `idempotencyKey` (PayPal keeps it
   * for 30 days: the same key answers the same refund, nothing refunded twice).
   */
  refundSale(saleId: string, input: { amountCents: number; idempotencyKey: string }): Promise<PayPalRefund>;
}

/** Whether `adapter` is PayPal's (it can refund a sale). */
export function isPayPalAdapter(adapter: PaymentProviderAdapter): adapter is PayPalAdapter {
  return adapter.kind === 'paypal' && typeof (adapter as Partial<PayPalAdapter>).refundSale === 'function';
}

export function createPayPalAdapter(credentials: PayPalCredentials, options: PayPalOptions): PayPalAdapter {
  const base = credentials.apiUrl.replace(/\/+$/, '');
  const doFetch = options.fetch;
  // Keyed by a digest of the credentials: a changed secret never reuses the old token.
  const cacheKey = createHash('sha256')
    .update(`${base}\u0000${credentials.clientId}\u0000${credentials.secret}`)
    .digest('hex');

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError('timeout');
      throw new ProviderError('network');
    }
  }

  async function readJson(res: Response): Promise<unknown> {
    const text = await res.text().catch(() => '');
    if (!text) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  }

  async function accessToken(forceNew = false): Promise<string> {
    const cached = tokenCache.get(cacheKey);
    if (!forceNew && cached && cached.expiresAt > options.now()) return cached.token;
    const basic = Buffer.from(`${credentials.clientId}:${credentials.secret}`).toString('base64');
    const res = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const body = (await readJson(res)) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    } | null;
    if (!res.ok) throw errorOfStatus(res.status, typeof body?.error === 'string' ? body.error : null);
    if (typeof body?.access_token !== 'string') throw new ProviderError('invalid', res.status);
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 300;
    // Renewed a minute early, so a token never expires on its way to PayPal.
    tokenCache.set(cacheKey, {
      token: body.access_token,
      expiresAt: options.now() + Math.max(0, seconds - 60) * 1000,
    });
    return body.access_token;
  }

  async function call(
    method: string,
    path: string,
    payload?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<unknown> {
    let retried = false;
    for (;;) {
      const token = await accessToken(retried);
      const res = await send(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json',
          ...extraHeaders,
        },
        ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
      });
      // A token PayPal revoked before its time: fetch a new one once.
      if (res.status === 401 && !retried) {
        tokenCache.delete(cacheKey);
        retried = true;
        continue;
      }
      const body = await readJson(res);
      if (!res.ok) {
        const name = (body as { name?: unknown } | null)?.name;
        throw errorOfStatus(res.status, typeof name === 'string' ? name : null);
      }
      return body;
    }
  }

  return {
    kind: 'paypal',
    async getSubscription(id): Promise<ProviderSubscription> {
      const body = (await call('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}`)) as {
        id?: unknown;
        status?: unknown;
        plan_id?: unknown;
        plan_overridden?: unknown;
      } | null;
      if (typeof body?.id !== 'string' || typeof body.status !== 'string') throw new ProviderError('invalid');
      return {
        id: body.id,
        status: body.status,
        planId: typeof body.plan_id === 'string' ? body.plan_id : null,
        planOverridden: body.plan_overridden === true,
      };
    },
    async cancelSubscription(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, { reason });
    },
    async stopRenewal(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/suspend`, {
        reason: reason.slice(0, 127),
      });
    },
    async resumeRenewal(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/activate`, {
        reason: reason.slice(0, 127),
      });
    },
    async pauseCollection(id, { reason, idempotencyKey }) {
      await call(
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/suspend`,
        { reason: reason.slice(0, 127) },
        { 'paypal-request-id': idempotencyKey },
      );
    },
    async resumeCollection(id, { reason, idempotencyKey }) {
      await call(
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/activate`,
        { reason: reason.slice(0, 127) },
        { 'paypal-request-id': idempotencyKey },
      );
    },
    async changePlan(id, { providerPlanId, idempotencyKey }) {
      await call(
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/revise`,
        { plan_id: providerPlanId },
        { 'paypal-request-id': idempotencyKey },
      );
    },
    async reviseForApproval(id, { providerPlanId, idempotencyKey, returnUrl, cancelUrl }) {
      const body = (await call(
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/revise`,
        {
          plan_id: providerPlanId,
          ...(returnUrl
            ? { application_context: { return_url: returnUrl, cancel_url: cancelUrl ?? returnUrl } }
            : {}),
        },
        { 'paypal-request-id': idempotencyKey },
      )) as { links?: unknown } | null;
      const links = Array.isArray(body?.links) ? (body.links as { rel?: unknown; href?: unknown }[]) : [];
      const approve = links.find((l) => l.rel === 'approve' && typeof l.href === 'string');
      return { approveUrl: approve ? String(approve.href) : null };
    },
    async refundSale(saleId, { amountCents, idempotencyKey }) {
      const body = (await call(
        'POST',
        `/v1/payments/sale/${encodeURIComponent(saleId)}/refund`,
        { amount: { total: paypalValue(amountCents), currency: 'EUR' } },
        { 'paypal-request-id': idempotencyKey },
      )) as { id?: unknown; state?: unknown; status?: unknown } | null;
      const state = typeof body?.status === 'string' ? body.status : body?.state;
      if (typeof body?.id !== 'string' || typeof state !== 'string') throw new ProviderError('invalid');
      return { id: body.id, status: state.toUpperCase() };
    },
    async verifyWebhook(delivery: WebhookDelivery, webhookId: string) {
      const h = (name: string) => {
        const v = delivery.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const fields = {
        auth_algo: h('paypal-auth-algo'),
        cert_url: h('paypal-cert-url'),
        transmission_id: h('paypal-transmission-id'),
        transmission_sig: h('paypal-transmission-sig'),
        transmission_time: h('paypal-transmission-time'),
      };
      if (Object.values(fields).some((v) => !v)) return false;
      const body = (await call('POST', '/v1/notifications/verify-webhook-signature', {
        ...fields,
        webhook_id: webhookId,
        webhook_event: delivery.event,
      })) as { verification_status?: unknown } | null;
      return body?.verification_status === 'SUCCESS';
    },
    async createProduct({ name, description }) {
      const body = (await call('POST', '/v1/catalogs/products', {
        name: name.slice(0, 127),
        ...(description ? { description: description.slice(0, 256) } : {}),
        type: 'SERVICE',
        category: 'SOFTWARE',
      })) as { id?: unknown } | null;
      if (typeof body?.id !== 'string') throw new ProviderError('invalid');
      return body.id;
    },
    async createPlan(input: ProviderPlanInput) {
      const body = (await call(
        'POST',
        '/v1/billing/plans',
        {
          product_id: input.productId,
          name: input.name.slice(0, 127),
          status: 'ACTIVE',
          billing_cycles: paypalBillingCycles(input),
          payment_preferences: {
            auto_bill_outstanding: true,
            setup_fee_failure_action: 'CANCEL',
            payment_failure_threshold: 3,
          },
        },
        input.idempotencyKey ? { 'paypal-request-id': input.idempotencyKey } : {},
      )) as { id?: unknown } | null;
      if (typeof body?.id !== 'string') throw new ProviderError('invalid');
      return body.id;
    },
  };
}

/** Euros as PayPal writes them, from integer cents ('12.08'). */
export function paypalValue(cents: number): string {
  return fromCents(cents).toFixed(2);
}

/**
 * A plan's billing cycles: one REGULAR cycle at the price; with a coupon (issue 30) a TRIAL cycle of
 * `periods` cycles at the discounted price first, or (forever) the REGULAR cycle at the discounted
 * price. Each cycle charges exactly Rinnova's net to pay of that period.
 */
export function paypalBillingCycles(input: ProviderPlanInput) {
  const cycle = (tenure: 'TRIAL' | 'REGULAR', sequence: number, totalCycles: number, cents: number) => ({
    frequency: { interval_unit: 'MONTH', interval_count: input.intervalMonths },
    tenure_type: tenure,
    sequence,
    total_cycles: totalCycles,
    pricing_scheme: { fixed_price: { value: paypalValue(cents), currency_code: 'EUR' } },
  });
  const d = input.discount;
  if (!d) return [cycle('REGULAR', 1, 0, input.priceCents)];
  if (d.periods === null) return [cycle('REGULAR', 1, 0, d.priceCents)];
  return [cycle('TRIAL', 1, d.periods, d.priceCents), cycle('REGULAR', 2, 0, input.priceCents)];
}
