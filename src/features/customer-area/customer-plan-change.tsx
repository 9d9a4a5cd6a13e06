/**
 * 'Cambia piano' on a subscription card of the customer home (issue 30), only where the tenant
 * lets its customers change plan (the server answers `allowed`) and the subscription can change
 * (live, its period paid, nothing scheduled). It opens the Admin's dialog with the customer's calls
 * and the plans the server offers (active, same recurrence).
 */
import { useCallback, useMemo, useState } from 'react';
import type { Subscription } from '../../../contract/schemas/subscription';
import { canChangePlan, PlanChangeDialog } from '../../entities/subscription/plan-change-dialog';
import { planChangeText as t } from '../../entities/subscription/plan-change-text';
import { ownPlanChangeApi, useOwnPlanOptions } from './api/plan-change';

export function CustomerPlanChange({ s }: { s: Subscription }) {
  // A proration still unpaid (within the period) waits first: the server would refuse (409).
  const prorationUnpaid = s.payments.some(
    (p) => p.paidAt === null && Date.parse(p.periodStart) < Date.parse(s.nextBillingDate),
  );
  const changeable = canChangePlan(s) && !prorationUnpaid;
  const options = useOwnPlanOptions(s.id, changeable);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const plans = options.data?.plans;
  const api = useMemo(() => ownPlanChangeApi(plans ?? []), [plans]);
  // The dialog stays open after the change (its 'done' step) even though the card no longer offers it.
  if (!open && (!changeable || !options.data?.allowed || (plans?.length ?? 0) === 0)) return null;
  return (
    <div className="mt-3 border-t border-slate-100 pt-3">
      {!open || changeable ? (
        <button
          type="button"
          className="btn-secondary min-h-11 w-full sm:w-auto"
          onClick={() => setOpen(true)}
        >
          {t.action}
        </button>
      ) : null}
      {open && <PlanChangeDialog sub={s} onClose={close} api={api} />}
    </div>
  );
}
