import { DownloadIcon, FilePdfIcon } from '../../components/icons';
import type { ScreenProps } from '../../lib/resource';
import { useDownloadMyData } from './api/my-data';

/** What the file holds and what it leaves out, in plain Italian (server/README.md 'I miei dati'). */
const included = [
  'il tuo account: nome, email, ruolo, se hai una password e la verifica in due passaggi (non la password)',
  'per ogni fornitore di cui sei cliente: i dati di fatturazione (codice fiscale, Partita IVA, SDI, PEC, indirizzo) e gli altri indirizzi',
  'gli abbonamenti con il loro storico, i pagamenti, i bonifici e i link di pagamento',
  'le fatture e le note di credito, con gli invii al Sistema di Interscambio, e le fatture in attesa di dati',
  'le email inviate al tuo indirizzo (oggetto e date) e gli eventi sui tuoi abbonamenti inviati ai sistemi del fornitore',
  'gli accessi: link di accesso e di reimpostazione della password richiesti, le reti da cui hai effettuato l’accesso',
];

/**
 * 'I miei dati' (issue 28; GDPR art. 15 and 20): what Rinnova holds about the person, from every
 * seller they are a customer of, downloaded as JSON (for another service) or PDF (to read).
 */
export default function MyDataPage({ routeLabel }: ScreenProps) {
  const download = useDownloadMyData();
  const busy = download.isPending ? download.variables : null;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="page-title">{routeLabel}</h1>
      <p className="mb-4 mt-1 text-sm text-slate-500">
        Scarica una copia di tutti i dati che Rinnova conserva su di te, presso ogni fornitore di cui sei
        cliente. È un tuo diritto (articoli 15 e 20 del GDPR) e puoi farlo quando vuoi.
      </p>

      <section className="card p-4 sm:p-6" aria-labelledby="my-data-included">
        <h2 id="my-data-included" className="text-base font-semibold text-slate-900">
          Cosa contiene
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-sm text-slate-700">
          {included.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-slate-500">
          Per la tua sicurezza non contiene password, codici della verifica in due passaggi né link di accesso
          ancora validi, e nessun dato di altre persone.
        </p>
      </section>

      <section className="card mt-4 p-4 sm:p-6" aria-labelledby="my-data-download">
        <h2 id="my-data-download" className="text-base font-semibold text-slate-900">
          Scarica
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          Il file JSON è pensato per essere letto da un programma o portato a un altro servizio; il PDF per
          essere letto da te.
        </p>
        <div className="mt-4 grid gap-3 sm:flex">
          <button
            type="button"
            className="btn-primary min-h-12 w-full sm:w-auto"
            disabled={busy !== null}
            onClick={() => download.mutate('json')}
          >
            <DownloadIcon className="h-4 w-4" />
            {busy === 'json' ? 'Preparazione…' : 'Scarica JSON'}
          </button>
          <button
            type="button"
            className="btn-secondary min-h-12 w-full sm:w-auto"
            disabled={busy !== null}
            onClick={() => download.mutate('pdf')}
          >
            <FilePdfIcon className="h-4 w-4" />
            {busy === 'pdf' ? 'Preparazione…' : 'Scarica PDF'}
          </button>
        </div>
      </section>
    </div>
  );
}
