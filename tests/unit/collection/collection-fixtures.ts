/** MSW answers of the collection calls (issue 29) and the requests they saw. */
import type {
  CollectionPreviewInput,
  CollectionSettings,
  Ladder,
  OverdueList,
  OverduePayment,
} from '../../../contract/schemas/collection';
import { apiGet, apiPost, apiPut, fail, ok, server } from '../msw/server';

export const rossi: OverduePayment = {
  paymentId: 41,
  subscriptionId: 7,
  customer: { id: 5, name: 'Mario Rossi', email: 'mario.rossi@example.it' },
  plan: { id: 2, name: 'Professional' },
  amountDue: 122,
  method: 'bankTransfer',
  dueDate: '2026-03-01',
  daysOverdue: 12,
  bucket: '8-30',
  step: 1,
  lastReminderAt: '2026-03-04T08:00:00.000Z',
  graceEndsOn: '2026-03-15',
};

export const bianchi: OverduePayment = {
  paymentId: 42,
  subscriptionId: 8,
  customer: { id: 6, name: null, email: 'bianchi@example.it' },
  plan: { id: 3, name: 'Base' },
  amountDue: 24.4,
  method: 'stripe',
  dueDate: '2026-01-05',
  daysOverdue: 70,
  bucket: '60+',
  step: 3,
  lastReminderAt: '2026-01-19T08:00:00.000Z',
  graceEndsOn: '2026-01-19',
};

export const overdueList: OverdueList = {
  items: [rossi, bianchi],
  totalCount: 2,
  buckets: [
    { key: '0-7', count: 0, amount: 0 },
    { key: '8-30', count: 1, amount: 122 },
    { key: '31-60', count: 0, amount: 0 },
    { key: '60+', count: 1, amount: 24.4 },
  ],
  total: { count: 2, amount: 146.4 },
};

export const defaultLadder: Ladder = { steps: [0, 3, 7, 14], graceDays: 14, finalDay: 21 };

export interface CollectionCalls {
  overdue: URLSearchParams[];
  reminded: string[];
  markPaid: { id: string; body: unknown }[];
  saved: unknown[];
  previews: CollectionPreviewInput[];
}

/** The collection calls answered from `list` and `ladder`; each request recorded. */
export function collectionServer(
  list: OverdueList = overdueList,
  ladder: Ladder | CollectionSettings = defaultLadder,
  options: { remindMessage?: string; markPaidFailure?: () => Response } = {},
): CollectionCalls {
  const calls: CollectionCalls = { overdue: [], reminded: [], markPaid: [], saved: [], previews: [] };
  const settings: CollectionSettings = {
    ...ladder,
    emails: 'emails' in ladder ? ladder.emails : { steps: ladder.steps.map(() => null), final: null },
  };
  server.use(
    apiGet('collection/overdue', ({ request }) => {
      const params = new URL(request.url).searchParams;
      calls.overdue.push(params);
      const bucket = params.get('filters[bucket]');
      const items = bucket ? list.items.filter((p) => p.bucket === bucket) : list.items;
      return ok({ ...list, items, totalCount: items.length });
    }),
    apiGet('collection/settings', () => ok(settings)),
    // The server's preview, reduced to what the tests read: the texts it was given, in HTML.
    apiPost('collection/settings/preview', async ({ request }) => {
      const body = (await request.json()) as CollectionPreviewInput;
      calls.previews.push(body);
      const subject = body.subject || `Oggetto predefinito (${String(body.step)})`;
      const text = `${body.body || 'Messaggio predefinito'}\n\n${body.method === 'card' ? 'Paga ora' : 'Effettua il bonifico'}`;
      return ok({
        subject,
        text,
        html: `<!doctype html><p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`,
      });
    }),
    apiPut('collection/settings', async ({ request }) => {
      const body = await request.json();
      calls.saved.push(body);
      return ok(body, 'Solleciti salvati.');
    }),
    apiPost('collection/remind/:id', ({ params }) => {
      calls.reminded.push(String(params.id));
      return ok(null, options.remindMessage ?? 'Sollecito inviato a mario.rossi@example.it.');
    }),
    apiPost('collection/markPaid/:id', async ({ params, request }) => {
      calls.markPaid.push({ id: String(params.id), body: await request.json() });
      if (options.markPaidFailure) return options.markPaidFailure();
      return ok(null, 'Pagamento registrato: fattura emessa.');
    }),
  );
  return calls;
}

export { fail };
