import { useId, useState, type FormEvent } from 'react';
import { messages } from '../../../contract/messages';
import type { Plan, PlanFeatureItem } from '../../../contract/schemas/plan';
import { validationMessages } from '../../../contract/validation/italian';
import { confirmDelete } from '../../components/confirm-delete';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { PlusIcon, TrashIcon } from '../../components/icons';
import { uiText } from '../../components/ui-text';
import { entityHooks } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import { planResource } from '../../entities/plan/plan.resource';
import { useAssociateFeatures, type NewFeature } from './api/associate-features';
import { planText } from './plan-text';

const toPayload = (list: readonly (PlanFeatureItem | NewFeature)[]): NewFeature[] =>
  list.map((f) => ({ featureName: f.featureName, description: f.description ?? null }));

/**
 * The plan's features (spec §2 /plan/{id}: only after the plan is saved). Adding or removing one
 * sends the whole new list to `POST api/plan/associateFeatures/{planId}`, which replaces it; the
 * inline-table toasts of spec §8 report the outcome.
 */
export function PlanFeatures({ planId, canEdit }: { planId: number | null; canEdit: boolean }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="card mt-6 p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {planText.featuresTitle}
      </h2>
      {planId === null ? (
        <p className="mt-2 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-800">
          {planText.featuresAfterSave}
        </p>
      ) : (
        <FeatureEditor planId={planId} canEdit={canEdit} />
      )}
    </section>
  );
}

function FeatureEditor({ planId, canEdit }: { planId: number; canEdit: boolean }) {
  const detail = entityHooks(planResource).useDetail(planId);
  const plan = detail.data as Plan | null | undefined;
  const features = plan?.planFeatures ?? [];
  const addFeature = useAssociateFeatures(planId, 'add');
  const removeFeature = useAssociateFeatures(planId, 'remove');
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    const featureName = name.trim();
    if (!featureName) {
      setNameError(validationMessages.featureNameRequired);
      return;
    }
    setBusy(true);
    try {
      await addFeature.mutateAsync([
        ...toPayload(features),
        { featureName, description: description.trim() || null },
      ]);
      notify.success(messages.inlineTable.saved);
      setName('');
      setDescription('');
      setNameError(null);
    } catch {
      // Toasted once by the query client.
    } finally {
      setBusy(false);
    }
  }

  async function remove(index: number) {
    if (!(await confirmDelete())) return;
    setBusy(true);
    try {
      await removeFeature.mutateAsync(toPayload(features.filter((_, i) => i !== index)));
      notify.success(messages.inlineTable.deleted);
    } catch {
      // Toasted once by the query client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-2 space-y-4">
      <p className="text-sm text-slate-500">{planText.featuresIntro}</p>
      {features.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">
          {detail.isPending ? uiText.loading : planText.featuresEmpty}
        </p>
      ) : (
        <div className="overflow-hidden rounded-lg border border-slate-200">
          {/* Fixed layout: on a phone the description wraps and the remove button stays in view. */}
          <table
            className="w-full table-fixed divide-y divide-slate-200 text-sm"
            aria-label={planText.featuresTable}
            aria-busy={busy || undefined}
          >
            <thead className="bg-slate-50">
              <tr>
                <th
                  scope="col"
                  className="w-2/5 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500"
                >
                  {planText.featureName}
                </th>
                <th
                  scope="col"
                  className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500"
                >
                  {planText.featureDescription}
                </th>
                {canEdit && (
                  <th
                    scope="col"
                    className="w-14 px-2 py-2 text-right text-xs sm:w-24 font-semibold uppercase tracking-wide text-slate-500"
                  >
                    <span className="sr-only sm:not-sr-only">{messages.common.actions}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {features.map((f, i) => (
                <tr key={f.id ?? i}>
                  <td className="px-3 py-2 font-medium break-words text-slate-800">{f.featureName}</td>
                  <td className="px-3 py-2 break-words text-slate-600">
                    {f.description || messages.common.notAvailable}
                  </td>
                  {canEdit && (
                    <td className="px-2 py-1.5 text-right">
                      <button
                        type="button"
                        className="icon-btn hover:bg-red-50 hover:text-red-600"
                        aria-label={planText.removeFeature(f.featureName)}
                        title={planText.removeFeature(f.featureName)}
                        disabled={busy}
                        onClick={() => void remove(i)}
                      >
                        <TrashIcon />
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {canEdit && (
        <form
          onSubmit={(e) => void add(e)}
          noValidate
          className="grid gap-3 sm:grid-cols-[1fr_1.5fr_auto] sm:items-start"
        >
          <FieldShell label={planText.featureName} required error={nameError}>
            {(control) => (
              <input
                {...control}
                className={inputClass(nameError)}
                value={name}
                maxLength={150}
                onChange={(e) => {
                  setName(e.target.value);
                  if (nameError && e.target.value.trim()) setNameError(null);
                }}
              />
            )}
          </FieldShell>
          <FieldShell label={planText.featureDescription}>
            {(control) => (
              <input
                {...control}
                className={inputClass()}
                value={description}
                maxLength={1000}
                onChange={(e) => setDescription(e.target.value)}
              />
            )}
          </FieldShell>
          <button type="submit" className="btn-secondary sm:mt-6" disabled={busy || detail.isPending}>
            <PlusIcon />
            {planText.addFeature}
          </button>
        </form>
      )}
    </div>
  );
}
