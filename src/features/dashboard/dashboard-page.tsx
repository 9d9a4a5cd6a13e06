import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { roleNameById } from '../../../contract/enums';
import { ArrowRightIcon, BuildingIcon, MapIcon, PinIcon } from '../../app/icons';
import { useSession } from '../../lib/session';

const geography: { to: string; title: string; text: string; icon: ReactNode }[] = [
  { to: '/region', title: 'Regioni', text: 'Le 20 regioni italiane con il loro codice.', icon: <MapIcon /> },
  {
    to: '/province',
    title: 'Province',
    text: 'Province e sigle, collegate alla regione.',
    icon: <BuildingIcon />,
  },
  {
    to: '/municipality',
    title: 'Comuni',
    text: 'Comuni con CAP, collegati alla provincia.',
    icon: <PinIcon />,
  },
];

/** The index page until the real dashboard (KPIs and charts) arrives in a later issue. */
export default function DashboardPage() {
  const session = useSession();
  return (
    <div className="space-y-8">
      <section className="card relative overflow-hidden">
        <div
          aria-hidden="true"
          className="absolute inset-y-0 right-0 w-2/3 bg-linear-to-l from-brand-indigo/10 via-brand-blue/5 to-transparent"
        />
        <div className="relative px-6 py-8 sm:px-8">
          <p className="text-sm font-medium text-brand-blue">Dashboard</p>
          <h1 className="page-title mt-1">Benvenuto in Rinnova</h1>
          {session && (
            <p className="mt-2 text-sm text-slate-600">
              Hai effettuato l’accesso come{' '}
              <span className="font-medium text-slate-900">{session.user.email}</span>{' '}
              <span className="badge ml-1 bg-blue-50 text-brand-blue">{roleNameById[session.user.role]}</span>
            </p>
          )}
          <p className="mt-4 max-w-2xl text-sm text-slate-600">
            Gli indicatori e i grafici dell’andamento degli abbonamenti arriveranno presto. Nel frattempo puoi
            consultare i dati geografici di riferimento o aprire il menu principale per le altre sezioni.
          </p>
        </div>
      </section>

      <section aria-labelledby="geo-title">
        <h2 id="geo-title" className="text-base font-semibold text-slate-900">
          Dati geografici
        </h2>
        <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {geography.map((g) => (
            <li key={g.to}>
              <Link
                to={g.to}
                className="card group flex h-full items-start gap-4 p-5 transition-shadow hover:shadow-md focus-visible:shadow-md"
              >
                <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-linear-to-br from-brand-sky to-brand-indigo text-white">
                  {g.icon}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center justify-between font-medium text-slate-900">
                    {g.title}
                    <ArrowRightIcon className="h-4 w-4 text-slate-400 transition-transform group-hover:translate-x-0.5 group-hover:text-brand-blue" />
                  </span>
                  <span className="mt-1 block text-sm text-slate-500">{g.text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
