import type { ReactNode } from 'react';

interface SectionHeadingProps {
  id: string;
  eyebrow: string;
  title: ReactNode;
  lead?: ReactNode;
  dark?: boolean;
  align?: 'center' | 'left';
}

/** Eyebrow, title and lead of a landing section; `id` names the title for aria-labelledby. */
export function SectionHeading({ id, eyebrow, title, lead, dark = false, align = 'center' }: SectionHeadingProps) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      <p
        className={`text-sm font-semibold tracking-wide uppercase ${dark ? 'text-sky-300' : 'text-brand-blue'}`}
      >
        {eyebrow}
      </p>
      <h2
        id={id}
        className={`mt-3 text-3xl font-bold tracking-tight text-balance sm:text-4xl ${dark ? 'text-white' : 'text-slate-900'}`}
      >
        {title}
      </h2>
      {lead && (
        <p className={`mt-4 text-lg leading-relaxed text-pretty ${dark ? 'text-slate-300' : 'text-slate-600'}`}>
          {lead}
        </p>
      )}
    </div>
  );
}

/** The rounded, gradient-tinted square an icon sits in. */
export function IconBadge({ children, dark = false }: { children: ReactNode; dark?: boolean }) {
  return (
    <span
      className={`inline-flex size-11 shrink-0 items-center justify-center rounded-xl ${
        dark
          ? 'bg-white/10 text-sky-300 ring-1 ring-white/15'
          : 'bg-gradient-to-br from-brand-sky/15 to-brand-indigo/15 text-brand-blue ring-1 ring-brand-blue/15'
      }`}
    >
      {children}
    </span>
  );
}
