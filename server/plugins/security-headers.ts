import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiPath, isDocsPath, servedPathOf } from './request-context';

/** PayPal's JavaScript SDK and checkout frames (the payment page only). */
export const PAYPAL_SDK_HOSTS = [
  'https://www.paypal.com',
  'https://*.paypal.com',
  'https://www.paypalobjects.com',
];
/**
 * Stripe.js (`@stripe/stripe-js` loads https://js.stripe.com/v3) with its frames and API calls
 * (the payment page only). The card itself is typed on Stripe Checkout, a page of Stripe's.
 */
export const STRIPE_JS_HOSTS = ['https://js.stripe.com', 'https://*.js.stripe.com'];
export const STRIPE_API_HOSTS = [
  'https://api.stripe.com',
  'https://checkout.stripe.com',
  'https://m.stripe.network',
];
export const STRIPE_FRAME_HOSTS = [
  'https://js.stripe.com',
  'https://*.js.stripe.com',
  'https://hooks.stripe.com',
];
/** Pages that load PayPal's SDK and Stripe.js. */
export const PAYMENT_PAGE_PATHS = ['/payment', '/payment/process'];
/** The public plan widget, embedded by tenants in their own sites (`GET api/plan/iframe`). */
export const FRAMEABLE_PAGE_PATHS = ['/widget/plan'];

type Directives = Record<string, string[] | null>;

const BASE_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // React Select, SweetAlert2 and toasts inject <style> elements.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  // Deployments terminate TLS in front; a plain-HTTP install (localhost, e2e) must keep working.
  'upgrade-insecure-requests': null,
};

function pathOf(url: string): string {
  const at = url.search(/[?#]/);
  return (at < 0 ? url : url.slice(0, at)).replace(/\/+$/, '').toLowerCase() || '/';
}

/** Which page's policy a path gets. */
function pageKindOf(url: string): 'payment' | 'frameable' | 'default' {
  const path = pathOf(url);
  if (PAYMENT_PAGE_PATHS.includes(path)) return 'payment';
  if (FRAMEABLE_PAGE_PATHS.includes(path)) return 'frameable';
  return 'default';
}

/** Helmet's options for one kind of page: the default, or the payment page's or the widget's. */
function securityOptionsFor(
  kind: ReturnType<typeof pageKindOf>,
  extraPaymentSources: readonly string[],
): HelmetOptions {
  const directives: Directives = { ...BASE_DIRECTIVES };
  const options: HelmetOptions = {
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  };
  if (kind === 'payment') {
    const self = ["'self'"];
    directives['script-src'] = [...self, ...PAYPAL_SDK_HOSTS, ...STRIPE_JS_HOSTS, ...extraPaymentSources];
    directives['connect-src'] = [...self, ...PAYPAL_SDK_HOSTS, ...STRIPE_API_HOSTS, ...extraPaymentSources];
    directives['frame-src'] = [...PAYPAL_SDK_HOSTS, ...STRIPE_FRAME_HOSTS];
    directives['img-src'] = [...self, 'data:', ...PAYPAL_SDK_HOSTS, 'https://*.stripe.com'];
    // PayPal's checkout opens a popup that talks back to this window.
    options.crossOriginOpenerPolicy = { policy: 'same-origin-allow-popups' };
  }
  if (kind === 'frameable') {
    directives['frame-ancestors'] = ['*'];
    options.xFrameOptions = false;
    options.crossOriginResourcePolicy = { policy: 'cross-origin' };
  }
  options.contentSecurityPolicy = { useDefaults: false, directives };
  return options;
}

/**
 * The headers helmet sets for those options. Every directive is a constant string, so the
 * headers are too: helmet runs once per kind of page (and set of extra payment sources), not
 * once per request (building its middleware was ~2% of a list call's CPU).
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers on every answer, computed by helmet: a Content-Security-Policy (scripts
 * from this origin only; PayPal's SDK and Stripe.js on the payment page), no framing except the plan widget,
 * Referrer-Policy no-referrer (reset and payment URLs carry tokens), nosniff, and
 * `Cache-Control: no-store` on API answers (they are per caller). One hook decides per path, so
 * SPA pages served by the history fallback and routes added later get the same treatment.
 */
export const securityHeadersPlugin = fp<{ paymentScriptSources?: () => readonly string[] }>(
  (app, options, done) => {
    const computed = new Map<string, Record<string, string>>();
    app.addHook('onRequest', async (request, reply) => {
      const kind = pageKindOf(request.url);
      // PAYPAL_FAKE (development only): the fake PayPal's SDK stub on loopback, on the payment page.
      const extra = kind === 'payment' ? (options.paymentScriptSources?.() ?? []) : [];
      const key = `${kind} ${extra.join(' ')}`;
      let headers = computed.get(key);
      if (!headers) computed.set(key, (headers = headersOf(securityOptionsFor(kind, extra))));
      reply.headers(headers);
    });
    app.addHook('onSend', async (request, reply) => {
      const path = servedPathOf(request);
      if (!isApiPath(path) || isDocsPath(path)) return;
      if (request.auth || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
    done();
  },
  { name: 'security-headers' },
);
