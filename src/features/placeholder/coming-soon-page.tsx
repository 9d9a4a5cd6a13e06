import { Link } from 'react-router-dom';

/** Screens of later issues: a friendly, honest placeholder titled with the route's label. */
export default function ComingSoonPage({ routeLabel }: { routeLabel: string }) {
  return (
    <section aria-labelledby="coming-soon-title" className="space-y-6">
      <h1 id="coming-soon-title" className="page-title">
        {routeLabel}
      </h1>
      <div className="card flex flex-col items-center px-6 py-14 text-center">
        <span className="inline-flex h-12 w-12 items-center justify-center rounded-full bg-linear-to-br from-brand-sky to-brand-indigo text-xl text-white shadow-sm">
          ✦
        </span>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">Sezione in arrivo</h2>
        <p className="mt-1 max-w-md text-sm text-slate-600">
          Questa schermata è in fase di sviluppo e sarà disponibile in uno dei prossimi aggiornamenti.
        </p>
        <Link to="/" className="btn-secondary mt-6">
          Torna alla home
        </Link>
      </div>
    </section>
  );
}
