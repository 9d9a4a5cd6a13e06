import { useCallback, useEffect, useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { SubscriptionStatus } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { collectionStateLabel } from '../../../contract/schemas/collection';
import type { Subscription } from '../../../contract/schemas/subscription';
import { isEditable } from '../../../contract/subscription-status';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { SearchableSelect } from '../../components/fields/searchable-select';
import { DataTable } from '../../components/data-table';
import { ArrowLeftIcon, ClockIcon, RefreshIcon } from '../../components/icons';
import { confirmAction } from '../../components/confirm-delete';
import { adminPlanChangeApi, useCancelPlanChange } from './api/change-plan';
import { canChangePlan, PlanChangeDialog } from '../../entities/subscription/plan-change-dialog';
import { planChangeText as pc } from '../../entities/subscription/plan-change-text';
import { Skeleton } from '../../components/skeleton';
import { uiText } from '../../components/ui-text';
import { subscriptionResource } from '../../entities/subscription/subscription.resource';
import { useCan } from '../../lib/access';
import { entityHooks } from '../../lib/entity-hooks';
import { formatCurrency, formatDate, NOT_AVAILABLE } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import type { ColumnDef } from '../../lib/resource';
import { useUpdateSubscription } from './api/save-subscription';
import { euroInputValue, percentInputValue } from './billing-format';
import { splitFieldErrors } from '../../lib/form-errors';
import { PriceFields } from './price-fields';
import { subscriptionActionTable, useActionAllowed, useSubscriptionActions } from './subscription-actions';
import { PICKER_PAGE_SIZE, usePlanPrefill } from './subscription-create-page';
import {
  subscriptionBody,
  subscriptionFormKeys,
  updateResolver,
  type SubscriptionFormOutput,
  type SubscriptionFormValues,
} from './subscription-form';
import { PaymentCollectionDialog, paymentCollectionText } from './payment-collection';
import { SubscriptionHistory } from './subscription-history';
import { PauseCollectionCard } from './pause-collection';
import { OneOffChargesCard } from './one-off-charges';
import { SubscriptionCoupon } from './subscription-coupon';
import { SubscriptionStatusBadge } from './subscription-status-badge';
import { TrialBadge, TrialPanel, trialText } from './trial-badge';
import { hasOverduePayment, OverdueMarker } from '../../components/cell-value';
import { subscriptionText as t } from './subscription-text';

/**
 * /subscription/{id} (spec §2): the subscription's form (customer and start date fixed after
 * create, next billing date read-only, plan and price editable only while NotActive), its status,
 * the actions it allows now, its payments and its history.
 */
export function SubscriptionDetailPage({ id }: { id: number }) {
  // A load failure is toasted once by the error path (spec §8).
  const detail = entityHooks(subscriptionResource).useDetail(id, {
    meta: {
      errorMessage: messages.http.loadError,
      toastId: `load-subscription-${id}`,
      logLabel: `Errore nel recupero della sottoscrizione ${id}:`,
    },
  });
  const sub = detail.data as Subscription | null | undefined;
  const can = useCan();
  const allowed = useActionAllowed();
  const { run, dialogs, pending } = useSubscriptionActions();

  // Empty data toast (spec §8), once.
  useEffect(() => {
    if (detail.isSuccess && detail.data === null) {
      notify.warning(messages.http.noData, { toastId: `empty-subscription-${id}` });
    }
  }, [detail.isSuccess, detail.data, id]);

  const rows = sub ? subscriptionActionTable.filter((row) => allowed(row.action, sub)) : [];
  const actions = rows.map((row) => row.action);
  // 'Cambia piano' (issue 30): Admins, on a live subscription whose period is paid.
  const canManage = can('subscription', 'manage');
  const showChangePlan = Boolean(sub && canManage && canChangePlan(sub));
  const [changeOpen, setChangeOpen] = useState(false);
  const closeChange = useCallback(() => setChangeOpen(false), []);
  const cancelChange = useCancelPlanChange();
  async function cancelScheduled(id: number) {
    const ok = await confirmAction({
      title: pc.confirmCancelScheduled.title,
      text: pc.confirmCancelScheduled.text,
      confirmText: pc.confirmCancelScheduled.confirm,
      cancelText: pc.confirmCancelScheduled.cancel,
    });
    if (!ok) return;
    try {
      const res = await cancelChange.mutateAsync(id);
      if (res.message) notify.success(res.message);
    } catch {
      // toasted by the query client
    }
  }

  // Just created (`?offerLink=1`): the payment link is offered at once, once.
  const [params, setParams] = useSearchParams();
  const offerLink = params.get('offerLink') === '1';
  const canOffer = Boolean(sub && actions.includes('paymentLink'));
  useEffect(() => {
    if (!offerLink || !sub) return;
    setParams(
      (p) => {
        p.delete('offerLink');
        return p;
      },
      { replace: true },
    );
    const offer = subscriptionActionTable.find((row) => row.action === 'paymentLink');
    if (canOffer && offer) void run(offer, sub);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [offerLink, sub, canOffer]);
  const customer = sub ? sub.user?.name || sub.user?.email || NOT_AVAILABLE : '';

  return (
    <div className="mx-auto w-full max-w-6xl">
      <div className="mb-6">
        <Link
          to="/subscription"
          className="mb-2 inline-flex items-center gap-1.5 text-sm text-slate-500 hover:text-slate-900"
        >
          <ArrowLeftIcon />
          {t.listTitle}
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="page-title">{t.editTitle}</h1>
          {sub && (
            <SubscriptionStatusBadge status={sub.subscriptionStatus} name={sub.subscriptionStatusName} />
          )}
          {sub && <TrialBadge state={sub.trialState} endsAt={sub.trialEndsAt} />}
          {sub && hasOverduePayment(sub as unknown as Record<string, unknown>) && <OverdueMarker />}
        </div>
        {sub && (
          <p className="mt-1 text-sm text-slate-500">
            {customer} · {sub.plan?.name ?? NOT_AVAILABLE} · {formatCurrency(sub.amountDue)}
          </p>
        )}
      </div>
      {sub && <TrialPanel sub={sub} />}

      {detail.isPending ? (
        <div className="card space-y-4 p-6" role="status" aria-label={uiText.loadingForm}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      ) : !sub ? (
        <div className="card p-6 text-sm text-slate-500">{uiText.loadFailed}</div>
      ) : (
        <>
          <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
            <div className="min-w-0 space-y-6">
              <EditForm
                key={sub.id}
                sub={sub}
                canEdit={can('subscription', 'manage') && isEditable(sub.subscriptionStatus)}
              />
            </div>
            <div className="min-w-0 space-y-6">
              <section className="card p-5" aria-labelledby="subscription-actions-title">
                <h2 id="subscription-actions-title" className="text-base font-semibold text-slate-900">
                  {t.actionsTitle}
                </h2>
                {sub.subscriptionStatus === SubscriptionStatus.NotActive &&
                  (actions.includes('paymentLink') || actions.includes('setBankTransfer')) && (
                    <div className="mt-3 rounded-lg border border-blue-100 bg-blue-50 p-3 text-sm text-blue-900">
                      <p className="font-semibold">{t.nextStepTitle}</p>
                      <p className="mt-0.5">{t.nextStepText}</p>
                    </div>
                  )}
                {(sub.creditBalance ?? 0) > 0 && (
                  <div
                    className="mt-3 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
                    data-testid="subscription-credit"
                  >
                    <p className="font-semibold">{pc.creditBalance(formatCurrency(sub.creditBalance))}</p>
                    <p className="mt-0.5">{sub.creditSetOff === false ? pc.creditPayPal : pc.creditSetOff}</p>
                  </div>
                )}
                {sub.paypalPlanChangeApproval && (
                  <div
                    className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
                    data-testid="subscription-paypal-plan-change"
                  >
                    <p className="font-semibold">
                      Il cambio al piano «{sub.paypalPlanChangeApproval.planName}» attende l’approvazione del
                      cliente su PayPal
                    </p>
                    <p className="mt-0.5">
                      Finché il cliente non lo approva, PayPal continua ad addebitare il piano precedente. Il
                      cliente ha ricevuto il link per e-mail e lo trova nella sua area clienti.
                    </p>
                  </div>
                )}
                {sub.scheduledPlanChange && (
                  <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
                    <p className="font-semibold">
                      {pc.scheduled(
                        formatDate(sub.scheduledPlanChange.effectiveDay),
                        sub.scheduledPlanChange.planName,
                      )}
                    </p>
                    {canManage && (
                      <button
                        type="button"
                        className="btn-secondary mt-2 w-full justify-center"
                        disabled={cancelChange.isPending}
                        onClick={() => void cancelScheduled(sub.id)}
                      >
                        {pc.cancelScheduled}
                      </button>
                    )}
                  </div>
                )}
                {actions.length === 0 && !showChangePlan ? (
                  sub.scheduledPlanChange ? null : (
                    <p className="mt-2 text-sm text-slate-500">{t.noActions}</p>
                  )
                ) : (
                  <div className="mt-3 flex flex-col gap-2">
                    {showChangePlan && (
                      <button
                        type="button"
                        className="btn-primary justify-start"
                        disabled={pending}
                        onClick={() => setChangeOpen(true)}
                      >
                        <RefreshIcon />
                        {pc.action}
                      </button>
                    )}
                    {rows.map((row) => (
                      <button
                        key={row.action}
                        type="button"
                        className={`btn-${row.tone} justify-start`}
                        disabled={pending}
                        onClick={() => void run(row, sub)}
                      >
                        {row.icon}
                        {row.label}
                      </button>
                    ))}
                  </div>
                )}
              </section>
              <PauseCollectionCard sub={sub} canManage={can('subscription', 'manage')} />
              <OneOffChargesCard sub={sub} canManage={can('subscription', 'manage')} />
              <SubscriptionCoupon sub={sub} canApply={can('subscription', 'manage')} />
              <section className="card p-5" aria-labelledby="subscription-history-title">
                <h2 id="subscription-history-title" className="mb-4 text-base font-semibold text-slate-900">
                  {t.historyTitle}
                </h2>
                <SubscriptionHistory entries={sub.history ?? []} />
              </section>
            </div>
          </div>
          {/* The payments take the page's width: their collection columns need it. */}
          <Payments sub={sub} />
        </>
      )}
      {dialogs}
      {changeOpen && sub && <PlanChangeDialog sub={sub} onClose={closeChange} api={adminPlanChangeApi} />}
    </div>
  );
}

function EditForm({ sub, canEdit }: { sub: Subscription; canEdit: boolean }) {
  const navigate = useNavigate();
  const update = useUpdateSubscription();
  const [general, setGeneral] = useState<string[]>([]);
  const form = useForm<SubscriptionFormValues, unknown, SubscriptionFormOutput>({
    resolver: updateResolver,
    defaultValues: {
      userId: null,
      planId: sub.planID ?? sub.plan?.id ?? null,
      paymentAmount: typeof sub.costBeforeVAT === 'number' ? euroInputValue(sub.costBeforeVAT) : '',
      vatPercentage: typeof sub.vatPercentage === 'number' ? percentInputValue(sub.vatPercentage) : '',
    },
  });
  const { errors } = form.formState;
  const planId = useController({ control: form.control, name: 'planId' });
  const cost = useController({ control: form.control, name: 'paymentAmount' });
  const vat = useController({ control: form.control, name: 'vatPercentage' });
  const plan = usePlanPrefill(canEdit ? planId.field.value : null, sub.planID ?? null, (c, v) => {
    form.setValue('paymentAmount', c);
    form.setValue('vatPercentage', v);
  });

  const submit = form.handleSubmit(async (out) => {
    if (!canEdit) return;
    setGeneral([]);
    try {
      await update.mutateAsync({ id: sub.id, ...subscriptionBody(out) });
      notify.success(messages.http.updated);
    } catch (error) {
      // Toasted once by the query client; the server's field errors go on their fields.
      const split = splitFieldErrors(error, subscriptionFormKeys);
      for (const key of subscriptionFormKeys) {
        const message = split.fields[key];
        if (message) form.setError(key, { type: 'server', message });
      }
      setGeneral(split.general);
    }
  });

  const readOnlyField = (label: string, value: string) => (
    <FieldShell label={label}>
      {(control) => <input {...control} className={inputClass()} value={value} readOnly disabled />}
    </FieldShell>
  );

  return (
    <form className="card" noValidate onSubmit={(e) => void submit(e)} aria-label={t.editTitle}>
      <div className="space-y-6 p-6">
        <div className="grid gap-5 sm:grid-cols-2">
          {readOnlyField(
            t.fields.user,
            sub.user?.name ? `${sub.user.name} (${sub.user.email})` : (sub.user?.email ?? NOT_AVAILABLE),
          )}
          {!canEdit ? (
            readOnlyField(t.fields.plan, sub.plan?.name ?? NOT_AVAILABLE)
          ) : (
            <FieldShell label={t.fields.plan} required error={errors.planId?.message}>
              {(control) => (
                <SearchableSelect
                  id={control.id}
                  entity="plan"
                  pageSize={PICKER_PAGE_SIZE}
                  value={planId.field.value}
                  onChange={planId.field.onChange}
                  disabled={!canEdit}
                  noOptionsText={messages.subscription.noPlans}
                  invalid={Boolean(errors.planId)}
                  describedBy={control['aria-describedby']}
                  filters={{ isActive: true }}
                  loadOnOpen
                />
              )}
            </FieldShell>
          )}
          {readOnlyField(t.fields.startDate, formatDate(sub.startDate))}
          {readOnlyField(t.fields.nextBillingDate, formatDate(sub.nextBillingDate))}
          {sub.trialEndsAt && readOnlyField(trialText.endsAt, formatDate(sub.trialEndsAt))}
        </div>
        <PriceFields
          cost={cost.field.value}
          vat={vat.field.value}
          onCostChange={cost.field.onChange}
          onVatChange={vat.field.onChange}
          errors={{ cost: errors.paymentAmount?.message, vat: errors.vatPercentage?.message }}
          readOnly={!canEdit}
          recurrenceName={plan?.recurrenceTypeName ?? sub.plan?.recurrenceTypeName}
        />
        {!canEdit && <p className="text-xs text-slate-500">{t.lockedNote}</p>}
        {general.length > 0 && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-700">
            {general.map((g, i) => (
              <p key={i}>{g}</p>
            ))}
          </div>
        )}
      </div>
      <div className="flex flex-col-reverse gap-2 border-t border-slate-100 bg-slate-50/60 px-6 py-4 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={() => void navigate(-1)}>
          {messages.common.back}
        </button>
        {canEdit && (
          <button type="submit" className="btn-primary" disabled={form.formState.isSubmitting}>
            {messages.common.save}
          </button>
        )}
      </div>
    </form>
  );
}

const paymentColumns: ColumnDef[] = [
  { key: 'amountDue', name: t.payment.amount, type: 'currency', align: 'right' },
  { key: 'causale', name: t.payment.causale },
  { key: 'period', name: t.payment.period },
  { key: 'due', name: paymentCollectionText.dueDate },
  { key: 'paid', name: t.payment.paidAt },
  { key: 'methodName', name: t.payment.method },
  { key: 'collection', name: paymentCollectionText.status },
];

/** The subscription's payments: a table, or cards on a phone (the shared DataTable). */
function Payments({ sub }: { sub: Subscription }) {
  const [history, setHistory] = useState<{ id: number; causale: string; paid: boolean } | null>(null);
  const closeHistory = useCallback(() => setHistory(null), []);
  const rows = (sub.payments ?? []).map((p) => ({
    id: p.id,
    amountDue: p.amountDue,
    causale: p.causale,
    period: `${formatDate(p.periodStart)} – ${formatDate(p.periodEnd)}`,
    due: formatDate(p.dueDate),
    paid: p.paidAt ? formatDate(p.paidAt) : t.payment.notPaid,
    methodName: (p.method && t.methods[p.method]) || null,
    collection: collectionStateLabel(p.collectionStatus, p.paidAt !== null),
  }));
  const renderActions = (row: { id?: unknown }) => {
    const p = (sub.payments ?? []).find((x) => x.id === row.id);
    if (!p) return null;
    return (
      <button
        type="button"
        className="icon-btn"
        aria-label={`${paymentCollectionText.history}: ${p.causale}`}
        title={paymentCollectionText.history}
        onClick={() => setHistory({ id: p.id, causale: p.causale, paid: p.paidAt !== null })}
      >
        <ClockIcon className="h-4 w-4" />
      </button>
    );
  };
  return (
    <section className="card overflow-hidden" aria-labelledby="subscription-payments-title">
      <h2 id="subscription-payments-title" className="px-5 pt-5 pb-3 text-base font-semibold text-slate-900">
        {t.paymentsTitle}
      </h2>
      {rows.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-slate-500">{t.paymentsEmpty}</p>
      ) : (
        <DataTable
          label={t.paymentsTitle}
          columns={paymentColumns}
          rows={rows}
          isLoading={false}
          renderActions={renderActions}
        />
      )}
      {history && (
        <PaymentCollectionDialog
          paymentId={history.id}
          causale={history.causale}
          paid={history.paid}
          onClose={closeHistory}
        />
      )}
    </section>
  );
}
