import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { apiPaths } from '../../../contract/api-paths';
import type { Envelope } from '../../../contract/envelope';
import { messages } from '../../../contract/messages';
import type { User } from '../../../contract/schemas/user';
import type { ScreenProps } from '../../lib/resource';
import { FormField } from '../../components/fields/form-field';
import { ArrowLeftIcon, ArrowRightIcon, CheckIcon } from '../../components/icons';
import { billingAddressFields, roleOptions } from '../../entities/user/user.resource';
import { serverErrors, unwrap, useSelectOptions } from '../../lib/entity-hooks';
import { formatBool } from '../../lib/formatters';
import { http } from '../../lib/http';
import { isHandledByInterceptor } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import type { FieldDef, FormValues } from '../../lib/resource';
import { getSelectedTenantId } from '../../lib/tenant-store';
import { toWizardPayload, wizardDefaults, wizardSchema, type WizardValues } from './wizard-schema';
import { wizardText } from './wizard-text';

const emailFields: FieldDef[] = [
  { kind: 'text', key: 'email', label: 'Indirizzo email', inputType: 'email', required: true },
];
const personalFields: FieldDef[] = [
  { kind: 'text', key: 'name', label: 'Nome completo', required: true },
  { kind: 'text', key: 'pec', label: 'Indirizzo PEC', inputType: 'email' },
  { kind: 'text', key: 'phone', label: 'Numero di telefono', inputType: 'tel' },
  { kind: 'choice', key: 'roleId', label: 'Ruolo utente', options: roleOptions },
  { kind: 'text', key: 'sdi', label: 'Codice SDI' },
  { kind: 'text', key: 'vatCode', label: 'Partita IVA' },
  { kind: 'checkbox', key: 'isCompany', label: 'Azienda' },
  { kind: 'checkbox', key: 'isActive', label: 'Utente Attivo' },
];
// Same cascading selects as the user form (spec §4), without its tab; street, ZIP and municipality required (spec §5).
const requiredInWizard = new Set(['street', 'zip', 'municipality']);
const addressFields: FieldDef[] = billingAddressFields.map(({ group: _group, from: _from, ...f }) => ({
  ...f,
  required: requiredInWizard.has(f.key),
}));

const stepFields: readonly FieldDef[][] = [emailFields, personalFields, addressFields, []];
const LAST = stepFields.length - 1;

/** Whether the e-mail is free (`GET api/user/isEmailUnique/{email}` → data true / false). */
async function isEmailUnique(email: string, tenantId: number | null): Promise<boolean> {
  const data = await unwrap<boolean>(
    http.get<Envelope<boolean>>(apiPaths.user.isEmailUnique(email), { tenantId }),
  );
  if (typeof data !== 'boolean') throw new Error('isEmailUnique: risposta senza esito');
  return data;
}

/** The label of one option of `api/{entity}/getAllForSelect` (the summary shows names, not ids). */
function useOptionLabel(entity: string, id: unknown): string | null {
  const value = typeof id === 'number' ? id : null;
  const q = useSelectOptions(
    entity,
    { page: 1, pageSize: 1, selectedIds: value === null ? [] : [value] },
    { enabled: value !== null },
  );
  return q.data?.options.find((o) => o.value === value)?.label ?? null;
}

/**
 * /user-wizard (spec §2, §5, §8): 1 e-mail (checked unique by the server), 2 personal data,
 * 3 billing address, 4 summary with confirm → `POST api/user/Create` with the PascalCase payload,
 * then /user.
 */
export default function UserWizardPage({ routeLabel }: ScreenProps) {
  const navigate = useNavigate();
  // The tenant the wizard was opened in: its checks and the Create go there even if another tab
  // switches tenant meanwhile.
  const [tenantId] = useState(getSelectedTenantId);
  const [step, setStep] = useState(0);
  const [checking, setChecking] = useState(false);
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<string[]>([]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const headingId = useId();

  const form = useForm<FormValues>({
    defaultValues: wizardDefaults,
    // Messages appear only when 'Avanti' (or confirm) is pressed, never on leaving a field: a
    // message appearing on blur moves the controls below it while the pointer is on its way to
    // one of them ('Azienda', 'Avanti'), and the click lands nowhere.
    mode: 'onSubmit',
    resolver: zodResolver(wizardSchema) as unknown as Resolver<FormValues>,
  });

  // A field showing a message is re-checked as its value changes, so the message goes away as
  // soon as the value is valid (while typing, before the pointer reaches 'Avanti').
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name && form.getFieldState(name).error) void form.trigger(name);
    });
    return () => subscription.unsubscribe();
  }, [form]);

  // Move focus to the new step's heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [step]);

  const goTo = (next: number) => {
    moved.current = true;
    setFailure([]);
    setStep(next);
  };

  async function checkEmail(): Promise<boolean> {
    const email = String(form.getValues('email') ?? '').trim();
    setChecking(true);
    try {
      if (await isEmailUnique(email, tenantId)) return true;
      form.setError('email', { type: 'server', message: messages.wizard.emailTaken }, { shouldFocus: true });
      return false;
    } catch (error) {
      console.error('Errore durante la verifica dell’email:', error);
      if (!isHandledByInterceptor(error)) {
        form.setError(
          'email',
          { type: 'server', message: messages.wizard.emailCheckFailed },
          { shouldFocus: true },
        );
      }
      return false;
    } finally {
      setChecking(false);
    }
  }

  async function next() {
    const keys = stepFields[step]?.map((f) => f.key) ?? [];
    const valid = await form.trigger(keys, { shouldFocus: true });
    if (!valid) return;
    if (step === 0 && !(await checkEmail())) return;
    goTo(step + 1);
  }

  const create = form.handleSubmit(async (values) => {
    setCreating(true);
    setFailure([]);
    try {
      await unwrap<User>(
        http.post(apiPaths.entity('user').create, toWizardPayload(values as unknown as WizardValues), {
          tenantId,
        }),
      );
      notify.success(messages.wizard.created);
      void navigate('/user');
    } catch (error) {
      console.error('Errore durante la creazione dell’utente:', error);
      notify.error(messages.wizard.createFailed);
      setFailure(serverErrors(error));
      setCreating(false);
    }
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (step === LAST) void create(e);
    else void next();
  };

  const busy = checking || creating;

  return (
    <div className="mx-auto w-full max-w-3xl">
      <div className="mb-6">
        <h1 className="page-title">{routeLabel}</h1>
        <p className="mt-1 text-sm text-slate-500">{wizardText.intro}</p>
      </div>

      <ol aria-label={wizardText.progress} className="mb-6 grid grid-cols-4 gap-2">
        {wizardText.steps.map((name, i) => {
          const done = i < step;
          const current = i === step;
          return (
            <li
              key={name}
              aria-current={current ? 'step' : undefined}
              className="flex min-w-0 flex-col gap-2"
            >
              <span
                className={`h-1.5 rounded-full ${done || current ? 'bg-blue-600' : 'bg-slate-200'}`}
                aria-hidden="true"
              />
              <span
                className={`flex items-center gap-2 text-xs font-medium sm:text-sm ${current ? 'text-blue-700' : done ? 'text-slate-700' : 'text-slate-500'}`}
              >
                <span
                  className={`grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs ${
                    done
                      ? 'bg-blue-600 text-white'
                      : current
                        ? 'border-2 border-blue-600 text-blue-700'
                        : 'border border-slate-300 text-slate-500'
                  }`}
                  aria-hidden="true"
                >
                  {done ? <CheckIcon className="h-3.5 w-3.5" /> : i + 1}
                </span>
                <span className="hidden truncate sm:inline" aria-hidden="true">
                  {wizardText.stepLabels[i]}
                </span>
                <span className="sr-only">
                  {`${wizardText.stepOf(i + 1, stepFields.length)}: ${name}${done ? `, ${wizardText.completed}` : current ? `, ${wizardText.current}` : ''}`}
                </span>
              </span>
            </li>
          );
        })}
      </ol>

      <form
        className="card"
        onSubmit={onSubmit}
        noValidate
        aria-labelledby={headingId}
        aria-busy={busy || undefined}
      >
        <div className="p-6">
          <p className="text-xs font-semibold uppercase tracking-wide text-blue-700">
            {wizardText.stepOf(step + 1, stepFields.length)}
          </p>
          <h2
            id={headingId}
            ref={headingRef}
            tabIndex={-1}
            className="mt-1 text-lg font-semibold text-slate-900 focus:outline-none"
          >
            {wizardText.steps[step]}
          </h2>
          <p className="mt-1 mb-6 text-sm text-slate-500">{wizardText.stepHints[step]}</p>

          {/* Only the current step is mounted; react-hook-form keeps the other steps' values. */}
          {step === LAST ? (
            <Summary values={form.getValues()} />
          ) : (
            <div key={step} className="grid gap-5 sm:grid-cols-2">
              {stepFields[step]?.map((f) => (
                <FormField key={f.key} field={f} form={form} fields={addressFields} />
              ))}
            </div>
          )}

          {checking && (
            <p role="status" className="mt-4 text-sm text-slate-500">
              {wizardText.checking}
            </p>
          )}
          {failure.length > 0 && (
            <div
              role="alert"
              className="mt-6 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-700"
            >
              <ul className="list-disc space-y-1 pl-5">
                {failure.map((e, i) => (
                  <li key={i}>{e}</li>
                ))}
              </ul>
            </div>
          )}
        </div>

        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 bg-slate-50/60 px-6 py-4 sm:flex-row sm:justify-between">
          <button
            type="button"
            className="btn-secondary"
            disabled={busy}
            onClick={() => (step === 0 ? void navigate(-1) : goTo(step - 1))}
          >
            <ArrowLeftIcon />
            {wizardText.back}
          </button>
          <button type="submit" className="btn-primary" disabled={busy}>
            {step === LAST ? (
              <>
                <CheckIcon />
                {creating ? wizardText.creating : wizardText.confirm}
              </>
            ) : (
              <>
                {wizardText.next}
                <ArrowRightIcon />
              </>
            )}
          </button>
        </div>
      </form>
    </div>
  );
}

function SummaryRow({ label, value }: { label: string; value: unknown }) {
  const missing = value === null || value === undefined || String(value).trim() === '';
  return (
    <div className="grid grid-cols-1 gap-0.5 py-2 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd
        className={`text-sm break-words sm:col-span-2 ${missing ? 'text-slate-500' : 'font-medium text-slate-900'}`}
      >
        {missing ? messages.common.notAvailable : String(value)}
      </dd>
    </div>
  );
}

/** Step 4: everything entered, with the names of the chosen region, province and municipality. */
function Summary({ values }: { values: FormValues }) {
  const region = useOptionLabel('region', values.region);
  const province = useOptionLabel('province', values.province);
  const municipality = useOptionLabel('municipality', values.municipality);
  const role = roleOptions.find((o) => o.value === Number(values.roleId))?.label;
  const groups: { title: string; rows: [string, unknown][] }[] = [
    {
      title: wizardText.summaryGroups.account,
      rows: [
        ['Indirizzo email', values.email],
        ['Ruolo utente', role],
      ],
    },
    {
      title: wizardText.summaryGroups.personal,
      rows: [
        ['Nome completo', values.name],
        ['Indirizzo PEC', values.pec],
        ['Numero di telefono', values.phone],
        ['Codice SDI', values.sdi],
        ['Partita IVA', values.vatCode],
        ['Azienda', formatBool(values.isCompany)],
        ['Utente Attivo', formatBool(values.isActive)],
      ],
    },
    {
      title: wizardText.summaryGroups.billing,
      rows: [
        ['Via', values.street],
        ['CAP', values.zip],
        ['Regione', region],
        ['Provincia', province],
        ['Comune', municipality],
      ],
    },
  ];
  return (
    <div className="space-y-6">
      {groups.map((g) => (
        <section key={g.title} aria-label={g.title}>
          <h3 className="text-sm font-semibold text-slate-900">{g.title}</h3>
          <dl className="mt-1 divide-y divide-slate-100">
            {g.rows.map(([label, value]) => (
              <SummaryRow key={label} label={label} value={value} />
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
