/**
 * A subscription's free trial (issue 30) beside its status: running until its end, converted by
 * the first payment, or ended unpaid. Nothing for a subscription without a trial.
 */
import { useState } from 'react';
import type { OverduePayment } from '../../../contract/schemas/collection';
import type { Subscription, TrialState } from '../../../contract/schemas/subscription';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { MarkPaidDialog } from '../collection/mark-paid-dialog';

export const trialText = {
  running: (until: string) => `In prova fino al ${until}`,
  converted: 'Prova convertita',
  expired: 'Prova scaduta senza pagamento',
  endsAt: 'Fine del periodo di prova',
  firstPayment: 'Il primo pagamento è dovuto alla fine della prova: il primo periodo inizia allora.',
  panel: 'Periodo di prova',
  due: (amount: string, on: string) =>
    `Nessun pagamento finora. Il primo pagamento di ${amount} è dovuto il ${on}: pagato, la prova si converte e la fattura viene emessa.`,
  markPaid: 'Segna come pagato',
} as const;

const tones: Record<TrialState, string> = {
  running: 'bg-violet-50 text-violet-700 ring-1 ring-inset ring-violet-600/20',
  converted: 'bg-emerald-50 text-emerald-700 ring-1 ring-inset ring-emerald-600/20',
  expired: 'bg-slate-100 text-slate-600 ring-1 ring-inset ring-slate-500/20',
};

export function TrialBadge({
  state,
  endsAt,
}: {
  state: TrialState | null | undefined;
  endsAt: string | null | undefined;
}) {
  if (!state || !endsAt) return null;
  const label = state === 'running' ? trialText.running(formatDate(endsAt)) : trialText[state];
  return (
    <span className={`badge ${tones[state]}`} data-testid="trial-badge">
      {label}
    </span>
  );
}

/**
 * A running trial on the subscription's page: when it ends and what is due then, with 'Segna come
 * pagato' for a first payment received by bank transfer (the collection's dialog: it converts the
 * trial and issues the invoice). A provider payment comes through the reminder's payment link.
 */
export function TrialPanel({ sub }: { sub: Subscription }) {
  const [paying, setPaying] = useState(false);
  const first = sub.payments.find((p) => p.periodStart === sub.trialEndsAt && !p.paidAt);
  if (sub.trialState !== 'running' || !sub.trialEndsAt || !first) return null;
  const payment: OverduePayment = {
    paymentId: first.id,
    subscriptionId: sub.id,
    customer: { id: sub.user.id, name: sub.user.name, email: sub.user.email },
    plan: { id: sub.plan.id, name: sub.plan.name },
    amountDue: first.amountDue,
    method: null,
    dueDate: sub.trialEndsAt.slice(0, 10),
    daysOverdue: 0,
    bucket: '0-7',
    step: null,
    lastReminderAt: null,
    graceEndsOn: sub.trialEndsAt.slice(0, 10),
  };
  return (
    <section
      className="card mb-6 flex flex-col gap-3 border-violet-200 bg-violet-50/40 p-5 sm:flex-row sm:items-center sm:justify-between"
      aria-label={trialText.panel}
    >
      <div className="min-w-0">
        <h2 className="text-base font-semibold text-slate-900">
          {trialText.running(formatDate(sub.trialEndsAt))}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {trialText.due(formatCurrency(first.amountDue), formatDate(sub.trialEndsAt))}
        </p>
      </div>
      <button type="button" className="btn-secondary min-h-11 shrink-0" onClick={() => setPaying(true)}>
        {trialText.markPaid}
      </button>
      {paying && <MarkPaidDialog payment={payment} onClose={() => setPaying(false)} />}
    </section>
  );
}
