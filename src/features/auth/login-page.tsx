import { useEffect, useState, type FormEvent } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { apiPaths } from '../../../contract/api-paths';
import type { Envelope } from '../../../contract/envelope';
import { loginLinkMessages, REQUESTED_LOGIN_LINK_TTL_MS } from '../../../contract/login-link';
import { messages } from '../../../contract/messages';
import type { ForcedResetData, LoginResponse } from '../../../contract/schemas/auth';
import { twoFactorMessages, type SecondFactorChallenge } from '../../../contract/two-factor';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { errorData, serverMessage, sessionToastIds } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { useRequestLoginLink } from './api/request-login-link';
import { AuthCard, ButtonSpinner } from './auth-card';
import { useStartSession } from './use-start-session';

const passwordRequired = 'La password è obbligatoria.';

// Two required fields: the form library's own rules, so the sign-in page (the first load of a
// signed-out visit) carries no schema library (issue 8). The e-mail is sent trimmed.
interface LoginForm {
  email: string;
  password: string;
}
type ResetRequestForm = Pick<LoginForm, 'email'>;
const emailRules = {
  validate: (value: string) => value.trim() !== '' || messages.wizard.emailRequired,
};
const passwordRules = { validate: (value: string) => value !== '' || passwordRequired };

/** The e-mail field the three forms of the page share (sign-in, reset request, sign-in link). */
function EmailField({
  error,
  autoComplete,
  field,
}: {
  error: string | undefined;
  autoComplete: 'username' | 'email';
  field: UseFormRegisterReturn<'email'>;
}) {
  return (
    <FieldShell label="Email" error={error}>
      {(control) => (
        <input
          {...control}
          type="email"
          autoComplete={autoComplete}
          className={inputClass(error)}
          placeholder="nome@azienda.it"
          {...field}
        />
      )}
    </FieldShell>
  );
}

/**
 * The HTTP client (axios) is loaded when the person starts filling the form, not with the page:
 * the sign-in page's first load carries only what it shows (issue 8).
 */
const loadHttp = () => import('../../lib/http').then((m) => m.http);

/** Path and query of a reset URL, absolute or relative (the forced reset's `resetUrl`). */
export function pathAndQuery(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * /login: sign in, ask for a password-reset e-mail (spec §2, §4, §5, §8), or ask for a sign-in
 * link by e-mail (issue 28: a customer needs no password).
 */
export default function LoginPage() {
  const [params] = useSearchParams();
  const [mode, setMode] = useState<'login' | 'reset' | 'link'>(() =>
    // LOGIN_LINK_REQUEST_PATH: the way back from a spent or expired link.
    params.get('mode') === 'link' ? 'link' : 'login',
  );
  /** The second step's challenge, once the password was right on a two-factor account. */
  const [challenge, setChallenge] = useState<string | null>(null);
  const expired = params.get('sessionExpired') === 'true';

  useEffect(() => {
    // Same toast id as the 401 catalogue entry: the expiry is announced once.
    if (expired) notify.info(messages.login.sessionExpired, { toastId: sessionToastIds.expired });
  }, [expired]);

  if (challenge)
    return (
      <AuthCard
        title="Verifica in due passaggi"
        subtitle="Apri l’app di autenticazione e scrivi il codice a 6 cifre che mostra per Rinnova."
      >
        <SecondFactorView challenge={challenge} onBack={() => setChallenge(null)} />
      </AuthCard>
    );
  if (mode === 'link')
    return (
      <AuthCard
        title="Accedi con un link"
        subtitle="Niente password: scrivi l’email con cui ricevi le nostre comunicazioni e ti invieremo un link per entrare nella tua area."
      >
        <LoginLinkRequestView onBack={() => setMode('login')} />
      </AuthCard>
    );
  return mode === 'login' ? (
    <AuthCard title="Accedi a Rinnova" subtitle="Gestisci abbonamenti, piani e pagamenti ricorrenti.">
      <LoginFormView
        onForgot={() => setMode('reset')}
        onLoginLink={() => setMode('link')}
        onSecondFactor={setChallenge}
      />
    </AuthCard>
  ) : (
    <AuthCard
      title="Reimposta la password"
      subtitle="Inserisci l’email del tuo account: ti invieremo un link per scegliere una nuova password."
    >
      <ResetRequestView onBack={() => setMode('login')} />
    </AuthCard>
  );
}

function LoginFormView({
  onForgot,
  onLoginLink,
  onSecondFactor,
}: {
  onForgot: () => void;
  onLoginLink: () => void;
  onSecondFactor: (challenge: string) => void;
}) {
  const navigate = useNavigate();
  const signIn = useStartSession();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginForm>({ defaultValues: { email: '', password: '' } });

  /** Spec §8: every message is a toast ('Errore durante il login' or the server's); the form shows it too. */
  function fail(message: string | null) {
    const text = message ?? messages.login.defaultError;
    setError(text);
    notify.error(text);
  }

  async function onSubmit(values: LoginForm) {
    setLoading(true);
    setError(null);
    try {
      const http = await loadHttp();
      const res = await http.post<Envelope<LoginResponse | ForcedResetData | SecondFactorChallenge>>(
        apiPaths.user.login,
        { Email: values.email.trim(), Password: values.password },
        // Wrong credentials answer 401: this page reports it, the logout routine must not run.
        { skipSessionRedirect: true },
      );
      const data = res.data.data;
      if (data && 'resetUrl' in data && data.resetUrl) {
        navigate(pathAndQuery(data.resetUrl));
      } else if (res.data.success && data && 'secondFactor' in data) {
        onSecondFactor(data.challenge);
      } else if (res.data.success && data && 'token' in data) {
        signIn(data);
      } else {
        fail(res.data.message);
      }
    } catch (e) {
      // HTTP 409 with data.resetUrl: the account must set a new password first.
      const resetUrl = errorData<Partial<ForcedResetData>>(e)?.resetUrl;
      if (resetUrl) navigate(pathAndQuery(resetUrl));
      else fail(serverMessage(e));
    } finally {
      setLoading(false);
    }
  }

  return (
    <form
      noValidate
      onFocus={() => void loadHttp()}
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      className="space-y-5"
    >
      {error && (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
          data-testid="login-error"
        >
          {error}
        </p>
      )}
      <EmailField
        error={errors.email?.message}
        autoComplete="username"
        field={register('email', emailRules)}
      />
      <FieldShell
        label="Password"
        error={errors.password?.message}
        labelAside={
          <button type="button" className="link text-sm" onClick={onForgot}>
            Password dimenticata?
          </button>
        }
      >
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="current-password"
            className={inputClass(errors.password?.message)}
            {...register('password', passwordRules)}
          />
        )}
      </FieldShell>
      <button type="submit" className="btn-primary w-full py-2.5" disabled={loading} aria-busy={loading}>
        {loading && <ButtonSpinner />}
        {loading ? 'Accesso in corso…' : 'Accedi'}
      </button>
      <div className="flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        oppure, senza password
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <button type="button" className="btn-secondary w-full py-2.5" onClick={onLoginLink}>
        {loginLinkMessages.requestAction}
      </button>
    </form>
  );
}

/** The second step of a two-factor sign-in: the app's code, or a recovery code. */
function SecondFactorView({ challenge, onBack }: { challenge: string; onBack: () => void }) {
  const signIn = useStartSession();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError(twoFactorMessages.codeRequired);
      return;
    }
    setLoading(true);
    setError(null);
    try {
      const http = await loadHttp();
      const res = await http.post<Envelope<LoginResponse>>(
        apiPaths.user.loginSecondFactor,
        { challenge, code: code.trim() },
        { skipSessionRedirect: true },
      );
      if (res.data.success && res.data.data) signIn(res.data.data);
    } catch (err) {
      const text = serverMessage(err) ?? messages.login.defaultError;
      setError(text);
      notify.error(text);
      // A spent or expired challenge: back to e-mail and password.
      if (text === twoFactorMessages.challengeInvalid) onBack();
    } finally {
      setLoading(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
      <FieldShell label={recovery ? 'Codice di recupero' : 'Codice a 6 cifre'} error={error ?? undefined}>
        {(control) => (
          <input
            {...control}
            autoFocus
            inputMode={recovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            maxLength={20}
            placeholder={recovery ? 'XXXX-XXXX' : '123456'}
            className={`${inputClass(error ?? undefined)} font-mono tracking-widest`}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
      </FieldShell>
      <button type="submit" className="btn-primary w-full py-2.5" disabled={loading} aria-busy={loading}>
        {loading && <ButtonSpinner />}
        {loading ? 'Verifica in corso…' : 'Verifica e accedi'}
      </button>
      <div className="flex flex-col gap-2 text-center text-sm sm:flex-row sm:justify-between">
        <button
          type="button"
          className="link"
          onClick={() => {
            setRecovery((v) => !v);
            setCode('');
            setError(null);
          }}
        >
          {recovery ? 'Usa il codice dell’app' : 'Non hai il telefono? Usa un codice di recupero'}
        </button>
        <button type="button" className="link" onClick={onBack}>
          Torna al login
        </button>
      </div>
    </form>
  );
}

function ResetRequestView({ onBack }: { onBack: () => void }) {
  const [loading, setLoading] = useState(false);
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetRequestForm>({ defaultValues: { email: '' } });

  async function onSubmit(values: ResetRequestForm) {
    setLoading(true);
    try {
      const http = await loadHttp();
      const res = await http.post<Envelope<unknown>>(
        apiPaths.user.requestPasswordReset,
        { Email: values.email.trim() },
        { skipSessionRedirect: true },
      );
      if (!res.data.success) throw new Error(res.data.message ?? 'reset request failed');
      notify.success(messages.login.resetRequestSuccess);
      setSent(true);
    } catch (e) {
      console.error(e);
      notify.error(messages.login.resetRequestError);
    } finally {
      setLoading(false);
    }
  }

  return (
    <form
      noValidate
      onFocus={() => void loadHttp()}
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      className="space-y-5"
    >
      {sent && (
        <p className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Se l’indirizzo è registrato riceverai a breve un’email con il link per reimpostare la password.
        </p>
      )}
      <EmailField error={errors.email?.message} autoComplete="email" field={register('email', emailRules)} />
      <button type="submit" className="btn-primary w-full py-2.5" disabled={loading} aria-busy={loading}>
        {loading && <ButtonSpinner />}
        {loading ? 'Invio in corso…' : 'Invia link di reset'}
      </button>
      <button type="button" className="btn-ghost w-full" onClick={onBack}>
        Torna al login
      </button>
    </form>
  );
}

/** 'Ricevi un link di accesso': the same confirmation whoever the address belongs to. */
function LoginLinkRequestView({ onBack }: { onBack: () => void }) {
  const request = useRequestLoginLink();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetRequestForm>({ defaultValues: { email: '' } });

  function onSubmit(values: ResetRequestForm) {
    request.mutate(values.email, { onSuccess: () => setSent(true) });
  }

  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-5">
      {sent && (
        <div
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
        >
          <p className="font-medium">{loginLinkMessages.requested}</p>
          <p className="mt-1 text-emerald-700">
            Il link vale {REQUESTED_LOGIN_LINK_TTL_MS / 60_000} minuti e si può usare una sola volta. Non
            arriva? Controlla la posta indesiderata o richiedilo di nuovo.
          </p>
        </div>
      )}
      <EmailField error={errors.email?.message} autoComplete="email" field={register('email', emailRules)} />
      <button
        type="submit"
        className="btn-primary w-full py-2.5"
        disabled={request.isPending}
        aria-busy={request.isPending}
      >
        {request.isPending && <ButtonSpinner />}
        {request.isPending ? 'Invio in corso…' : sent ? 'Invia di nuovo' : 'Invia il link di accesso'}
      </button>
      <button type="button" className="btn-ghost w-full" onClick={onBack}>
        Accedi con la password
      </button>
    </form>
  );
}
