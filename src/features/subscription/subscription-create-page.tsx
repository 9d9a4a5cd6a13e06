import { useEffect, useRef, useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { messages } from '../../../contract/messages';
import type { Plan } from '../../../contract/schemas/plan';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { SearchableSelect } from '../../components/fields/searchable-select';
import { ArrowLeftIcon } from '../../components/icons';
import { planResource } from '../../entities/plan/plan.resource';
import { useCan } from '../../lib/access';
import { entityHooks } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import { useCreateSubscription } from './api/save-subscription';
import { euroInputValue, percentInputValue } from './billing-format';
import { splitFieldErrors } from '../../lib/form-errors';
import { useSubscriptionQuote } from './api/quote-subscription';
import { parseEuroInput, parsePercentInput } from './billing-format';
import type { Quote } from '../../../contract/invoice/quote';
import { InvoicePreview } from '../../components/invoice-preview';
import { PriceFields } from './price-fields';
import {
  createResolver,
  PICK_REQUIRED,
  subscriptionBody,
  subscriptionFormKeys,
  type SubscriptionFormOutput,
  type SubscriptionFormValues,
} from './subscription-form';
import { subscriptionText as t } from './subscription-text';

/** The pickers load the first 100 items (spec §7). */
export const PICKER_PAGE_SIZE = 100;

/** The document shows what cost + VAT alone does not: its preview replaces the plain summary. */
function saysMore(q: Quote | null | undefined): boolean {
  if (!q) return false;
  return (
    q.cassa > 0 ||
    q.bollo > 0 ||
    q.withholding > 0 ||
    q.natura !== null ||
    q.netToPay !== q.total ||
    (q.discount ?? 0) > 0
  );
}

/**
 * The plan's cost and VAT, prefilled into the price inputs once per chosen plan (and never over
 * what was typed for that same plan). Returns the plan's details for the summary.
 */
export function usePlanPrefill(
  planId: number | null,
  initialPlanId: number | null,
  fill: (cost: string, vat: string) => void,
) {
  const plan = entityHooks(planResource).useDetail(planId).data as Plan | null | undefined;
  const filledFor = useRef<number | null>(initialPlanId);
  const fillRef = useRef(fill);
  fillRef.current = fill;
  useEffect(() => {
    if (plan && planId !== null && plan.id === planId && filledFor.current !== planId) {
      filledFor.current = planId;
      fillRef.current(euroInputValue(plan.recurringCostBeforeVAT), percentInputValue(plan.vatPercentage));
    }
  }, [plan, planId]);
  return plan && plan.id === planId ? plan : null;
}

/** /subscription/new 'Crea Sottoscrizione' (spec §2): customer, plan, agreed price, live total. */
export function SubscriptionCreatePage() {
  const isAdmin = useCan()('subscription', 'create');
  return (
    <div className="mx-auto w-full max-w-4xl">
      <div className="mb-6">
        <Link
          to="/subscription"
          className="mb-2 inline-flex items-center gap-1.5 text-sm text-slate-500 hover:text-slate-900"
        >
          <ArrowLeftIcon />
          {t.listTitle}
        </Link>
        <h1 className="page-title">{t.createTitle}</h1>
        {isAdmin && <p className="mt-1 text-sm text-slate-500">{t.createIntro}</p>}
      </div>
      {isAdmin ? <CreateForm /> : <AdminOnlyNotice />}
    </div>
  );
}

function AdminOnlyNotice() {
  return (
    <div role="note" className="card flex flex-col items-start gap-3 p-6">
      <p className="text-base font-semibold text-slate-900">{t.adminOnly}</p>
      <p className="text-sm text-slate-500">{t.adminOnlyHint}</p>
      <Link to="/subscription" className="btn-secondary">
        <ArrowLeftIcon />
        {t.backToList}
      </Link>
    </div>
  );
}

function CreateForm() {
  const navigate = useNavigate();
  const create = useCreateSubscription();
  const [general, setGeneral] = useState<string[]>([]);
  const form = useForm<SubscriptionFormValues, unknown, SubscriptionFormOutput>({
    resolver: createResolver,
    defaultValues: { userId: null, planId: null, paymentAmount: '', vatPercentage: '', couponCode: '' },
  });
  const { errors } = form.formState;
  const userId = useController({ control: form.control, name: 'userId' });
  const planId = useController({ control: form.control, name: 'planId' });
  const cost = useController({ control: form.control, name: 'paymentAmount' });
  const vat = useController({ control: form.control, name: 'vatPercentage' });
  const plan = usePlanPrefill(planId.field.value, null, (c, v) => {
    form.setValue('paymentAmount', c);
    form.setValue('vatPercentage', v);
  });
  // The coupon reaches the preview once typed (on leaving the field), not at every keystroke.
  const [appliedCoupon, setAppliedCoupon] = useState('');
  const costCents = parseEuroInput(cost.field.value ?? '');
  const vatHundredths = parsePercentInput(vat.field.value ?? '');
  const quote = useSubscriptionQuote(
    userId.field.value && planId.field.value
      ? {
          userId: userId.field.value,
          planId: planId.field.value,
          ...(costCents !== null ? { paymentAmount: costCents / 100 } : {}),
          ...(vatHundredths !== null ? { vatPercentage: vatHundredths / 100 } : {}),
          ...(appliedCoupon ? { couponCode: appliedCoupon } : {}),
        }
      : null,
  );
  // A code the server refuses for this plan ('Coupon scaduto', …) is said under the field at once.
  const couponError =
    errors.couponCode?.message ??
    (appliedCoupon && quote.error
      ? splitFieldErrors(quote.error, ['couponCode'] as const).fields.couponCode
      : undefined);
  const pickMissing = errors.userId?.type === PICK_REQUIRED;
  // 'Seleziona un utente e un piano.' goes as soon as a pick is made (the next Crea asks again).
  const clearPickMissing = () => {
    setGeneral([]);
    if (pickMissing) form.clearErrors('userId');
  };
  const userError = pickMissing ? undefined : errors.userId?.message;
  const generalMessages = pickMissing ? [errors.userId!.message!] : general;

  const submit = form.handleSubmit(async (out) => {
    setGeneral([]);
    try {
      const created = await create.mutateAsync(subscriptionBody(out));
      notify.success(messages.http.created);
      // The detail page offers the payment link at once (spec §4 'then a payment link is offered').
      if (created?.id) void navigate(`/subscription/${created.id}?offerLink=1`);
      else void navigate('/subscription');
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

  return (
    <form className="card" noValidate onSubmit={(e) => void submit(e)}>
      <div className="space-y-6 p-6">
        <div className="grid gap-5 sm:grid-cols-2">
          <FieldShell label={t.fields.user} required error={userError}>
            {(control) => (
              <SearchableSelect
                id={control.id}
                entity="user"
                pageSize={PICKER_PAGE_SIZE}
                value={userId.field.value}
                onChange={(v) => {
                  userId.field.onChange(v);
                  clearPickMissing();
                }}
                placeholder={t.userPlaceholder}
                noOptionsText={messages.subscription.noUsers}
                invalid={Boolean(userError)}
                describedBy={control['aria-describedby']}
                loadOnOpen
              />
            )}
          </FieldShell>
          <FieldShell label={t.fields.plan} required error={errors.planId?.message}>
            {(control) => (
              <SearchableSelect
                id={control.id}
                entity="plan"
                pageSize={PICKER_PAGE_SIZE}
                filters={{ isActive: true }}
                value={planId.field.value}
                onChange={(v) => {
                  planId.field.onChange(v);
                  clearPickMissing();
                }}
                placeholder={t.planPlaceholder}
                noOptionsText={messages.subscription.noPlans}
                invalid={Boolean(errors.planId)}
                describedBy={control['aria-describedby']}
                loadOnOpen
              />
            )}
          </FieldShell>
        </div>
        <PriceFields
          cost={cost.field.value}
          vat={vat.field.value}
          onCostChange={cost.field.onChange}
          onVatChange={vat.field.onChange}
          errors={{ cost: errors.paymentAmount?.message, vat: errors.vatPercentage?.message }}
          recurrenceName={plan?.recurrenceTypeName}
          summary={!saysMore(quote.data)}
        />
        <FieldShell label={t.fields.coupon} error={couponError} hint={t.couponHint}>
          {(control) => (
            <input
              {...control}
              {...form.register('couponCode', {
                onBlur: (e: { target: { value: string } }) => setAppliedCoupon(e.target.value.trim()),
              })}
              className={inputClass(couponError, 'uppercase sm:max-w-xs')}
              autoComplete="off"
            />
          )}
        </FieldShell>
        <InvoicePreview quote={appliedCoupon && quote.error ? null : quote.data} loading={quote.isFetching} />
        {generalMessages.length > 0 && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-700">
            {generalMessages.map((g, i) => (
              <p key={i}>{g}</p>
            ))}
          </div>
        )}
      </div>
      <div className="flex flex-col-reverse gap-2 border-t border-slate-100 bg-slate-50/60 px-6 py-4 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={() => void navigate(-1)}>
          {messages.common.back}
        </button>
        <button type="submit" className="btn-primary" disabled={form.formState.isSubmitting}>
          {messages.common.create}
        </button>
      </div>
    </form>
  );
}
