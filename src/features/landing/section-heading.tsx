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
export function SectionHeading({
  id,
  eyebrow,
  title,
  lead,
  dark = false,
  align = 'center',
}: SectionHeadingProps) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-3xl text-center' : 'max-w-2xl'}>
      <p
        className={`text-sm font-semibold tracking-wide uppercase ${dark ? 'text-sky-300' : 'text-blue-600'}`}
      >
        {eyebrow}
      </p>
      <h2
        id={id}
        className={`mt-3 text-[1.75rem] leading-tight font-bold tracking-tight text-balance sm:text-4xl ${dark ? 'text-white' : 'text-slate-900'}`}
      >
        {title}
      </h2>
      {lead && (
        <p
          className={`mx-auto mt-4 max-w-2xl text-base leading-relaxed text-pretty sm:text-lg ${dark ? 'text-slate-300' : 'text-slate-600'}`}
        >
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
          : 'bg-gradient-to-br from-sky-500/15 to-indigo-500/15 text-blue-600 ring-1 ring-blue-600/15'
      }`}
    >
      {children}
    </span>
  );
}
