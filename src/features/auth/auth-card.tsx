import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** The centred, brand-accented card of the public auth screens (login, reset password). */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="relative flex min-h-screen items-center justify-center overflow-hidden bg-slate-50 px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-48 left-1/2 h-[30rem] w-[60rem] -translate-x-1/2 brand-glow"
      />
      <div className="relative w-full max-w-md">
        <Link
          to="/"
          className="mx-auto mb-6 flex w-fit items-center gap-3 rounded-lg"
          aria-label="Rinnova, torna alla pagina iniziale"
        >
          <img src="/logo.svg" alt="" className="h-11 w-11 drop-shadow-sm" />
          <span className="text-2xl font-semibold tracking-tight text-slate-900">Rinnova</span>
        </Link>
        <section aria-labelledby="auth-title" className="card overflow-hidden shadow-lg shadow-slate-900/5">
          <div className="h-1 bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
          <div className="px-6 py-8 sm:px-8">
            <h1 id="auth-title" className="text-xl font-semibold tracking-tight text-slate-900">
              {title}
            </h1>
            {subtitle && <p className="mt-1 text-sm text-slate-600">{subtitle}</p>}
            <div className="mt-6">{children}</div>
          </div>
        </section>
        <p className="mt-6 text-center text-xs text-slate-500">
          Pagamenti ricorrenti e gestione abbonamenti · © {new Date().getFullYear()} Rinnova
        </p>
      </div>
    </main>
  );
}

export function ButtonSpinner() {
  return (
    <span
      aria-hidden="true"
      className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
    />
  );
}
