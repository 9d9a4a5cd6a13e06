import { useState } from 'react';

export const dateTime = new Intl.DateTimeFormat('it-IT', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Rome',
});

export const formatAt = (iso: string | null | undefined, empty = 'Mai') =>
  iso ? dateTime.format(new Date(iso)) : empty;

/** A secret shown once, with a copy button. */
export function SecretOnce({ label, secret, note }: { label: string; secret: string; note: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="rounded-xl border border-amber-200 bg-amber-50 p-4" role="status">
      <p className="text-sm font-semibold text-amber-900">{label}</p>
      <p className="mt-1 text-sm text-amber-800">{note}</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="secret-value"
          className="block min-w-0 flex-1 rounded-lg border border-amber-200 bg-white px-3 py-2 font-mono text-xs break-all text-slate-900"
        >
          {secret}
        </code>
        <button
          type="button"
          className="btn-primary shrink-0"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copiata ✓' : 'Copia'}
        </button>
      </div>
    </div>
  );
}

export function StateBadge({
  tone,
  children,
}: {
  tone: 'green' | 'red' | 'slate' | 'amber' | 'blue';
  children: string;
}) {
  const cls = {
    green: 'bg-emerald-50 text-emerald-700',
    red: 'bg-red-50 text-red-700',
    slate: 'bg-slate-100 text-slate-600',
    amber: 'bg-amber-50 text-amber-800',
    blue: 'bg-blue-50 text-blue-700',
  }[tone];
  return <span className={`badge ${cls}`}>{children}</span>;
}
