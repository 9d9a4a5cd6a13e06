import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { apiPaths } from '../../../contract/api-paths';
import {
  twoFactorMessages as m,
  type TwoFactorEnabled,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../../contract/two-factor';
import { inputClass } from '../../components/fields/field-shell';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { useQrCode } from '../../components/qr-code';
import { unwrap } from '../../lib/entity-hooks';
import { http } from '../../lib/http';
import { isHandledByInterceptor, serverMessage } from '../../lib/http-errors';
import { notify } from '../../lib/notify';

type Step =
  | { kind: 'loading' }
  | { kind: 'off'; status: TwoFactorStatus }
  | { kind: 'setup'; setup: TwoFactorSetup }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'on'; status: TwoFactorStatus };

export const twoFactorText = {
  title: 'Accesso in due passaggi',
  intro:
    'Oltre alla password, all’accesso ti chiederemo un codice a 6 cifre generato da un’app di autenticazione sul telefono (Google Authenticator, Microsoft Authenticator, 1Password e simili).',
  enable: 'Attiva',
  scan: 'Inquadra il codice QR con l’app di autenticazione, poi scrivi il codice a 6 cifre che mostra.',
  manual: 'Non riesci a inquadrarlo? Inserisci a mano questa chiave:',
  codeLabel: 'Codice a 6 cifre',
  confirm: 'Conferma e attiva',
  codesIntro:
    'Ecco i codici di recupero: ognuno vale una volta, se non hai il telefono. Salvali ora in un posto sicuro: non li vedrai più.',
  copyCodes: 'Copia i codici',
  copied: 'Copiati',
  savedCodes: 'Ho salvato i codici',
  activeSince: 'Attivo: all’accesso ti chiederemo il codice dell’app.',
  codesLeft: (n: number) => `Codici di recupero ancora validi: ${n}.`,
  disableLabel: 'Per disattivarlo, scrivi un codice dell’app o un codice di recupero',
  disable: 'Disattiva',
  required:
    'Il tenant selezionato richiede agli Admin l’accesso in due passaggi: attivalo per continuare a lavorarci.',
} as const;

const t = twoFactorText;

/** Status, enrolment (QR code, confirming code, recovery codes) and turning it off (issue 23). */
export function TwoFactorDialog({ onClose, required = false }: { onClose: () => void; required?: boolean }) {
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const load = useCallback(async () => {
    try {
      const status = await unwrap<TwoFactorStatus>(http.get(apiPaths.user.twoFactor));
      if (status) setStep(status.enabled ? { kind: 'on', status } : { kind: 'off', status });
    } catch (e) {
      console.error(e);
      onClose();
    }
  }, [onClose]);
  useEffect(() => void load(), [load]);

  return (
    <Modal title={t.title} description={t.intro} onClose={onClose}>
      {required && step.kind !== 'codes' && step.kind !== 'on' && (
        <p
          className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          role="status"
        >
          {t.required}
        </p>
      )}
      {step.kind === 'loading' && <p className="text-sm text-slate-500">Caricamento…</p>}
      {step.kind === 'off' && <StartSetup onReady={(setup) => setStep({ kind: 'setup', setup })} />}
      {step.kind === 'setup' && (
        <ConfirmSetup setup={step.setup} onEnabled={(codes) => setStep({ kind: 'codes', codes })} />
      )}
      {step.kind === 'codes' && <RecoveryCodes codes={step.codes} onDone={() => void load()} />}
      {step.kind === 'on' && <Disable status={step.status} onDisabled={() => void load()} />}
    </Modal>
  );
}

/** One error path: the server's message, shown once (the interceptor already shows its own). */
function report(e: unknown, setError: (message: string) => void) {
  console.error(e);
  const message = serverMessage(e) ?? m.codeInvalid;
  setError(message);
  if (!isHandledByInterceptor(e)) notify.error(message);
}

function StartSetup({ onReady }: { onReady: (setup: TwoFactorSetup) => void }) {
  const [busy, setBusy] = useState(false);
  async function start() {
    setBusy(true);
    try {
      const setup = await unwrap<TwoFactorSetup>(http.post(apiPaths.user.twoFactorSetup));
      if (setup) onReady(setup);
    } catch (e) {
      report(e, () => undefined);
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      className="btn-primary w-full sm:w-auto"
      disabled={busy}
      onClick={() => void start()}
    >
      {t.enable}
    </button>
  );
}

/** A form of one code: required, sent trimmed, its error on the field (and as a toast). */
function useCodeForm(send: (code: string) => Promise<void>) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setError(m.codeRequired);
    setBusy(true);
    setError(null);
    try {
      await send(code.trim());
    } catch (err) {
      report(err, setError);
    } finally {
      setBusy(false);
    }
  }
  return { code, setCode, error, busy, submit };
}

function CodeField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error: string | null;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        className={`${inputClass(error ?? undefined)} mt-1 font-mono tracking-widest`}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={20}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

function ConfirmSetup({ setup, onEnabled }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void }) {
  const qr = useQrCode(setup.otpauthUri);
  const { code, setCode, error, busy, submit } = useCodeForm(async (value) => {
    const done = await unwrap<TwoFactorEnabled>(http.post(apiPaths.user.twoFactorEnable, { code: value }));
    if (done) {
      notify.success(m.enabled);
      onEnabled(done.recoveryCodes);
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <p className="text-sm text-slate-700">{t.scan}</p>
      <div className="flex justify-center">
        {qr ? (
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(qr)}`}
            alt="Codice QR per l’app di autenticazione"
            className="h-48 w-48 rounded-lg border border-slate-200 bg-white p-2"
            data-testid="two-factor-qr"
          />
        ) : (
          <div className="h-48 w-48 animate-pulse rounded-lg bg-slate-100" aria-hidden="true" />
        )}
      </div>
      <p className="text-sm text-slate-600">
        {t.manual}{' '}
        <code
          className="break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800"
          data-testid="two-factor-secret"
        >
          {setup.secret.replace(/(.{4})(?=.)/g, '$1 ')}
        </code>
      </p>
      <CodeField label={t.codeLabel} value={code} onChange={setCode} error={error} />
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {t.confirm}
      </button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">{t.codesIntro}</p>
      <ul
        className="grid grid-cols-2 gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-sm"
        data-testid="recovery-codes"
      >
        {codes.map((c) => (
          <li key={c} className="text-center tracking-wider text-slate-900">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="button"
          className="btn-secondary flex-1"
          onClick={() =>
            void navigator.clipboard
              .writeText(codes.join('\n'))
              .then(() => setCopied(true))
              .catch((e: unknown) => console.error(e))
          }
        >
          {copied ? <CheckIcon className="h-4 w-4" /> : <CopyIcon className="h-4 w-4" />}
          {copied ? t.copied : t.copyCodes}
        </button>
        <button type="button" className="btn-primary flex-1" onClick={onDone}>
          {t.savedCodes}
        </button>
      </div>
    </div>
  );
}

function Disable({ status, onDisabled }: { status: TwoFactorStatus; onDisabled: () => void }) {
  const { code, setCode, error, busy, submit } = useCodeForm(async (value) => {
    await unwrap(http.post(apiPaths.user.twoFactorDisable, { code: value }));
    notify.success(m.disabled);
    onDisabled();
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <p className="flex items-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
        <CheckIcon className="h-4 w-4 shrink-0" />
        {t.activeSince} {t.codesLeft(status.recoveryCodesLeft)}
      </p>
      <CodeField label={t.disableLabel} value={code} onChange={setCode} error={error} />
      <button type="submit" className="btn-secondary w-full" disabled={busy}>
        {t.disable}
      </button>
    </form>
  );
}

/**
 * For an Admin whose selected tenant requires two-factor sign-in and who has not turned it on:
 * the dialog opens by itself (the tenant's calls are refused until then).
 */
export function TwoFactorPrompt({ tenantId }: { tenantId: number | null }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  useEffect(() => {
    if (tenantId === null) return;
    let live = true;
    unwrap<TwoFactorStatus>(http.get(apiPaths.user.twoFactor))
      .then((status) => {
        if (live && status && !status.enabled && status.requiredByTenantIds.includes(tenantId)) setOpen(true);
      })
      .catch((e: unknown) => console.error(e));
    return () => {
      live = false;
    };
  }, [tenantId]);
  return open ? <TwoFactorDialog onClose={close} required /> : null;
}
