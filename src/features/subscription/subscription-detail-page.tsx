import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { apiPaths } from '../../../contract/api-paths';
import { Role, SubscriptionStatus } from '../../../contract/enums';
import { fromCents } from '../../../contract/money';
import { messages } from '../../../contract/messages';
import type { Subscription } from '../../../contract/schemas/subscription';
import { isEditable } from '../../../contract/subscription-status';
import { billingValidationMessages as bm } from '../../../contract/validation/italian';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { SearchableSelect } from '../../components/fields/searchable-select';
import { DataTable } from '../../components/data-table';
import { ArrowLeftIcon } from '../../components/icons';
import { Skeleton } from '../../components/skeleton';
import { uiText } from '../../components/ui-text';
import { subscriptionResource } from '../../entities/subscription/subscription.resource';
import { entityHooks, unwrap } from '../../lib/entity-hooks';
import { formatCurrency, formatDate, NOT_AVAILABLE } from '../../lib/formatters';
import { http } from '../../lib/http';
import { isHandledByInterceptor } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { useSession } from '../../lib/session';
import type { ColumnDef } from '../../lib/resource';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { euroInputValue, parseEuroInput, parsePercentInput, percentInputValue } from './billing-format';
import { PriceFields } from './price-fields';
import { PICKER_PAGE_SIZE, usePlanPrefill } from './subscription-create-page';
import { actionsOf, splitFieldErrors, useInvalidateSubscriptions } from './subscription-api';
import { SubscriptionHistory } from './subscription-history';
import { SubscriptionStatusBadge } from './subscription-status-badge';
import { subscriptionText as t } from './subscription-text';
import { actionDefs, useSubscriptionActions } from './use-subscription-actions';

/**
 * /subscription/{id} (spec §2): the subscription's form (customer and start date fixed after
 * create, next billing date read-only, plan and price editable only while NotActive), its status,
 * the actions it allows now, its payments and its history.
 */
export function SubscriptionDetailPage({ id }: { id: number }) {
  const detail = entityHooks(subscriptionResource).useDetail(id);
  const sub = detail.data as Subscription | null | undefined;
  const role = useSession()?.user.role ?? null;
  const { run, dialogs, pending } = useSubscriptionActions();

  // Load failure / empty data toasts (spec §8), once per failure.
  useEffect(() => {
    if (detail.isError) {
      console.error(`Errore nel recupero della sottoscrizione ${id}:`, detail.error);
      notify.error(messages.http.loadError, { toastId: `load-subscription-${id}` });
    } else if (detail.isSuccess && detail.data === null) {
      notify.warning(messages.http.noData, { toastId: `empty-subscription-${id}` });
    }
  }, [detail.isError, detail.isSuccess, detail.data, detail.error, id]);

  const actions = sub ? actionsOf(sub, role) : [];

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
    if (canOffer) void run('paymentLink', sub);
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
        </div>
        {sub && (
          <p className="mt-1 text-sm text-slate-500">
            {customer} · {sub.plan?.name ?? NOT_AVAILABLE} · {formatCurrency(sub.amountDue)}
          </p>
        )}
      </div>

      {detail.isPending ? (
        <div className="card space-y-4 p-6" role="status" aria-label={uiText.loadingForm}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      ) : !sub ? (
        <div className="card p-6 text-sm text-slate-500">{uiText.loadFailed}</div>
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0 space-y-6">
            <EditForm
              key={sub.id}
              sub={sub}
              canEdit={
                (role === Role.Admin || role === Role.SuperAdmin) && isEditable(sub.subscriptionStatus)
              }
            />
            <Payments sub={sub} />
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
              {actions.length === 0 ? (
                <p className="mt-2 text-sm text-slate-500">{t.noActions}</p>
              ) : (
                <div className="mt-3 flex flex-col gap-2">
                  {actionDefs
                    .filter((d) => actions.includes(d.action))
                    .map((d) => (
                      <button
                        key={d.action}
                        type="button"
                        className={`${d.danger ? 'btn-danger' : d.action === 'paymentLink' || d.action === 'confirmActivation' ? 'btn-primary' : 'btn-secondary'} justify-start`}
                        disabled={pending !== null}
                        onClick={() => void run(d.action, sub)}
                      >
                        {d.icon}
                        {d.label}
                      </button>
                    ))}
                </div>
              )}
            </section>
            <section className="card p-5" aria-labelledby="subscription-history-title">
              <h2 id="subscription-history-title" className="mb-4 text-base font-semibold text-slate-900">
                {t.historyTitle}
              </h2>
              <SubscriptionHistory entries={sub.history ?? []} />
            </section>
          </div>
        </div>
      )}
      {dialogs}
    </div>
  );
}

type Errors = { planId?: string; cost?: string; vat?: string; general?: string[] };

function EditForm({ sub, canEdit }: { sub: Subscription; canEdit: boolean }) {
  const navigate = useNavigate();
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  const [planId, setPlanId] = useState<number | null>(sub.planID ?? sub.plan?.id ?? null);
  const [cost, setCost] = useState(
    typeof sub.costBeforeVAT === 'number' ? euroInputValue(sub.costBeforeVAT) : '',
  );
  const [vat, setVat] = useState(
    typeof sub.vatPercentage === 'number' ? percentInputValue(sub.vatPercentage) : '',
  );
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const plan = usePlanPrefill(canEdit ? planId : null, sub.planID ?? null, (c, v) => {
    setCost(c);
    setVat(v);
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!canEdit) return;
    if (planId === null) {
      setErrors({ planId: bm.planRequired });
      return;
    }
    const cents = parseEuroInput(cost);
    const vatHundredths = parsePercentInput(vat);
    if (cents === null || vatHundredths === null) {
      setErrors({
        cost: cents === null ? bm.costInvalid : undefined,
        vat: vatHundredths === null ? bm.vatInvalid : undefined,
      });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await unwrap<Subscription>(
        http.put(
          apiPaths.subscription.update,
          { id: sub.id, planId, paymentAmount: fromCents(cents), vatPercentage: vatHundredths / 100 },
          { tenantId },
        ),
      );
      notify.success(messages.http.updated);
      await invalidate();
    } catch (error) {
      console.error('Errore durante il salvataggio della sottoscrizione:', error);
      if (!isHandledByInterceptor(error)) notify.error(messages.http.saveError);
      const split = splitFieldErrors(error, ['planId', 'paymentAmount', 'vatPercentage']);
      setErrors({
        planId: split.fields.planId,
        cost: split.fields.paymentAmount,
        vat: split.fields.vatPercentage,
        general: split.general,
      });
    } finally {
      setSaving(false);
    }
  }

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
            <FieldShell label={t.fields.plan} required error={errors.planId}>
              {(control) => (
                <SearchableSelect
                  id={control.id}
                  entity="plan"
                  pageSize={PICKER_PAGE_SIZE}
                  value={planId}
                  onChange={setPlanId}
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
        </div>
        <PriceFields
          cost={cost}
          vat={vat}
          onCostChange={setCost}
          onVatChange={setVat}
          errors={{ cost: errors.cost, vat: errors.vat }}
          readOnly={!canEdit}
          recurrenceName={plan?.recurrenceTypeName ?? sub.plan?.recurrenceTypeName}
        />
        {!canEdit && <p className="text-xs text-slate-500">{t.lockedNote}</p>}
        {errors.general && errors.general.length > 0 && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-700">
            {errors.general.map((g, i) => (
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
          <button type="submit" className="btn-primary" disabled={saving}>
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
  { key: 'paid', name: t.payment.paidAt },
  { key: 'methodName', name: t.payment.method },
];

/** The subscription's payments: a table, or cards on a phone (the shared DataTable). */
function Payments({ sub }: { sub: Subscription }) {
  const rows = (sub.payments ?? []).map((p) => ({
    id: p.id,
    amountDue: p.amountDue,
    causale: p.causale,
    period: `${formatDate(p.periodStart)} – ${formatDate(p.periodEnd)}`,
    paid: p.paidAt ? formatDate(p.paidAt) : t.payment.notPaid,
    methodName: (p.method && t.methods[p.method]) || null,
  }));
  return (
    <section className="card overflow-hidden" aria-labelledby="subscription-payments-title">
      <h2 id="subscription-payments-title" className="px-5 pt-5 pb-3 text-base font-semibold text-slate-900">
        {t.paymentsTitle}
      </h2>
      {rows.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-slate-500">{t.paymentsEmpty}</p>
      ) : (
        <DataTable label={t.paymentsTitle} columns={paymentColumns} rows={rows} isLoading={false} />
      )}
    </section>
  );
}
