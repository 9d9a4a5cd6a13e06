/**
 * The MSW server shared by every SPA component test (started in tests/unit/setup.ts with
 * `onUnhandledRequest: 'error'`, so a call nobody mocked fails the test).
 *
 * Usage in a test:
 *   server.use(apiGet('region/getAll', () => ok({ items: [], totalCount: 0 })));
 *   server.use(apiPost('user/Login', () => fail(401, 'Email o password non corretti.')));
 *   const calls = recordRequests();   // later: calls[0].headers.get('x-api-key')
 */
import { http, HttpResponse, type HttpResponseResolver, type DefaultBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { Envelope } from '../../../contract/envelope';

/** A path of the REST contract (relative to /api) as an MSW matcher on any origin. */
export function api(path: string): string {
  return `*/api/${path.replace(/^\/+/, '').replace(/^api\//, '')}`;
}

/**
 * Handlers every test starts with (they survive `resetHandlers`): the subscription list, which
 * many layout and session tests open as "a signed-in screen", answers empty unless a test says
 * otherwise with `server.use(...)`.
 */
export const emptyDashboardSummary = {
  currency: 'EUR',
  timeZone: 'Europe/Rome',
  generatedAt: '2026-03-15T10:00:00.000Z',
  mrrCents: 0,
  activeSubscriptions: 0,
  churnRate: null,
  newCustomersThisMonth: 0,
  momChange: null,
  months: [],
  plans: [],
  hasPlans: false,
  hasSubscriptions: false,
};

export const baselineHandlers = [
  // The customer area's cards ask for each subscription's one-off charges (issue 30): none by default.
  http.get(api('user/me/subscriptions/:id/charges'), () =>
    HttpResponse.json({ success: true, message: null, data: [] }),
  ),
  // …and whether the tenant lets them pause their collection (issue 30): not by default.
  http.get(api('user/me/subscriptions/:id/pause'), () =>
    HttpResponse.json({ success: true, message: null, data: { allowed: false } }),
  ),
  // The /hangfire page: an engine with nothing run yet.
  http.get(api('hangfire/stats'), () =>
    HttpResponse.json({
      success: true,
      message: null,
      data: { enqueued: 0, scheduled: 0, processing: 0, succeeded: 0, failed: 0, retrying: 0, recurring: 0 },
    }),
  ),
  http.get(api('hangfire/recent'), () => HttpResponse.json({ success: true, message: null, data: [] })),
  http.get(api('hangfire/recurring'), () => HttpResponse.json({ success: true, message: null, data: [] })),
  // The home page of an Admin (the dashboard) asks for its summary: an empty tenant by default.
  // The Admin shell asks whether the selected tenant requires a second factor (issue 23).
  http.get(api('user/two-factor'), () =>
    HttpResponse.json({
      success: true,
      message: null,
      data: { available: true, enabled: false, recoveryCodesLeft: 0, requiredByTenantIds: [] },
    }),
  ),
  http.get(api('dashboard/summary'), () =>
    HttpResponse.json({ success: true, message: null, data: emptyDashboardSummary }),
  ),
  // The signed-in person's tenants (a customer's 'Fornitore' picker asks on every screen): one.
  http.get(api('tenant/getAll'), () =>
    HttpResponse.json({
      success: true,
      message: null,
      data: { items: [{ id: 1, name: 'Demo Srl' }], totalCount: 1 },
    }),
  ),
  // A customer's home (issue 28) asks how each subscription renews: nothing turned off by default.
  http.get(api('user/me/subscriptions/renewal'), () =>
    HttpResponse.json({ success: true, message: null, data: { items: [] } }),
  ),
  // A customer's home (issue 28) lists their invoices: none by default.
  http.get(api('invoice/getAll'), () =>
    HttpResponse.json({ success: true, message: null, data: { items: [], totalCount: 0 } }),
  ),
  http.get(api('subscription/getAll'), () =>
    HttpResponse.json({ success: true, message: null, data: { items: [], totalCount: 0 } }),
  ),
  // The subscription list asks whether the tenant has Stripe (its sync button): PayPal only by default.
  http.get(api('paymentprovider/GetPublicSettingsByTenant/:id'), () =>
    HttpResponse.json({
      success: true,
      message: null,
      data: { paypal: { apiKey: 'client-id' }, stripe: null },
    }),
  ),
];

export const server = setupServer(...baselineHandlers);

type Resolver = HttpResponseResolver<Record<string, string | readonly string[]>, DefaultBodyType>;

export const apiGet = (path: string, resolver: Resolver) => http.get(api(path), resolver);
export const apiPost = (path: string, resolver: Resolver) => http.post(api(path), resolver);
export const apiPut = (path: string, resolver: Resolver) => http.put(api(path), resolver);
export const apiDelete = (path: string, resolver: Resolver) => http.delete(api(path), resolver);

/** 200 with a success envelope. */
export function ok<T>(data: T, message: string | null = null) {
  const body: Envelope<T> = { success: true, message, data };
  return HttpResponse.json(body, { status: 200 });
}

/** An error status with a failure envelope (optionally with data and errors[]). */
export function fail(
  status: number,
  message: string | null,
  data: unknown = null,
  errors?: string[],
  fieldErrors?: Record<string, string>,
) {
  const body: Envelope<unknown> = {
    success: false,
    message,
    data,
    ...(errors ? { errors } : {}),
    ...(fieldErrors ? { fieldErrors } : {}),
  };
  return HttpResponse.json(body, { status });
}

/** A transport failure (axios reports it as ERR_NETWORK). */
export function networkError() {
  return HttpResponse.error();
}

/** Records every request that reaches the server from now until the test ends. */
export function recordRequests(): Request[] {
  const seen: Request[] = [];
  const listener = ({ request }: { request: Request }) => {
    seen.push(request.clone());
  };
  server.events.on('request:start', listener);
  return seen;
}

/** A promise the test resolves by hand, to hold a response open (loading states). */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
