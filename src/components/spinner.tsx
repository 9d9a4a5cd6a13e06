/** A brand-coloured ring spinner; role=status so assistive tech announces the wait. */
export function Spinner({
  label = 'Caricamento in corso…',
  className = '',
}: {
  label?: string;
  className?: string;
}) {
  return (
    <span role="status" className={`inline-flex items-center gap-3 text-sm text-slate-500 ${className}`}>
      <span
        aria-hidden="true"
        className="h-8 w-8 animate-spin rounded-full border-[3px] border-slate-200 border-t-brand-blue border-r-brand-indigo"
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Suspense fallback of a lazily loaded route. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className={`flex items-center justify-center ${fullScreen ? 'min-h-screen' : 'min-h-[40vh]'}`}>
      <Spinner />
    </div>
  );
}
