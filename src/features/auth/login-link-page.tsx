import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LOGIN_LINK_REQUEST_PATH, loginLinkMessages } from '../../../contract/login-link';
import { Spinner } from '../../components/spinner';
import { isHttpError, serverMessage } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { LOGIN_LINK_TOAST, useLoginWithLink } from './api/login-with-link';
import { AuthCard } from './auth-card';
import { useStartSession } from './use-start-session';

/**
 * /login/link?token=… — the sign-in link of a customer's e-mail (issue 28). The token is sent
 * once (the server spends it), the session is stored exactly as Login stores it and the person
 * goes home. A missing, spent or expired link says so, with the way to ask for a new one.
 */
export default function LoginLinkPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const signIn = useStartSession();
  const login = useLoginWithLink();
  const { mutate } = login;
  // A link works once: sent a single time, even when an effect runs twice (StrictMode).
  const sent = useRef(false);

  useEffect(() => {
    // No token at all (a link cut short): the same message, as a toast too (spec §8).
    if (token === '') notify.error(loginLinkMessages.invalid, { toastId: LOGIN_LINK_TOAST });
    if (token === '' || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  const session = login.data;
  useEffect(() => {
    if (session) signIn(session);
    // signIn is a new function each render; the session arrives once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session]);

  if (token === '' || login.isError) {
    const refused = token === '' || (isHttpError(login.error) && login.error.response?.status === 400);
    const message = refused
      ? loginLinkMessages.invalid
      : (serverMessage(login.error) ?? 'Non è stato possibile accedere. Controlla la connessione e riprova.');
    return (
      <AuthCard title={refused ? 'Link di accesso non valido' : 'Accesso non riuscito'}>
        <div className="space-y-5">
          <p
            role="alert"
            className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900"
          >
            {message}
          </p>
          <Link to={LOGIN_LINK_REQUEST_PATH} className="btn-primary w-full justify-center py-2.5">
            Richiedi un nuovo link
          </Link>
          <Link to="/login" className="btn-ghost w-full justify-center">
            Accedi con la password
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Accesso in corso">
      <div className="flex items-center gap-3 py-4 text-sm text-slate-600">
        <Spinner label="Accesso con il link in corso…" />
        <span>Stiamo aprendo la tua area…</span>
      </div>
    </AuthCard>
  );
}
