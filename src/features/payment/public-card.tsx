import type { ReactNode, SVGProps } from 'react';

/**
 * The card of the public pages a customer reaches without signing in (the payment page, the
 * widget's confirmation): brand stripe, logo, title, the seller's name and a badge. Readable from
 * 320 px; centred on wide screens.
 */
export function PublicCard({
  title,
  subtitle,
  badge,
  children,
}: {
  title: string;
  subtitle?: string | undefined;
  badge?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-8 sm:items-center sm:py-12">
      <section aria-labelledby="public-card-title" className="card w-full max-w-md overflow-hidden">
        <div className="h-1 bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
        <div className="px-5 py-7 sm:px-7">
          <div className="flex items-center gap-3">
            <img src="/logo.svg" alt="" className="h-9 w-9" />
            <div className="min-w-0">
              <h1 id="public-card-title" className="text-lg font-semibold text-slate-900">
                {title}
              </h1>
              {subtitle && <p className="truncate text-sm text-slate-500">{subtitle}</p>}
            </div>
            {badge && <span className="ml-auto">{badge}</span>}
          </div>
          <div className="mt-6">{children}</div>
        </div>
      </section>
    </main>
  );
}

/** An envelope, for "we sent you an e-mail". */
export function MailIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      <rect x="3" y="5" width="18" height="14" rx="2.5" />
      <path d="m4 7 8 6 8-6" />
    </svg>
  );
}
