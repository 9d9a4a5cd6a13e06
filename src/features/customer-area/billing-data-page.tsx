import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { customerAreaMessages as m } from '../../../contract/messages';
import {
  customerBillingInputSchema,
  type CustomerBilling,
  type CustomerBillingInput,
} from '../../../contract/schemas/user';
import { FormField } from '../../components/fields/form-field';
import { Spinner } from '../../components/spinner';
import { billingAddressFields } from '../../entities/user/user.resource';
import { serverFieldErrors } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import type { FieldDef, FormValues, ScreenProps } from '../../lib/resource';
import { useOwnBilling, useSaveOwnBilling } from './api/own-billing';

/** The address: the user form's cascading selects (region → province → comune), without its tab. */
const addressFields: FieldDef[] = billingAddressFields.map(({ group: _g, from: _f, ...f }) => f);
const fiscalFields = (isCompany: boolean): FieldDef[] => [
  {
    kind: 'text',
    key: 'name',
    label: isCompany ? 'Ragione sociale' : 'Nome e cognome',
    required: true,
  },
  {
    kind: 'text',
    key: 'fiscalCode',
    label: 'Codice fiscale',
    placeholder: isCompany ? '01234567897' : 'RSSMRA80A01H501U',
  },
  {
    kind: 'text',
    key: 'vatCode',
    label: isCompany ? 'Partita IVA' : 'Partita IVA (se ne hai una)',
    placeholder: '01234567897 oppure DE123456789',
  },
  { kind: 'text', key: 'sdi', label: 'Codice destinatario SDI', placeholder: 'ABC1234' },
  { kind: 'text', key: 'pec', label: 'PEC', inputType: 'email' },
  { kind: 'text', key: 'phone', label: 'Telefono', inputType: 'tel' },
];
const abroadFields: FieldDef[] = [
  { kind: 'text', key: 'countryCode', label: 'Paese (IT, DE, FR…)' },
  { kind: 'text', key: 'billingCity', label: 'Città (se all’estero)' },
];

function valuesOf(c: CustomerBilling): FormValues {
  const a = c.billingAddress;
  return {
    name: c.name ?? '',
    isCompany: c.isCompany,
    fiscalCode: c.fiscalCode ?? '',
    vatCode: c.vatCode ?? '',
    sdi: c.sdi ?? '',
    pec: c.pec ?? '',
    phone: c.phone ?? '',
    countryCode: c.countryCode,
    billingCity: c.billingCity ?? '',
    street: a?.street ?? '',
    zip: a?.zip ?? '',
    region: a?.regionId ?? null,
    province: a?.provinceId ?? null,
    municipality: a?.municipalityId ?? null,
  };
}

function BillingForm({ record }: { record: CustomerBilling }) {
  const save = useSaveOwnBilling();
  const form = useForm<FormValues>({
    defaultValues: valuesOf(record),
    mode: 'onSubmit',
    resolver: zodResolver(customerBillingInputSchema) as unknown as Resolver<FormValues>,
  });
  const isCompany = useWatch({ control: form.control, name: 'isCompany' }) === true;
  // A field showing a message is re-checked as it changes: the message goes once the value is valid.
  useEffect(() => {
    const sub = form.watch((_v, { name }) => {
      if (name && form.getFieldState(name).error) void form.trigger(name);
    });
    return () => sub.unsubscribe();
  }, [form]);

  const submit = form.handleSubmit((values) =>
    save.mutate(values as CustomerBillingInput, {
      onSuccess: ({ saved, message }) => {
        form.reset(valuesOf(saved.customer));
        notify.success(message ?? m.billingSaved(saved.issued, saved.waiting));
      },
      onError: (error) => {
        const { fields } = serverFieldErrors(error);
        for (const [key, message] of Object.entries(fields))
          form.setError(key, { type: 'server', message }, { shouldFocus: true });
      },
    }),
  );
  const all = [...fiscalFields(isCompany), ...addressFields, ...abroadFields];

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-6" aria-label={m.billingTitle}>
      <fieldset className="card p-4 sm:p-6">
        <legend className="sr-only">Tipo di cliente</legend>
        <p className="mb-3 text-sm font-medium text-slate-700">Fatturare a</p>
        <div className="grid grid-cols-2 gap-2" role="radiogroup" aria-label="Tipo di cliente">
          {[
            { value: false, label: 'Privato' },
            { value: true, label: 'Azienda o professionista' },
          ].map((o) => (
            <label
              key={String(o.value)}
              className={`flex min-h-12 cursor-pointer items-center justify-center rounded-lg border px-3 text-center text-sm font-medium ${
                isCompany === o.value
                  ? 'border-blue-600 bg-blue-50 text-blue-800'
                  : 'border-slate-300 bg-white text-slate-700'
              }`}
            >
              <input
                type="radio"
                className="sr-only"
                name="isCompany"
                checked={isCompany === o.value}
                onChange={() => form.setValue('isCompany', o.value, { shouldDirty: true })}
              />
              {o.label}
            </label>
          ))}
        </div>
        <div className="mt-5 grid gap-5 sm:grid-cols-2">
          {fiscalFields(isCompany).map((f) => (
            <FormField key={f.key} field={f} form={form} fields={all} />
          ))}
        </div>
        <p className="mt-3 text-xs text-slate-500">
          Per ricevere la fattura elettronica basta il codice SDI o la PEC; se non li hai, la trovi comunque
          qui nell’area clienti.
        </p>
      </fieldset>
      <fieldset className="card p-4 sm:p-6">
        <legend className="px-1 text-sm font-medium text-slate-700">Indirizzo di fatturazione</legend>
        <div className="mt-2 grid gap-5 sm:grid-cols-2">
          {[...addressFields, ...abroadFields].map((f) => (
            <FormField key={f.key} field={f} form={form} fields={all} />
          ))}
        </div>
      </fieldset>
      <div className="sticky bottom-0 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:px-0">
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={save.isPending}>
          {save.isPending ? 'Salvataggio…' : 'Salva dati di fatturazione'}
        </button>
      </div>
    </form>
  );
}

/**
 * 'Dati di fatturazione' (issue 28): the customer's own fiscal data and billing address in the
 * selected tenant, checked with the contract's schemas; saving issues the invoices that waited for
 * them and says how many.
 */
export default function BillingDataPage({ routeLabel }: ScreenProps) {
  const query = useOwnBilling();
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="page-title">{routeLabel}</h1>
      <p className="mb-4 mt-1 text-sm text-slate-500">
        I dati con cui il fornitore intesta le tue fatture. Le fatture in attesa di questi dati vengono emesse
        appena li salvi.
      </p>
      {query.data ? <BillingForm record={query.data} /> : query.isPending ? <Spinner /> : null}
    </div>
  );
}
