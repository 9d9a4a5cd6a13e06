import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { apiPaths } from '../../../contract/api-paths';
import type { Envelope } from '../../../contract/envelope';
import { messages } from '../../../contract/messages';
import { newPasswordFormSchema } from '../../../contract/schemas/auth';
import { Spinner } from '../../components/spinner';
import { FieldShell, inputClass } from '../../components/fields/field-shell';
import { http } from '../../lib/http';
import { notify } from '../../lib/notify';
import { AuthCard, ButtonSpinner } from './auth-card';

/** Spec §9: back to /login 3 seconds after a successful reset. */
export const RESET_REDIRECT_MS = 3000;

type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

async function validateToken(token: string): Promise<boolean> {
  try {
    const res = await http.get<Envelope<unknown>>(apiPaths.user.validateResetToken, {
      params: { token },
      skipSessionRedirect: true,
    });
    return res.data.success;
  } catch {
    return false;
  }
}

/** /reset-password?token=…: token check → invalid | form → success → /login after 3 s (spec §4). */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [done, setDone] = useState(false);
  const check = useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => validateToken(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  if (done) {
    return (
      <AuthCard title="Password aggiornata">
        <SuccessView />
      </AuthCard>
    );
  }
  if (token !== '' && check.isPending) {
    return (
      <AuthCard title="Reimposta la password">
        <div className="flex items-center gap-3 py-4 text-sm text-slate-600">
          <Spinner label="Verifica del link in corso…" />
          <span>Verifica del link in corso…</span>
        </div>
      </AuthCard>
    );
  }
  if (token === '' || !check.data) return <InvalidLinkView />;
  return (
    <AuthCard
      title="Scegli una nuova password"
      subtitle="Almeno 6 caratteri. La userai per i prossimi accessi."
    >
      <NewPasswordFormView token={token} onDone={() => setDone(true)} />
    </AuthCard>
  );
}

/** A missing, spent or expired link: the catalogue's message as a toast (spec §8) and on the card. */
function InvalidLinkView() {
  useEffect(() => {
    notify.error(messages.resetPage.invalidToken, { toastId: 'reset-invalid-token' });
  }, []);
  return (
    <AuthCard title="Link non valido">
      <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
        {messages.resetPage.invalidToken}
      </p>
      <p className="mt-4 text-sm text-slate-600">
        Richiedi un nuovo link dalla pagina di accesso con “Password dimenticata?”.
      </p>
      <Link to="/login" className="btn-primary mt-6 w-full">
        Vai al login
      </Link>
    </AuthCard>
  );
}

function NewPasswordFormView({ token, onDone }: { token: string; onDone: () => void }) {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  async function onSubmit(values: NewPasswordForm) {
    setLoading(true);
    setError(null);
    try {
      const res = await http.post<Envelope<unknown>>(
        apiPaths.user.resetPassword,
        { token, newPassword: values.newPassword },
        { skipSessionRedirect: true },
      );
      if (!res.data.success) throw new Error(res.data.message ?? 'reset failed');
      onDone();
    } catch (e) {
      console.error(e);
      setError(messages.resetPage.resetError);
      notify.error(messages.resetPage.resetError, { toastId: 'reset-error' });
    } finally {
      setLoading(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-5">
      {error && (
        <p className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">{error}</p>
      )}
      <FieldShell label="Nuova password" error={errors.newPassword?.message}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="new-password"
            className={inputClass(errors.newPassword?.message)}
            {...register('newPassword')}
          />
        )}
      </FieldShell>
      <FieldShell label="Conferma password" error={errors.confirmPassword?.message}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="new-password"
            className={inputClass(errors.confirmPassword?.message)}
            {...register('confirmPassword')}
          />
        )}
      </FieldShell>
      <button type="submit" className="btn-primary w-full py-2.5" disabled={loading} aria-busy={loading}>
        {loading && <ButtonSpinner />}
        {loading ? 'Salvataggio in corso…' : 'Imposta la nuova password'}
      </button>
    </form>
  );
}

function SuccessView() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => navigate('/login', { replace: true }), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);
  return (
    <div role="status" className="space-y-4">
      <p className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        La password è stata aggiornata con successo.
      </p>
      <p className="text-sm text-slate-600">Tra 3 secondi verrai reindirizzato alla pagina di accesso.</p>
      <Link to="/login" replace className="link text-sm">
        Vai subito al login
      </Link>
    </div>
  );
}
