import { useState } from 'react';
import { fromCents, sumCents, toCents } from '../../../contract/money';
import { messages } from '../../../contract/messages';
import type { BankTransfer, Subscription } from '../../../contract/schemas/subscription';
import { billingValidationMessages } from '../../../contract/validation/italian';
import { confirmDelete } from '../../components/confirm-delete';
import { ExportMenu } from '../../components/export-menu';
import { EuroInput } from '../../components/fields/euro-input';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { PencilIcon, PlusIcon, TrashIcon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { Skeleton } from '../../components/skeleton';
import { formatCurrency } from '../../lib/formatters';
import { failureMessage } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { useDeleteBankTransfer } from './api/delete-bank-transfer';
import { useSaveBankTransfer } from './api/save-bank-transfer';
import { useBankTransferInstructions, useBankTransfers } from './api/subscription-queries';
import {
  euroInputValue,
  formatCents,
  formatDateTime,
  parseEuroInput,
  toDateTimeLocal,
} from './billing-format';
import { splitFieldErrors } from '../../lib/form-errors';
import { subscriptionText } from './subscription-text';

const t = subscriptionText.transfers;
const inline = messages.inlineTable;

interface Draft {
  id?: number;
  amount: string;
  approvalDate: string;
}
interface DraftErrors {
  amount?: string;
  approvalDate?: string;
  general?: string[];
}

const centsOf = (euros: number) => {
  try {
    return toCents(euros);
  } catch {
    return 0;
  }
};

/**
 * 'Gestisci bonifici' (spec §4 BankTransferPending, §8 inline table): where to pay (the
 * instructions), the transfers recorded for the subscription's payment with add, edit and delete
 * in place, and how much is approved against the amount due.
 */
export function BankTransferModal({
  subscription,
  onClose,
}: {
  subscription: Subscription;
  onClose: () => void;
}) {
  const payment = subscription.payments?.[0] ?? null;
  const customer = subscription.user?.name || subscription.user?.email || '';
  return (
    <Modal
      title={t.title}
      description={[customer, subscription.plan?.name].filter(Boolean).join(' · ') || undefined}
      onClose={onClose}
      size="lg"
      footer={
        <button type="button" className="btn-secondary" onClick={onClose}>
          {subscriptionText.close}
        </button>
      }
    >
      <Instructions subscriptionId={subscription.id} />
      {payment ? (
        <Transfers
          paymentId={payment.id}
          fallbackDue={payment.amountDue ?? subscription.amountDue}
          subscriptionId={subscription.id}
        />
      ) : (
        <p className="mt-4 text-sm text-slate-500">{t.noPayment}</p>
      )}
    </Modal>
  );
}

function Instructions({ subscriptionId }: { subscriptionId: number }) {
  const q = useBankTransferInstructions(subscriptionId);
  if (q.isPending) {
    return (
      <div
        className="grid gap-3 rounded-xl bg-slate-50 p-4 sm:grid-cols-2"
        aria-label={t.instructionsTitle}
        role="status"
      >
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-9 w-full" />
        ))}
      </div>
    );
  }
  if (q.isError || !q.data) {
    return (
      <div role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-800">
        {failureMessage(q.error, messages.http.loadError)}
      </div>
    );
  }
  const i = q.data;
  const item = (label: string, value: string, mono = false) => (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className={`mt-0.5 text-sm break-all text-slate-900 ${mono ? 'font-mono' : 'font-medium'}`}>
        {value}
      </dd>
    </div>
  );
  return (
    <section
      aria-label={t.instructionsTitle}
      className="rounded-xl border border-blue-100 bg-gradient-to-br from-sky-50 to-indigo-50 p-4"
    >
      <h3 className="mb-3 text-sm font-semibold text-slate-900">{t.instructionsTitle}</h3>
      <dl className="grid gap-3 sm:grid-cols-2">
        {item(t.beneficiary, i.beneficiary)}
        {item(t.iban, i.iban, true)}
        {item(t.amountDue, formatCurrency(i.amountDue))}
        {item(t.causale, i.causale, true)}
      </dl>
    </section>
  );
}

function Transfers({
  paymentId,
  fallbackDue,
  subscriptionId,
}: {
  paymentId: number;
  fallbackDue: number;
  subscriptionId: number;
}) {
  const saveTransfer = useSaveBankTransfer();
  const deleteTransfer = useDeleteBankTransfer();
  const instructions = useBankTransferInstructions(subscriptionId);
  const list = useBankTransfers(paymentId);
  const rows = list.data?.items ?? [];
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [busy, setBusy] = useState(false);

  const dueCents = centsOf(instructions.data?.amountDue ?? fallbackDue);
  const approvedCents = sumCents(rows.filter((r) => r.approvalDate).map((r) => centsOf(r.amount)));
  const registeredCents = sumCents(rows.map((r) => centsOf(r.amount)));
  const percent = dueCents > 0 ? Math.min(100, Math.round((approvedCents / dueCents) * 100)) : 0;

  const startAdd = () => {
    setErrors({});
    setDraft({ amount: '', approvalDate: '' });
  };
  const startEdit = (row: BankTransfer) => {
    setErrors({});
    setDraft({
      id: row.id,
      amount: euroInputValue(row.amount),
      approvalDate: toDateTimeLocal(row.approvalDate),
    });
  };
  const cancelEdit = () => {
    setErrors({});
    setDraft(null);
  };

  async function save() {
    if (!draft) return;
    const cents = parseEuroInput(draft.amount);
    if (cents === null || cents <= 0) {
      setErrors({ amount: billingValidationMessages.amountInvalid });
      return;
    }
    setBusy(true);
    try {
      // Resolves once the transfers and the subscriptions are refreshed.
      await saveTransfer.mutateAsync({
        ...(draft.id ? { id: draft.id } : {}),
        paymentId,
        amount: fromCents(cents),
        approvalDate: draft.approvalDate || null,
      });
      notify.success(inline.saved);
      setDraft(null);
      setErrors({});
    } catch (error) {
      // Toasted once by the query client; the server's field errors go on their fields.
      const split = splitFieldErrors(error, ['amount', 'approvalDate']);
      setErrors({ ...split.fields, general: split.general });
    } finally {
      setBusy(false);
    }
  }

  async function remove(row: BankTransfer) {
    if (!(await confirmDelete())) return;
    setBusy(true);
    try {
      await deleteTransfer.mutateAsync(row.id);
      notify.success(inline.deleted);
      if (draft?.id === row.id) setDraft(null);
    } catch {
      // Toasted once by the query client.
    } finally {
      setBusy(false);
    }
  }

  const editor = (
    <tr key="editor" className="bg-blue-50/40">
      <td colSpan={3} className="px-3 py-3">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          className="grid gap-3 sm:grid-cols-[1fr_1.3fr_auto] sm:items-start"
        >
          <FieldShell label={t.amount} required error={errors.amount}>
            {(control) => (
              <EuroInput
                {...control}
                error={errors.amount}
                placeholder="0,00"
                value={draft?.amount ?? ''}
                onChange={(e) => setDraft((d) => (d ? { ...d, amount: e.target.value } : d))}
              />
            )}
          </FieldShell>
          <FieldShell label={t.approvalDate} error={errors.approvalDate} hint={t.approvalHint}>
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                className={inputClass(errors.approvalDate)}
                max={toDateTimeLocal(new Date().toISOString())}
                value={draft?.approvalDate ?? ''}
                onChange={(e) => setDraft((d) => (d ? { ...d, approvalDate: e.target.value } : d))}
              />
            )}
          </FieldShell>
          <div className="flex gap-2 sm:mt-6">
            <button type="submit" className="btn-primary flex-1 sm:flex-none" disabled={busy}>
              {t.save}
            </button>
            <button type="button" className="btn-secondary flex-1 sm:flex-none" onClick={cancelEdit}>
              {t.cancel}
            </button>
          </div>
          {errors.general && errors.general.length > 0 && (
            <ul role="alert" className="text-sm text-red-600 sm:col-span-3">
              {errors.general.map((g, i) => (
                <li key={i}>{g}</li>
              ))}
            </ul>
          )}
        </form>
      </td>
    </tr>
  );

  const th = 'px-3 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase';

  return (
    <section className="mt-5 space-y-4" aria-label={t.tableLabel}>
      <div className="rounded-xl border border-slate-200 p-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-sm text-slate-600">
            {t.approvedOf}{' '}
            <strong className="text-base text-slate-900 tabular-nums" data-testid="approved-total">
              {formatCents(approvedCents)}
            </strong>{' '}
            / <span className="tabular-nums">{formatCents(dueCents)}</span>
          </p>
          <p className="text-xs text-slate-500">
            {t.registered}: <span className="tabular-nums">{formatCents(registeredCents)}</span>
          </p>
        </div>
        <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
          <div
            className={`h-full rounded-full transition-all ${approvedCents >= dueCents && dueCents > 0 ? 'bg-emerald-500' : 'bg-gradient-to-r from-sky-500 to-indigo-500'}`}
            style={{ width: `${percent}%` }}
          />
        </div>
        <p className="mt-2 text-xs text-slate-500">
          {approvedCents >= dueCents && dueCents > 0 ? (
            <span className="font-medium text-emerald-700">{t.covered}</span>
          ) : (
            <>
              {t.remaining}:{' '}
              <span className="tabular-nums">{formatCents(Math.max(0, dueCents - approvedCents))}</span>
            </>
          )}
        </p>
      </div>

      <div className="flex min-h-9 items-center justify-between gap-3">
        <h3 className="text-sm font-semibold text-slate-900">{t.tableLabel}</h3>
        {rows.length > 0 && (
          <ExportMenu path="BankTransfer/export" params={{ paymentId }} fileName={t.exportFileName} />
        )}
      </div>
      <div className="-mt-2 overflow-hidden rounded-xl border border-slate-200">
        <table
          className="w-full table-fixed divide-y divide-slate-200 text-sm"
          aria-label={t.tableLabel}
          aria-busy={busy || list.isFetching || undefined}
        >
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={`${th} w-[34%] text-right`}>
                {t.amount}
              </th>
              <th scope="col" className={`${th} text-left`}>
                {t.approvalDate}
              </th>
              <th scope="col" className={`${th} w-24 text-right`}>
                <span className="sr-only">{messages.common.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.isPending ? (
              <tr>
                <td colSpan={3} className="px-3 py-3">
                  <Skeleton className="h-5 w-full" />
                </td>
              </tr>
            ) : rows.length === 0 && !draft ? (
              <tr>
                <td colSpan={3} className="px-3 py-8 text-center text-sm text-slate-500">
                  {t.empty}
                </td>
              </tr>
            ) : (
              rows.map((row) =>
                draft?.id === row.id ? (
                  editor
                ) : (
                  <tr key={row.id}>
                    <td className="px-3 py-2 text-right font-medium text-slate-900 tabular-nums">
                      {formatCurrency(row.amount)}
                    </td>
                    <td className="px-3 py-2 text-slate-700">
                      {row.approvalDate ? (
                        <span className="tabular-nums">{formatDateTime(row.approvalDate)}</span>
                      ) : (
                        <span className="badge bg-amber-50 text-amber-800 ring-1 ring-amber-600/20 ring-inset">
                          {t.notApproved}
                        </span>
                      )}
                    </td>
                    <td className="px-1 py-1 text-right whitespace-nowrap">
                      <button
                        type="button"
                        className="icon-btn"
                        aria-label={`${t.edit} ${formatCurrency(row.amount)}`}
                        title={t.edit}
                        disabled={busy}
                        onClick={() => startEdit(row)}
                      >
                        <PencilIcon />
                      </button>
                      <button
                        type="button"
                        className="icon-btn hover:bg-red-50 hover:text-red-600"
                        aria-label={`${t.remove} ${formatCurrency(row.amount)}`}
                        title={t.remove}
                        disabled={busy}
                        onClick={() => void remove(row)}
                      >
                        <TrashIcon />
                      </button>
                    </td>
                  </tr>
                ),
              )
            )}
            {draft && draft.id === undefined && editor}
          </tbody>
        </table>
      </div>
      {!draft && (
        <button
          type="button"
          className="btn-secondary w-full sm:w-auto"
          onClick={startAdd}
          disabled={busy || list.isPending}
        >
          <PlusIcon />
          {t.add}
        </button>
      )}
    </section>
  );
}
