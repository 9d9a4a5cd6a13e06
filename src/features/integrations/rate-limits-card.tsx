import { useCan } from '../../lib/access';
import { useState, type FormEvent } from 'react';
import type { ApiSettings } from '../../../contract/integrations';
import { integrationMessages as m, messages } from '../../../contract/messages';
import { apiSettingsSchema } from '../../../contract/schemas/integrations';
import { serverFieldErrors } from '../../lib/entity-hooks';
import { notify } from '../../lib/notify';
import { useApiSettings } from './api/api-key-queries';
import { useSaveApiSettings } from './api/save-api-settings';

type Field = keyof ApiSettings;
const FIELDS: readonly { key: Field; label: string; hint: string }[] = [
  { key: 'perKeyPerMinute', label: 'Per chiave', hint: 'chiamate al minuto di ciascuna chiave' },
  {
    key: 'perTenantPerMinute',
    label: 'Per tutto il tenant',
    hint: 'chiamate al minuto di tutte le chiavi insieme',
  },
];
const numberFormat = new Intl.NumberFormat('it-IT');

/** Integer text as typed ('1.200' and '1200' alike); anything else is left for the schema to refuse. */
function parseLimit(text: string): number | string {
  const t = text.trim();
  return /^\d+$/.test(t) || /^\d{1,3}(\.\d{3})+$/.test(t) ? Number(t.replace(/\./g, '')) : t;
}

function LimitsForm({ current }: { current: ApiSettings }) {
  const save = useSaveApiSettings();
  const [values, setValues] = useState<Record<Field, string>>({
    perKeyPerMinute: String(current.perKeyPerMinute),
    perTenantPerMinute: String(current.perTenantPerMinute),
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setGeneral(null);
    const parsed = apiSettingsSchema.safeParse({
      perKeyPerMinute: parseLimit(values.perKeyPerMinute),
      perTenantPerMinute: parseLimit(values.perTenantPerMinute),
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (env) => {
        if (env.data)
          setValues({
            perKeyPerMinute: String(env.data.perKeyPerMinute),
            perTenantPerMinute: String(env.data.perTenantPerMinute),
          });
        notify.success(env.message ?? m.settingsSaved);
      },
      onError: (error) => {
        const { fields, general: other } = serverFieldErrors(error);
        setErrors({ perKeyPerMinute: fields.perKeyPerMinute, perTenantPerMinute: fields.perTenantPerMinute });
        setGeneral(other[0] ?? (Object.keys(fields).length ? null : messages.http.saveError));
      },
    });
  };

  return (
    <form className="mt-4 space-y-4" onSubmit={submit} noValidate aria-label="Limiti di chiamate">
      <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
        {FIELDS.map((f) => {
          const error = errors[f.key];
          const id = `limit-${f.key}`;
          return (
            <div key={f.key}>
              <label className="label" htmlFor={id}>
                {f.label}
              </label>
              <input
                id={id}
                inputMode="numeric"
                className={`input ${error ? 'input-error' : ''}`}
                value={values[f.key]}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : `${id}-hint`}
                onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
              />
              {error ? (
                <p id={`${id}-error`} className="field-error">
                  {error}
                </p>
              ) : (
                <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
                  {f.hint}
                </p>
              )}
            </div>
          );
        })}
      </div>
      {general && (
        <p role="alert" className="text-sm text-red-700">
          {general}
        </p>
      )}
      <div className="flex max-w-2xl justify-end">
        <button type="submit" className="btn-primary" disabled={save.isPending}>
          Salva limiti
        </button>
      </div>
    </form>
  );
}

/**
 * The tenant's rate limits on /apikey: a SuperAdmin edits them (PUT apikey/settings, validated
 * here and by the server with the same Italian messages); an Admin reads them.
 */
export function RateLimitsCard() {
  const settings = useApiSettings();
  const can = useCan();
  const editable = can('apikey', 'limits');
  if (!settings.data) return null;
  const current = settings.data;
  return (
    <section className="card p-5 sm:p-6" aria-labelledby="limits-title">
      <h2 id="limits-title" className="text-base font-semibold text-slate-900">
        Limiti di chiamate
      </h2>
      <p className="mt-1 text-sm text-slate-500">
        Oltre il limite la chiamata riceve 429 con Retry-After. Ogni risposta riporta X-RateLimit-Limit,
        X-RateLimit-Remaining e X-RateLimit-Reset.
      </p>
      {editable ? (
        <LimitsForm current={current} />
      ) : (
        <>
          <dl className="mt-4 grid max-w-2xl gap-4 sm:grid-cols-2" data-testid="limits-read-only">
            {FIELDS.map((f) => (
              <div key={f.key} className="rounded-lg bg-slate-50 px-4 py-3">
                <dt className="text-xs text-slate-500">{f.label}</dt>
                <dd className="mt-0.5 text-lg font-semibold text-slate-900">
                  {numberFormat.format(current[f.key])}{' '}
                  <span className="text-sm font-normal text-slate-500">al minuto</span>
                </dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-xs text-slate-500">Solo un SuperAdmin può cambiare i limiti.</p>
        </>
      )}
    </section>
  );
}
