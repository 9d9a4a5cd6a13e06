import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { apiPaths } from '../../../contract/api-paths';
import { Role } from '../../../contract/enums';
import { fromCents } from '../../../contract/money';
import { messages } from '../../../contract/messages';
import type { Plan } from '../../../contract/schemas/plan';
import type { Subscription } from '../../../contract/schemas/subscription';
import { billingValidationMessages as bm } from '../../../contract/validation/italian';
import { FieldShell } from '../../components/fields/field-shell';
import { SearchableSelect } from '../../components/fields/searchable-select';
import { ArrowLeftIcon } from '../../components/icons';
import { planResource } from '../../entities/plan/plan.resource';
import { entityHooks, unwrap } from '../../lib/entity-hooks';
import { http } from '../../lib/http';
import { isHandledByInterceptor } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { euroInputValue, parseEuroInput, parsePercentInput, percentInputValue } from './billing-format';
import { PriceFields } from './price-fields';
import { SUBSCRIPTION, splitFieldErrors } from './subscription-api';
import { subscriptionText as t } from './subscription-text';

/** The pickers load the first 100 items (spec §7). */
export const PICKER_PAGE_SIZE = 100;

type Errors = { userId?: string; planId?: string; cost?: string; vat?: string; general?: string[] };

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
  const [filledFor, setFilledFor] = useState<number | null>(initialPlanId);
  // Adjusting state while rendering (React's pattern for "reset on prop change"): no effect needed.
  if (plan && planId !== null && plan.id === planId && filledFor !== planId) {
    setFilledFor(planId);
    fill(euroInputValue(plan.recurringCostBeforeVAT), percentInputValue(plan.vatPercentage));
  }
  return plan && plan.id === planId ? plan : null;
}

/** /subscription/new 'Crea Sottoscrizione' (spec §2): customer, plan, agreed price, live total. */
export function SubscriptionCreatePage() {
  const role = useSession()?.user.role ?? null;
  const isAdmin = role === Role.Admin || role === Role.SuperAdmin;
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
  const client = useQueryClient();
  const tenantId = useSelectedTenantId();
  const [userId, setUserId] = useState<number | null>(null);
  const [planId, setPlanId] = useState<number | null>(null);
  const [cost, setCost] = useState('');
  const [vat, setVat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const plan = usePlanPrefill(planId, null, (c, v) => {
    setCost(c);
    setVat(v);
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (userId === null || planId === null) {
      setErrors({ general: [messages.subscription.pickRequired] });
      return;
    }
    const cents = parseEuroInput(cost);
    const vatHundredths = parsePercentInput(vat);
    const found: Errors = {};
    if (cents === null) found.cost = bm.costInvalid;
    if (vatHundredths === null) found.vat = bm.vatInvalid;
    if (found.cost || found.vat) {
      setErrors(found);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const created = await unwrap<Subscription>(
        http.post(
          apiPaths.subscription.create,
          { userId, planId, paymentAmount: fromCents(cents!), vatPercentage: vatHundredths! / 100 },
          { tenantId },
        ),
      );
      notify.success(messages.http.created);
      await client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, SUBSCRIPTION) });
      // The detail page offers the payment link at once (spec §4 'then a payment link is offered').
      if (created?.id) void navigate(`/subscription/${created.id}?offerLink=1`);
      else void navigate('/subscription');
    } catch (error) {
      console.error('Errore durante la creazione della sottoscrizione:', error);
      if (!isHandledByInterceptor(error)) notify.error(messages.http.saveError);
      const split = splitFieldErrors(error, ['userId', 'planId', 'paymentAmount', 'vatPercentage']);
      setErrors({
        userId: split.fields.userId,
        planId: split.fields.planId,
        cost: split.fields.paymentAmount,
        vat: split.fields.vatPercentage,
        general: split.general,
      });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="card" noValidate onSubmit={(e) => void submit(e)}>
      <div className="space-y-6 p-6">
        <div className="grid gap-5 sm:grid-cols-2">
          <FieldShell label={t.fields.user} required error={errors.userId}>
            {(control) => (
              <SearchableSelect
                id={control.id}
                entity="user"
                pageSize={PICKER_PAGE_SIZE}
                value={userId}
                onChange={(v) => {
                  setUserId(v);
                  setErrors((x) => ({ ...x, userId: undefined, general: undefined }));
                }}
                placeholder={t.userPlaceholder}
                noOptionsText={messages.subscription.noUsers}
                invalid={Boolean(errors.userId)}
                describedBy={control['aria-describedby']}
                loadOnOpen
              />
            )}
          </FieldShell>
          <FieldShell label={t.fields.plan} required error={errors.planId}>
            {(control) => (
              <SearchableSelect
                id={control.id}
                entity="plan"
                pageSize={PICKER_PAGE_SIZE}
                filters={{ isActive: true }}
                value={planId}
                onChange={(v) => {
                  setPlanId(v);
                  setErrors((x) => ({ ...x, planId: undefined, general: undefined }));
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
          cost={cost}
          vat={vat}
          onCostChange={setCost}
          onVatChange={setVat}
          errors={{ cost: errors.cost, vat: errors.vat }}
          recurrenceName={plan?.recurrenceTypeName}
        />
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
        <button type="submit" className="btn-primary" disabled={saving}>
          {messages.common.create}
        </button>
      </div>
    </form>
  );
}
