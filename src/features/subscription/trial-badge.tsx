/**
 * A subscription's free trial (issue 30) beside its status: running until its end, converted by
 * the first payment, or ended unpaid. Nothing for a subscription without a trial.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiPaths } from '../../../contract/api-paths';
import type { Subscription } from '../../../contract/schemas/subscription';
import { trialText } from '../../entities/subscription/trial-badge';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { Modal } from '../../components/modal';
import { unwrap } from '../../lib/entity-hooks';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { http } from '../../lib/http';
import { failureMessage } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useSelectedTenantId } from '../../lib/tenant-store';

export { TrialBadge, trialText } from '../../entities/subscription/trial-badge';

/** Today on Rome's calendar, 'YYYY-MM-DD'. */
const todayInRome = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());

/**
 * A running trial on the subscription's page: when it ends and what is due then, with 'Segna come
 * pagato' for a first payment received by bank transfer (POST collection/markPaid, as the
 * collection's screen does: it converts the trial and issues the invoice). A provider payment
 * comes through the reminder's payment link.
 */
export function TrialPanel({ sub }: { sub: Subscription }) {
  const [paying, setPaying] = useState(false);
  const [day, setDay] = useState(todayInRome);
  const [failure, setFailure] = useState<string | null>(null);
  const client = useQueryClient();
  const tenantId = useSelectedTenantId();
  const first = sub.payments.find((p) => p.periodStart === sub.trialEndsAt && !p.paidAt);
  const markPaid = useMutation({
    mutationFn: (body: { amount: number; approvalDate: string }) =>
      unwrap(http.post(apiPaths.collection.markPaid(first!.id), body, { tenantId })),
    onSuccess: async () => {
      notify.success(trialText.paid);
      setPaying(false);
      await Promise.all(
        ['subscription', 'collection', 'dashboard', 'invoice'].map((entity) =>
          client.invalidateQueries({ queryKey: queryKeys.entity(tenantId, entity) }),
        ),
      );
    },
    onError: (error) => setFailure(failureMessage(error, trialText.failed)),
  });
  if (sub.trialState !== 'running' || !sub.trialEndsAt || !first) return null;
  const formId = `trial-paid-${first.id}`;
  return (
    <section
      className="card mb-6 flex flex-col gap-3 border-violet-200 bg-violet-50/40 p-5 sm:flex-row sm:items-center sm:justify-between"
      aria-label={trialText.panel}
    >
      <div className="min-w-0">
        <h2 className="text-base font-semibold text-slate-900">
          {trialText.running(formatDate(sub.trialEndsAt))}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {trialText.due(formatCurrency(first.amountDue), formatDate(sub.trialEndsAt))}
        </p>
      </div>
      <button
        type="button"
        className="btn-secondary min-h-11 shrink-0"
        onClick={() => {
          setFailure(null);
          setPaying(true);
        }}
      >
        {trialText.markPaid}
      </button>
      {paying && (
        <Modal
          title={trialText.markPaid}
          description={trialText.dialog(formatCurrency(first.amountDue))}
          onClose={() => setPaying(false)}
          footer={
            <>
              <button type="button" className="btn-secondary min-h-11" onClick={() => setPaying(false)}>
                {trialText.cancel}
              </button>
              <button
                type="submit"
                form={formId}
                className="btn-primary min-h-11"
                disabled={markPaid.isPending}
              >
                {trialText.markPaid}
              </button>
            </>
          }
        >
          <form
            id={formId}
            noValidate
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              markPaid.mutate({ amount: first.amountDue, approvalDate: day });
            }}
          >
            {failure && (
              <p
                role="alert"
                className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
              >
                {failure}
              </p>
            )}
            <FieldShell label={trialText.date} required>
              {(control) => (
                <input
                  {...control}
                  type="date"
                  className={inputClass()}
                  value={day}
                  max={todayInRome()}
                  onChange={(e) => setDay(e.target.value)}
                />
              )}
            </FieldShell>
          </form>
        </Modal>
      )}
    </section>
  );
}
