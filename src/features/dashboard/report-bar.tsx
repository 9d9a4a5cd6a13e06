import { useId, useState, type FormEvent } from 'react';
import { FilePdfIcon } from '../../components/icons';
import { useDownloadReport } from './api/download-report';
import { useSendReport } from './api/send-report';

/** 'YYYY-MM' of today in Rome (the server's calendar). */
export function romeMonth(now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}`;
}

export const reportText = {
  title: 'Report mensile',
  hint: 'Indicatori, grafici di 12 mesi e sottoscrizioni del mese, in PDF.',
  month: 'Mese del report',
  download: 'Report PDF',
  downloading: 'Preparazione…',
  email: 'Invia a (email)',
  send: 'Invia per email',
  sending: 'Invio…',
} as const;

/** The dashboard's 'Report PDF' (issue 14): a month (default: this one), download or e-mail. */
export function ReportBar() {
  const current = romeMonth();
  const [month, setMonth] = useState(current);
  const [email, setEmail] = useState('');
  const pdf = useDownloadReport();
  const sending = useSendReport();
  const busy = pdf.isPending ? 'pdf' : sending.isPending ? 'send' : null;
  const id = useId();
  const chosen = /^\d{4}-\d{2}$/.test(month) ? month : current;

  const download = () => pdf.mutate(chosen);

  function send(e: FormEvent) {
    e.preventDefault();
    sending.mutate({ month: chosen, email: email.trim() }, { onSuccess: () => setEmail('') });
  }

  return (
    <section className="card px-5 py-4" aria-labelledby={`${id}-title`}>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
            {reportText.title}
          </h2>
          <p className="text-sm text-slate-500">{reportText.hint}</p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          <div>
            <label className="label" htmlFor={`${id}-month`}>
              {reportText.month}
            </label>
            <input
              id={`${id}-month`}
              type="month"
              className="input sm:w-44"
              value={month}
              max={current}
              onChange={(e) => setMonth(e.target.value)}
            />
          </div>
          <button type="button" className="btn-primary" disabled={busy !== null} onClick={download}>
            <FilePdfIcon className="h-4 w-4" />
            {busy === 'pdf' ? reportText.downloading : reportText.download}
          </button>
          <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={send}>
            <div>
              <label className="label" htmlFor={`${id}-email`}>
                {reportText.email}
              </label>
              <input
                id={`${id}-email`}
                type="email"
                required
                className="input sm:w-56"
                placeholder="commercialista@studio.it"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <button type="submit" className="btn-secondary" disabled={busy !== null}>
              {busy === 'send' ? reportText.sending : reportText.send}
            </button>
          </form>
        </div>
      </div>
    </section>
  );
}
