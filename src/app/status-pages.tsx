import type { ReactNode } from 'react';
import { Link, useRouteError } from 'react-router-dom';

function StatusCard({ code, title, children }: { code: string; title: string; children: ReactNode }) {
  return (
    <section className="mx-auto mt-10 max-w-lg text-center">
      <div className="card overflow-hidden">
        <div className="h-1 bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
        <div className="px-6 py-10 sm:px-10">
          <p className="bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo bg-clip-text text-5xl font-bold text-transparent">
            {code}
          </p>
          <h1 className="page-title mt-3">{title}</h1>
          <div className="mt-3 text-sm text-slate-600">{children}</div>
        </div>
      </div>
    </section>
  );
}

/** A route the user's role may not open (spec §2: routes shown only to allowed roles). */
export function ForbiddenPage() {
  return (
    <StatusCard code="403" title="Accesso negato">
      <p>Il tuo ruolo non ha i permessi per visualizzare questa pagina.</p>
      <Link to="/" className="btn-primary mt-6">
        Torna alla home
      </Link>
    </StatusCard>
  );
}

export function NotFoundPage() {
  return (
    <StatusCard code="404" title="Pagina non trovata">
      <p>L’indirizzo che hai aperto non corrisponde a nessuna pagina.</p>
      <Link to="/" className="btn-primary mt-6">
        Torna alla home
      </Link>
    </StatusCard>
  );
}

/** The router's error element: a failed lazy chunk or a render error. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (error) console.error(error);
  return (
    <main className="px-4">
      <StatusCard code="Ops" title="Si è verificato un errore imprevisto">
        <p>Ricarica la pagina per riprovare. Se il problema persiste, contatta l’assistenza.</p>
        <button type="button" className="btn-primary mt-6" onClick={() => window.location.reload()}>
          Ricarica la pagina
        </button>
      </StatusCard>
    </main>
  );
}
