/**
 * A payment's collection on the subscription's page (issue 29): its due date and state in the
 * payments table, and 'Storico incasso', the dialog with every move of its collection (each
 * reminder, a provider's failed charge or retry, the late payment, the ladder's end) and who or
 * what made it, read from `GET api/collection/payment/{id}`.
 */
import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/api-paths';
import {
  collectionEventNames,
  collectionStateLabel,
  type CollectionEvent,
  type CollectionStatus,
} from '../../../contract/schemas/collection';
import { Modal } from '../../components/modal';
import { Skeleton } from '../../components/skeleton';
import { unwrap } from '../../lib/entity-hooks';
import { formatDate } from '../../lib/formatters';
import { http } from '../../lib/http';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { formatDateTime } from './billing-format';

export const paymentCollectionText = {
  dueDate: 'Scadenza',
  status: 'Incasso',
  history: 'Storico incasso',
  historyOf: (causale: string) => `Storico incasso di ${causale}`,
  dueOn: (day: string) => `In scadenza il ${day}`,
  none: 'Nessun evento: il pagamento non ha avuto solleciti né ritardi.',
  loadFailed: 'Non è stato possibile caricare lo storico dell’incasso.',
  step: (n: number) => `sollecito ${n + 1} della scala`,
  actors: {
    system: 'Sistema (solleciti automatici)',
    provider: 'Fornitore di pagamento',
    user: 'Amministratore',
  },
  list: 'Eventi dell’incasso',
} as const;

const t = paymentCollectionText;

const tones: Record<CollectionStatus, string> = {
  due: 'bg-slate-100 text-slate-700',
  overdue: 'bg-orange-100 text-orange-800',
  recovered: 'bg-emerald-100 text-emerald-800',
  exhausted: 'bg-red-100 text-red-800',
};

/** The collection state of a payment as a small badge ('Incassato' when paid on time). */
export function CollectionStatusBadge({ status, paid }: { status: CollectionStatus; paid: boolean }) {
  const tone = paid && status === 'due' ? tones.recovered : tones[status];
  return <span className={`badge ${tone}`}>{collectionStateLabel(status, paid)}</span>;
}

interface PaymentCollection {
  dueDate: string;
  collectionStatus: CollectionStatus;
  events: CollectionEvent[];
}

function usePaymentCollection(paymentId: number) {
  const tenantId = useSelectedTenantId();
  return useQuery({
    queryKey: [...queryKeys.entity(tenantId, 'collection'), 'payment', paymentId],
    queryFn: () => unwrap<PaymentCollection>(http.get(apiPaths.collection.payment(paymentId), { tenantId })),
    enabled: tenantId !== null,
    meta: { logLabel: 'Storico incasso non caricato:' },
  });
}

const providerNames: Record<string, string> = { stripe: 'Stripe', paypal: 'PayPal' };

/** Who made a move: the daily job by its role (its internal name says nothing), a provider by name, an Admin by name. */
function actorOf(e: CollectionEvent): string {
  const label = t.actors[e.actor.kind];
  if (e.actor.kind === 'system' || !e.actor.name) return label;
  return `${label}: ${providerNames[e.actor.name.toLowerCase()] ?? e.actor.name}`;
}

/** 'Storico incasso' of one payment, oldest first. */
export function PaymentCollectionDialog({
  paymentId,
  causale,
  paid,
  onClose,
}: {
  paymentId: number;
  causale: string;
  paid: boolean;
  onClose: () => void;
}) {
  const query = usePaymentCollection(paymentId);
  const data = query.data;
  return (
    <Modal
      title={t.historyOf(causale)}
      description={
        data ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            {t.dueOn(formatDate(data.dueDate))}
            <CollectionStatusBadge status={data.collectionStatus} paid={paid} />
          </span>
        ) : undefined
      }
      onClose={onClose}
    >
      {query.isPending ? (
        <div className="space-y-3" role="status" aria-label={t.history}>
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-5 w-1/2" />
        </div>
      ) : query.isError || !data ? (
        <p role="alert" className="text-sm text-red-700">
          {t.loadFailed}
        </p>
      ) : data.events.length === 0 ? (
        <p className="text-sm text-slate-500">{t.none}</p>
      ) : (
        <ol aria-label={t.list} className="relative space-y-5 border-l-2 border-slate-200 pl-6">
          {data.events.map((e) => (
            <li key={e.id} className="relative">
              <span
                aria-hidden="true"
                className={`absolute top-1 -left-[31px] h-3.5 w-3.5 rounded-full ring-4 ring-white ${e.kind === 'recovered' || e.kind === 'markedPaid' ? 'bg-emerald-500' : e.kind === 'exhausted' || e.kind === 'failed' ? 'bg-red-500' : 'bg-slate-300'}`}
              />
              <p className="text-sm font-semibold text-slate-900">
                {collectionEventNames[e.kind]}
                {e.step !== null && <span className="font-normal text-slate-500"> · {t.step(e.step)}</span>}
              </p>
              {e.note && <p className="mt-0.5 text-sm text-slate-700">{e.note}</p>}
              <p className="mt-0.5 text-xs text-slate-500">
                {actorOf(e)} · {formatDateTime(e.at)}
              </p>
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}
