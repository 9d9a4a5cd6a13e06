/**
 * 'Segna come pagato' (issue 29): records the bank transfer of an overdue payment, the amount
 * prefilled with what is due and the date today (Rome); checked with the contract's
 * `markPaidSchema` before anything is sent, the server's field errors shown on their fields.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import {
  markPaidSchema,
  type MarkPaidInput,
  type OverduePayment,
} from '../../../contract/schemas/collection';
import { EuroInput } from '../../components/fields/euro-input';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { Modal } from '../../components/modal';
import { serverFieldErrors } from '../../lib/entity-hooks';
import { failureMessage } from '../../lib/http-errors';
import { formatDecimalInput, parseDecimal } from '../../lib/formatters';
import { useMarkPaid } from './api/mark-paid';
import { collectionText } from './collection-text';

const t = collectionText.markPaid;

interface Values {
  amount: string;
  approvalDate: string;
  note: string;
}

/** Today on Rome's calendar, 'YYYY-MM-DD'. */
export function todayInRome(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(now);
}

const schemaResolver = zodResolver(markPaidSchema);

/** The typed amount ('49,50') read as euros (anything unreadable fails as 'Importo non valido'); an empty note left out. */
const resolver: Resolver<Values, unknown, MarkPaidInput> = (values, context, options) =>
  (schemaResolver as unknown as Resolver<Record<string, unknown>, unknown, MarkPaidInput>)(
    {
      amount: parseDecimal(values.amount) ?? 0,
      approvalDate: values.approvalDate,
      ...(values.note.trim() ? { note: values.note } : {}),
    },
    context,
    options as never,
  ) as never;

export function MarkPaidDialog({ payment, onClose }: { payment: OverduePayment; onClose: () => void }) {
  const markPaid = useMarkPaid();
  const form = useForm<Values, unknown, MarkPaidInput>({
    defaultValues: {
      amount: formatDecimalInput(payment.amountDue, 2),
      approvalDate: todayInRome(),
      note: '',
    },
    resolver,
  });
  const { errors } = form.formState;
  const formId = `mark-paid-${payment.paymentId}`;
  const customer = payment.customer.name || payment.customer.email;

  const submit = form.handleSubmit((body) =>
    markPaid.mutate(
      { paymentId: payment.paymentId, body },
      {
        onSuccess: onClose,
        onError: (error) => {
          const { fields } = serverFieldErrors(error);
          let shown = false;
          for (const [key, message] of Object.entries(fields))
            if (key === 'amount' || key === 'approvalDate' || key === 'note') {
              form.setError(key, { type: 'server', message }, { shouldFocus: !shown });
              shown = true;
            }
          if (!shown) form.setError('root', { type: 'server', message: failureMessage(error, t.failed) });
        },
      },
    ),
  );

  return (
    <Modal
      title={t.title}
      description={t.description(customer, payment.amountDue)}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary min-h-11" onClick={onClose}>
            {t.cancel}
          </button>
          <button type="submit" form={formId} className="btn-primary min-h-11" disabled={markPaid.isPending}>
            {markPaid.isPending ? t.saving : t.confirm}
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        {errors.root?.message && (
          <p
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            {errors.root.message}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <FieldShell label={t.amount} required error={errors.amount?.message}>
            {(control) => (
              <EuroInput {...control} suffix error={errors.amount?.message} {...form.register('amount')} />
            )}
          </FieldShell>
          <FieldShell label={t.date} required error={errors.approvalDate?.message}>
            {(control) => (
              <input
                {...control}
                type="date"
                className={inputClass(errors.approvalDate?.message)}
                {...form.register('approvalDate')}
              />
            )}
          </FieldShell>
        </div>
        <FieldShell label={t.note} hint={t.noteHint} error={errors.note?.message}>
          {(control) => (
            <input
              {...control}
              type="text"
              maxLength={200}
              className={inputClass(errors.note?.message)}
              {...form.register('note')}
            />
          )}
        </FieldShell>
      </form>
    </Modal>
  );
}
