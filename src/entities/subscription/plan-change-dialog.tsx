/**
 * 'Cambia piano' (issue 30): the new plan (active, any recurrence: another one starts a new period
 * from the change day and moves the billing date, as the preview says), when ('Subito', 'Al
 * prossimo rinnovo' — the default for a cheaper plan — or 'In una data' of the period), the
 * itemised preview the server computes (`changePlan` with `preview: true`: the unused days
 * credited, the new plan's days charged, each document's imponibile, cassa, IVA, ritenuta, the net
 * to pay now, a residual credit, the next periods' amount), then 'Conferma cambio piano'. The
 * server's field errors go on their field; anything else (a provider's 502…) above the buttons and
 * in a toast, and nothing changed.
 */
import { useEffect, useId, useState, type ComponentType } from 'react';
import { addDays, daysBetween, romeDay } from '../../../contract/billing-dates';
import type { PlanChangePreview } from '../../../contract/invoice/plan-change';
import type { Quote } from '../../../contract/invoice/quote';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import { FieldError, FieldShell, inputClass } from '../../components/fields/field-shell';
import { SearchableSelect } from '../../components/fields/searchable-select';
import { CheckIcon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { planResource } from '../plan/plan.resource';
import { entityHooks } from '../../lib/entity-hooks';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { splitFieldErrors } from '../../lib/form-errors';
import { planChangeText as t } from './plan-change-text';

type WhenKind = 'now' | 'renewal' | 'date';
/** The Admin's plan picker loads this many plans per page (as «Crea Sottoscrizione»'s). */
const PICKER_PAGE_SIZE = 100;

/** 'now', 'renewal' or a Rome day YYYY-MM-DD. */
export type PlanChangeWhen = 'now' | 'renewal' | string;

export interface PlanChangeRequest {
  planId: number;
  when: PlanChangeWhen;
}

/** `data` of a change made: the preview's figures and what was written. */
export type PlanChangeResult = PlanChangePreview & {
  status: 'applied' | 'scheduled';
  planChangeId: number;
  prorationPaymentId: number | null;
  creditNote: { id: number; number: string } | null;
  /** A PayPal subscription (issue 30): the link the customer must open to approve the new plan. */
  paypalApproveUrl?: string | null;
};
const FIELDS = ['planId', 'when'] as const;

/** Whether 'Cambia piano' is offered: live (Active/ActiveNoRenewal), its period paid, nothing scheduled. */
export function canChangePlan(sub: Subscription): boolean {
  if (sub.subscriptionStatus !== 1 && sub.subscriptionStatus !== 3) return false;
  if (sub.scheduledPlanChange) return false;
  return (sub.payments ?? []).some((p) => p.periodEnd === sub.nextBillingDate && p.paidAt !== null);
}

/** A plan the customer may choose (the server's list for the customer area). */
export interface PlanChoice {
  id: number;
  name: string;
  recurringCostBeforeVAT: number;
  /** The net to pay of one period for this customer, VAT included. */
  price: number;
  /** The plan's recurrence ('Mensile', 'Annuale'…): its period may differ from the current one. */
  recurrenceTypeName?: string;
}

/**
 * The dialog's calls: the Admin's (`api/subscription/changePlan`, features/subscription, with the
 * plan picker over every active plan of the recurrence) or the customer area's
 * (`api/user/me/subscriptions/{id}/changePlan`) with the plans the server offers it.
 */
export interface PlanChangeApi {
  usePreview: (id: number, body: PlanChangeRequest | null) => UseQueryResult<PlanChangePreview | null>;
  useChange: (
    id: number,
  ) => UseMutationResult<{ data: PlanChangeResult; message: string | null }, Error, PlanChangeRequest>;
  /** The plans offered, as choices; absent: the Admin's searchable plan picker. */
  plans?: PlanChoice[];
  /** The customer changes their own plan: the done step speaks to them. */
  forCustomer?: boolean;
  /**
   * The done step's action for a proration left to pay (not Stripe's): e.g. the Admin's card
   * payment link of that payment (issue 30). Absent: only the transfer's causale.
   */
  ProrationLink?: ComponentType<{ paymentId: number }>;
}

export function PlanChangeDialog({
  sub,
  onClose,
  api,
}: {
  sub: Subscription;
  onClose: () => void;
  api: PlanChangeApi;
}) {
  const [planId, setPlanId] = useState<number | null>(null);
  const [whenKind, setWhenKind] = useState<WhenKind>('now');
  const [whenTouched, setWhenTouched] = useState(false);
  const [date, setDate] = useState('');
  const [confirmError, setConfirmError] = useState<{
    fields: Partial<Record<string, string>>;
    general: string[];
  }>({ fields: {}, general: [] });
  const [done, setDone] = useState<{ data: PlanChangeResult; message: string | null } | null>(null);
  const change = api.useChange(sub.id);
  const whenId = useId();

  // The Admin's picker reads the chosen plan; the customer's choices carry its cost already.
  const plan = entityHooks(planResource).useDetail(api.plans ? null : planId).data as Plan | null | undefined;
  const chosenPlan = api.plans
    ? (api.plans.find((p) => p.id === planId) ?? null)
    : plan && plan.id === planId
      ? plan
      : null;
  // A cheaper plan goes at the next renewal by default; a dearer one now.
  useEffect(() => {
    if (chosenPlan && !whenTouched)
      setWhenKind(chosenPlan.recurringCostBeforeVAT < sub.costBeforeVAT ? 'renewal' : 'now');
  }, [chosenPlan, whenTouched, sub.costBeforeVAT]);

  const today = romeDay(new Date());
  const periodEndDay = romeDay(new Date(sub.nextBillingDate));
  const ready = planId !== null && (whenTouched || chosenPlan !== null);
  const when = whenKind === 'date' ? date : whenKind;
  const body = ready && when !== '' ? { planId, when } : null;
  const preview = api.usePreview(sub.id, body);
  const previewErrors = preview.isError ? splitFieldErrors(preview.error, FIELDS) : null;
  const fieldError = (k: (typeof FIELDS)[number]) =>
    confirmError.fields[k] ?? previewErrors?.fields[k] ?? undefined;
  const general = [...(previewErrors?.general ?? []), ...confirmError.general];
  const data = preview.isError ? null : preview.data;

  const resetErrors = () => setConfirmError({ fields: {}, general: [] });
  const chooseWhen = (kind: WhenKind) => {
    setWhenTouched(true);
    setWhenKind(kind);
    resetErrors();
  };

  async function confirm() {
    if (!body || !data) return;
    resetErrors();
    try {
      const made = await change.mutateAsync(body);
      if (made.data.status === 'scheduled') {
        notify.success(made.message ?? t.scheduledTitle);
        onClose();
      } else {
        notify.success(made.message ?? t.doneTitle);
        setDone(made);
      }
    } catch (error) {
      // Toasted once by the query client; field errors also go on their field.
      setConfirmError(splitFieldErrors(error, FIELDS));
    }
  }

  if (done)
    return (
      <PlanChangeDone
        sub={sub}
        done={done}
        onClose={onClose}
        forCustomer={api.forCustomer ?? false}
        ProrationLink={api.ProrationLink}
      />
    );

  return (
    <Modal
      title={t.title}
      description={t.intro(sub.plan?.name ?? '')}
      onClose={onClose}
      size="lg"
      footer={
        <>
          {data && (
            // What is asked, always in sight while the preview scrolls (top on a phone, left on a desktop).
            <p
              className="order-last self-center text-sm text-slate-600 sm:order-first sm:mr-auto"
              aria-hidden="true"
            >
              {t.netToPay} {data.effective === 'renewal' || data.unusedDays === 0 ? '' : t.netToPayNow}{' '}
              <span className="font-semibold text-slate-900 tabular-nums">{eur(data.netToPay)}</span>
            </p>
          )}
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t.cancel}
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={!data || preview.isFetching || change.isPending}
            onClick={() => void confirm()}
          >
            {change.isPending && (
              <span
                aria-hidden="true"
                className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
              />
            )}
            {t.confirm}
          </button>
        </>
      }
    >
      <div className="space-y-5">
        {api.plans ? (
          <PlanChoices
            plans={api.plans}
            value={planId}
            recurrenceName={sub.plan?.recurrenceTypeName ?? ''}
            error={fieldError('planId')}
            onChange={(v) => {
              setPlanId(v);
              resetErrors();
            }}
          />
        ) : (
          <FieldShell
            label={t.plan}
            required
            error={fieldError('planId')}
            hint={t.planHint(sub.plan?.recurrenceTypeName ?? '')}
          >
            {(control) => (
              <SearchableSelect
                id={control.id}
                entity="plan"
                pageSize={PICKER_PAGE_SIZE}
                value={planId}
                onChange={(v) => {
                  setPlanId(v);
                  resetErrors();
                }}
                placeholder={t.planPlaceholder}
                noOptionsText={t.noPlans}
                invalid={Boolean(fieldError('planId'))}
                describedBy={control['aria-describedby']}
                filters={{ isActive: true }}
                loadOnOpen
              />
            )}
          </FieldShell>
        )}

        <fieldset aria-describedby={fieldError('when') ? `${whenId}-error` : undefined}>
          <legend className="label">{t.when}</legend>
          <div className="mt-1 grid gap-2 sm:grid-cols-3">
            {(
              [
                ['now', t.now, t.nowHint],
                ['renewal', t.renewal, t.renewalHint(formatDate(periodEndDay))],
                ['date', t.date, t.dateHint(formatDate(today), formatDate(periodEndDay))],
              ] as const
            ).map(([kind, label, hint]) => (
              <label
                key={kind}
                className={`flex cursor-pointer gap-2.5 rounded-lg border p-3 text-sm transition-colors ${
                  whenKind === kind
                    ? 'border-blue-500 bg-blue-50/60 ring-1 ring-blue-500'
                    : 'border-slate-200 hover:border-slate-300'
                }`}
              >
                <input
                  type="radio"
                  name={`${whenId}-when`}
                  className="mt-0.5"
                  checked={whenKind === kind}
                  onChange={() => chooseWhen(kind)}
                />
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{label}</span>
                  <span className="mt-0.5 block text-xs text-slate-500">{hint}</span>
                </span>
              </label>
            ))}
          </div>
          {whenKind === 'date' && (
            <div className="mt-3 sm:max-w-xs">
              <label htmlFor={`${whenId}-date`} className="label">
                {t.dateLabel}
              </label>
              <input
                id={`${whenId}-date`}
                type="date"
                className={inputClass(fieldError('when'))}
                min={today}
                max={periodEndDay}
                value={date}
                aria-invalid={Boolean(fieldError('when'))}
                aria-describedby={fieldError('when') ? `${whenId}-error` : undefined}
                onChange={(e) => {
                  setDate(e.target.value);
                  resetErrors();
                }}
              />
            </div>
          )}
          <FieldError id={`${whenId}-error`} message={fieldError('when')} className="mt-1.5" />
        </fieldset>

        {general.length > 0 && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {general.map((g, i) => (
              <p key={i}>{g}</p>
            ))}
          </div>
        )}

        {planId === null ? (
          <p className="rounded-lg border border-dashed border-slate-200 p-4 text-center text-sm text-slate-500">
            {t.choosePlan}
          </p>
        ) : whenKind === 'date' && date === '' ? (
          <p className="rounded-lg border border-dashed border-slate-200 p-4 text-center text-sm text-slate-500">
            {t.chooseDate}
          </p>
        ) : data ? (
          <PlanChangeSummary
            preview={data}
            recurrenceName={sub.plan?.recurrenceTypeName ?? ''}
            loading={preview.isFetching}
          />
        ) : preview.isFetching || (!ready && planId !== null) ? (
          <p className="flex items-center justify-center gap-2 p-4 text-sm text-slate-500" role="status">
            <span
              aria-hidden="true"
              className="h-4 w-4 animate-spin rounded-full border-2 border-slate-200 border-t-slate-500"
            />
            {t.previewLoading}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}

const eur = (n: number) => formatCurrency(n);

/** The customer's choice of plan: one card per plan offered, with its price per period. */
function PlanChoices({
  plans,
  value,
  recurrenceName,
  error,
  onChange,
}: {
  plans: PlanChoice[];
  value: number | null;
  recurrenceName: string;
  error: string | undefined;
  onChange: (id: number) => void;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="label">{t.plan}</legend>
      {plans.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">{t.noPlans}</p>
      ) : (
        <div className="mt-1 grid gap-2 sm:grid-cols-2">
          {plans.map((p) => (
            <label
              key={p.id}
              className={`flex cursor-pointer items-start gap-2.5 rounded-lg border p-3 text-sm transition-colors ${
                value === p.id
                  ? 'border-blue-500 bg-blue-50/60 ring-1 ring-blue-500'
                  : 'border-slate-200 hover:border-slate-300'
              }`}
            >
              <input
                type="radio"
                name={`${id}-plan`}
                className="mt-0.5"
                checked={value === p.id}
                onChange={() => onChange(p.id)}
              />
              <span className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-medium break-words text-slate-900">{p.name}</span>
                <span className="text-slate-600 tabular-nums">
                  {eur(p.price)}
                  {(p.recurrenceTypeName ?? recurrenceName) && (
                    <span className="text-xs text-slate-500">
                      {' '}
                      / {(p.recurrenceTypeName ?? recurrenceName).toLowerCase()}
                    </span>
                  )}
                </span>
              </span>
            </label>
          ))}
        </div>
      )}
      <FieldError id={`${id}-error`} message={error} className="mt-1.5" />
    </fieldset>
  );
}

/** The preview's figures: the change, its lines, each document, what is paid now and next. */
export function PlanChangeSummary({
  preview: p,
  recurrenceName,
  loading = false,
}: {
  preview: PlanChangePreview;
  recurrenceName: string;
  loading?: boolean;
}) {
  const titleId = useId();
  const day = formatDate(p.effectiveDay);
  const lead =
    p.effective === 'renewal' || p.unusedDays === 0
      ? t.effectiveRenewal(day)
      : p.recurrenceChanges
        ? t.effectiveNewPeriod(day, p.unusedDays, p.totalDays, formatDate(addDays(p.nextBillingDate, -1)))
        : p.effective === 'date' && p.effectiveDay > romeDay(new Date())
          ? t.effectiveLater(day, p.unusedDays, p.totalDays)
          : t.effectiveNow(day, p.unusedDays, p.totalDays);
  const immediate = p.effective !== 'renewal' && p.unusedDays > 0;
  return (
    <section
      aria-labelledby={titleId}
      aria-busy={loading}
      className={`rounded-xl border border-slate-200 bg-slate-50/70 p-4 transition-opacity ${loading ? 'opacity-60' : ''}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id={titleId} className="text-sm font-semibold text-slate-900">
          {t.previewTitle}
        </h3>
        <p className="text-sm font-medium text-slate-700">{t.fromTo(p.fromPlan.name, p.toPlan.name)}</p>
      </div>
      <p className="mt-1 text-sm text-slate-600">{lead}</p>

      {immediate && p.lines.length > 0 && (
        <ul
          className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          aria-label={t.linesTitle}
        >
          {p.lines.map((l) => (
            <li key={l.description} className="flex items-start justify-between gap-3 px-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="block break-words text-slate-800">{l.description}</span>
                <span className="block text-xs text-slate-500">
                  {l.amount < 0
                    ? t.lineCredit(daysBetween(l.periodStart, l.periodEnd) + 1)
                    : t.lineCharge(daysBetween(l.periodStart, l.periodEnd) + 1)}
                </span>
              </span>
              <span
                className={`shrink-0 tabular-nums font-medium ${l.amount < 0 ? 'text-emerald-700' : 'text-slate-900'}`}
              >
                {l.amount < 0 ? `− ${eur(-l.amount)}` : eur(l.amount)}
              </span>
            </li>
          ))}
        </ul>
      )}

      {immediate && (p.credit || p.charge) && (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {p.credit && <DocumentFigures title={t.creditDoc} quote={p.credit} negative />}
          {p.charge && <DocumentFigures title={t.chargeDoc} quote={p.charge} />}
        </div>
      )}

      <dl className="mt-3 space-y-1.5 border-t border-slate-200 pt-3 text-sm">
        <div className="flex items-baseline justify-between gap-4 text-base font-semibold">
          <dt className="text-slate-900">
            {t.netToPay}{' '}
            <span className="text-sm font-normal text-slate-500">
              {p.effective === 'date' && p.effectiveDay > romeDay(new Date())
                ? t.netToPayOnDay(day)
                : t.netToPayNow}
            </span>
          </dt>
          <dd className="tabular-nums text-slate-900">{eur(p.netToPay)}</dd>
        </div>
        {p.residualCredit > 0 && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">
              {t.residualCredit} <span className="text-xs text-slate-500">· {t.residualHint}</span>
            </dt>
            <dd className="tabular-nums text-emerald-700">{eur(p.residualCredit)}</dd>
          </div>
        )}
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">{t.nextPeriod(formatDate(p.nextBillingDate))}</dt>
          <dd className="tabular-nums text-slate-900">
            {recurrenceName && !p.recurrenceChanges
              ? t.nextPeriodValue(eur(p.nextPeriod.netToPay), recurrenceName)
              : eur(p.nextPeriod.netToPay)}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function DocumentFigures({
  title,
  quote,
  negative = false,
}: {
  title: string;
  quote: Quote;
  negative?: boolean;
}) {
  const sign = (n: number) => (negative && n > 0 ? `− ${eur(n)}` : eur(n));
  const rows: [string, string][] = [[t.taxable, sign(quote.taxable)]];
  if (quote.cassa > 0) rows.push([t.cassa, sign(quote.cassa)]);
  rows.push([
    quote.natura ? `${t.vat} (${quote.natura})` : `${t.vat} ${quote.lines[0]?.vatPercentage ?? ''} %`,
    sign(quote.vat),
  ]);
  if (quote.bollo > 0) rows.push([t.bollo, sign(quote.bollo)]);
  if (quote.withholding > 0)
    rows.push([t.withholding, negative ? eur(quote.withholding) : `− ${eur(quote.withholding)}`]);
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3" role="group" aria-label={title}>
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</p>
      <dl className="mt-2 space-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-3">
            <dt className="text-slate-600">{label}</dt>
            <dd className="tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
        <div className="flex items-baseline justify-between gap-3 border-t border-slate-100 pt-1 font-medium">
          <dt className="text-slate-700">{t.docNet}</dt>
          <dd className="tabular-nums text-slate-900">{sign(quote.netToPay)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** After the change: what was issued and, if something is to pay, how the proration is collected. */
function PlanChangeDone({
  sub,
  done,
  onClose,
  forCustomer,
  ProrationLink,
}: {
  sub: Subscription;
  done: { data: PlanChangeResult; message: string | null };
  onClose: () => void;
  forCustomer: boolean;
  ProrationLink?: ComponentType<{ paymentId: number }> | undefined;
}) {
  const say = forCustomer ? { ...t, ...t.customer } : t;
  const d = done.data;
  const method = sub.payments?.find((p) => p.periodEnd === sub.nextBillingDate && p.paidAt)?.method ?? null;
  const toPay = d.prorationPaymentId !== null && d.netToPay > 0;
  // The proration's own payment (the page has refreshed): its causale for a bank transfer.
  const proration = sub.payments?.find((p) => p.id === d.prorationPaymentId);
  return (
    <Modal
      title={t.doneTitle}
      onClose={onClose}
      footer={
        <button type="button" className="btn-primary" onClick={onClose}>
          {t.close}
        </button>
      }
    >
      <div className="flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
        <CheckIcon className="mt-0.5 h-5 w-5 shrink-0" />
        <div className="space-y-1">
          <p className="font-semibold">{done.message ?? t.doneTitle}</p>
          {d.creditNote && <p>{t.creditNote(d.creditNote.number)}</p>}
          {toPay && <p>{say.proration(eur(d.netToPay))}</p>}
          {toPay && method === 'stripe' && <p>{say.prorationStripe}</p>}
          {toPay && method !== 'stripe' && proration && <p>{say.prorationTransfer(proration.causale)}</p>}
          {d.prorationPaymentId !== null && d.netToPay === 0 && <p>{t.prorationPaid}</p>}
        </div>
      </div>
      {toPay && method !== 'stripe' && ProrationLink && <ProrationLink paymentId={d.prorationPaymentId!} />}
      <dl className="mt-4 space-y-1.5 text-sm">
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">{t.plan}</dt>
          <dd className="text-right font-medium text-slate-900">{d.toPlan.name}</dd>
        </div>
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">
            {t.netToPay} <span className="text-slate-500">{t.netToPayNow}</span>
          </dt>
          <dd className="tabular-nums font-medium text-slate-900">{eur(d.netToPay)}</dd>
        </div>
        {d.residualCredit > 0 && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t.residualCredit}</dt>
            <dd className="tabular-nums text-emerald-700">{eur(d.residualCredit)}</dd>
          </div>
        )}
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">{t.nextPeriod(formatDate(d.nextBillingDate))}</dt>
          <dd className="tabular-nums text-slate-900">
            {d.recurrenceChanges
              ? eur(d.nextPeriod.netToPay)
              : t.nextPeriodValue(eur(d.nextPeriod.netToPay), sub.plan?.recurrenceTypeName || '—')}
          </dd>
        </div>
      </dl>
    </Modal>
  );
}
