import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { messages } from '../../../contract/messages';
import { notify } from '../../lib/notify';

/** bypassTenant=true anywhere but the payment page (spec §5): the message as a toast (§8) and on screen. */
export function BypassNotAllowed() {
  useEffect(() => {
    notify.error(messages.tenant.bypassOnlyOnPayment, { toastId: 'bypass-not-allowed' });
  }, []);
  const { pathname, search } = useLocation();
  const rest = new URLSearchParams(search);
  rest.delete('bypassTenant');
  const query = rest.toString();
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <section className="card w-full max-w-md overflow-hidden">
        <div className="h-1 bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
        <div className="px-6 py-8">
          <img src="/logo.svg" alt="Rinnova" className="h-10 w-10" />
          <p role="alert" className="mt-5 text-base font-medium text-slate-900">
            {messages.tenant.bypassOnlyOnPayment}
          </p>
          <Link to={`${pathname}${query ? `?${query}` : ''}`} replace className="btn-primary mt-6">
            Continua senza bypass
          </Link>
        </div>
      </section>
    </main>
  );
}
