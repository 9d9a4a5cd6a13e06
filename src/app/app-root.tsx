import { Suspense, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router-dom';
import { messages } from '../../contract/messages';
import { sessionToastIds } from '../lib/http-errors';
import { notify } from '../lib/notify';
import {
  endSession,
  loginPathFor,
  setSessionEndHandler,
  takeInvalidRestore,
  tokenExpiryMs,
  useSession,
} from '../lib/session';
import { PageSpinner } from '../components/spinner';

/** setTimeout cannot wait longer than this (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The top of the route tree. It owns what the session routine needs from React: navigation and
 * the query cache. It also sends a start with a broken stored user to /login (spec §4) and ends
 * the session when the JWT's exp passes, before a request meets the 401.
 */
export function AppRoot() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();

  useEffect(
    () =>
      setSessionEndHandler((reason) => {
        void queryClient.cancelQueries();
        queryClient.clear();
        navigate(loginPathFor(reason), { replace: true });
      }),
    [navigate, queryClient],
  );

  useEffect(() => {
    if (takeInvalidRestore()) navigate('/login', { replace: true });
  }, [navigate]);

  useEffect(() => {
    const exp = session ? tokenExpiryMs(session.token) : null;
    if (exp === null) return;
    const delay = exp - Date.now();
    if (delay > MAX_TIMER_MS) return;
    const timer = window.setTimeout(
      () => {
        notify.info(messages.login.sessionExpired, { toastId: sessionToastIds.expired });
        endSession('expired');
      },
      Math.max(delay, 0),
    );
    return () => window.clearTimeout(timer);
  }, [session]);

  return (
    <Suspense fallback={<PageSpinner fullScreen />}>
      {/* New screens open at the top; back/forward restore where the user was. */}
      <ScrollRestoration />
      <Outlet />
    </Suspense>
  );
}
