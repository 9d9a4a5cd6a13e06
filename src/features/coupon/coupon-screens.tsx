import { useEffect, useId, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { Coupon } from '../../../contract/schemas/coupon';
import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { couponResource } from '../../entities/coupon/coupon.resource';
import { planResource } from '../../entities/plan/plan.resource';
import { useCan } from '../../lib/access';
import { entityHooks } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import { parseEntityId } from '../../lib/use-form-controller';

const t = {
  title: 'Piani del coupon',
  afterSave: 'I piani si scelgono dopo aver creato il coupon: senza piani scelti vale per tutti.',
  allPlans: 'Nessun piano scelto: il coupon vale per tutti i piani.',
  save: 'Salva piani',
  saved: 'Piani del coupon salvati.',
};

/** Route element of /coupon ('Coupon'). */
export function ListScreen() {
  return <ListPage resource={couponResource} />;
}

/** Route element of /coupon/:id: the coupon's form, then the plans it is limited to. */
export function FormScreen() {
  const id = parseEntityId(useParams().id);
  const canEdit = useCan()('coupon', 'edit');
  return <FormPage resource={couponResource} after={<CouponPlans couponId={id} canEdit={canEdit} />} />;
}

/**
 * The plans a coupon applies to (none chosen: every plan), saved with the coupon's stored figures
 * (`PUT api/coupon/Update` with `planIds`); a plan of another tenant cannot be listed here.
 */
function CouponPlans({ couponId, canEdit }: { couponId: number | null; canEdit: boolean }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="card mt-6 p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {t.title}
      </h2>
      {couponId === null ? (
        <p className="mt-2 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-800">
          {t.afterSave}
        </p>
      ) : (
        <PlanChoice couponId={couponId} canEdit={canEdit} />
      )}
    </section>
  );
}

function PlanChoice({ couponId, canEdit }: { couponId: number; canEdit: boolean }) {
  const coupon = entityHooks(couponResource).useDetail(couponId).data as Coupon | null | undefined;
  const plans = entityHooks(planResource).useList({ page: 1, pageSize: 100 }).data?.items ?? [];
  const update = entityHooks(couponResource).useUpdate();
  const [chosen, setChosen] = useState<number[] | null>(null);
  useEffect(() => {
    if (coupon && chosen === null) setChosen(coupon.planIds ?? []);
  }, [coupon, chosen]);
  if (!coupon || chosen === null) return null;

  const toggle = (id: number) =>
    setChosen((ids) =>
      (ids ?? []).includes(id) ? (ids ?? []).filter((x) => x !== id) : [...(ids ?? []), id],
    );
  const save = async () => {
    try {
      await update.mutateAsync({
        id: coupon.id,
        code: coupon.code,
        percentOff: coupon.percentOff,
        amountOff: coupon.amountOff,
        duration: coupon.duration,
        durationPeriods: coupon.durationPeriods,
        expiresAt: coupon.expiresAt,
        maxRedemptions: coupon.maxRedemptions,
        planIds: chosen,
      });
      notify.success(t.saved);
    } catch {
      // Toasted by the query client.
    }
  };

  return (
    <div className="mt-3 space-y-3">
      <fieldset className="space-y-2" disabled={!canEdit || update.isPending}>
        <legend className="sr-only">{t.title}</legend>
        {plans.map((p) => (
          <label key={p.id} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={chosen.includes(p.id)}
              onChange={() => toggle(p.id)}
              className="h-4 w-4 rounded border-slate-300"
            />
            {String(p.name)}
          </label>
        ))}
      </fieldset>
      {chosen.length === 0 && <p className="text-sm text-slate-500">{t.allPlans}</p>}
      {canEdit && (
        <button
          type="button"
          className="btn-secondary"
          onClick={() => void save()}
          disabled={update.isPending}
        >
          {t.save}
        </button>
      )}
    </div>
  );
}
