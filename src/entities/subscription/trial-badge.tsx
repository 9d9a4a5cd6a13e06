/**
 * A subscription's free trial (issue 30) beside its status: running until its end, converted by
 * the first payment, or ended unpaid — the Admin's subscription page and the customer's area say
 * it alike. Nothing for a subscription without a trial.
 */
import type { TrialState } from '../../../contract/schemas/subscription';
import { formatDate } from '../../lib/formatters';

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
  dialog: (amount: string) =>
    `Registra il bonifico del primo pagamento (${amount}): la prova si converte e la fattura viene emessa.`,
  date: 'Data di ricezione del bonifico',
  cancel: 'Annulla',
  paid: 'Pagamento registrato: prova convertita.',
  failed: 'Non è stato possibile registrare il pagamento. Riprova.',
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
