import { config } from '../../lib/config';
import { pillars } from './content';
import { ArrowRightIcon, ExternalIcon } from '../../components/icons';
import { externalLinkProps, heroHref } from './landing-links';
import { IconBadge, SectionHeading } from './section-heading';

export function PlusSection() {
  return (
    <section
      id="plus"
      aria-labelledby="plus-title"
      className="relative isolate scroll-mt-16 overflow-hidden bg-slate-950 py-20 sm:py-28"
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(45%_60%_at_10%_0%,rgba(14,165,233,0.22),transparent),radial-gradient(40%_50%_at_90%_10%,rgba(99,102,241,0.25),transparent),radial-gradient(50%_50%_at_50%_110%,rgba(59,130,246,0.18),transparent)]"
      />
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="plus-title"
          dark
          eyebrow="Plus"
          title="Un’architettura solida, pensata per molti clienti"
          lead="Sotto il cofano Rinnova tiene separati i dati, protegge le API e lavora anche quando tu non ci sei."
        />
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {pillars.map(({ icon: Icon, title, text }) => (
            <li
              key={title}
              className="flex gap-4 rounded-xl border border-white/10 bg-white/[0.04] p-5 sm:block sm:p-6"
            >
              <IconBadge dark>
                <Icon className="size-5" />
              </IconBadge>
              <div className="min-w-0">
                <h3 className="text-base font-semibold text-white sm:mt-5">{title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-slate-300 sm:mt-2">{text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-14 flex flex-col justify-center gap-3 sm:flex-row">
          <a href={heroHref} className="btn bg-white px-5 py-2.5 text-slate-900 shadow-sm hover:bg-slate-100">
            Parliamone
            <ArrowRightIcon className="size-4" />
          </a>
          <a
            href={config.docsUrl}
            {...externalLinkProps}
            className="btn px-5 py-2.5 text-white ring-1 ring-white/25 hover:bg-white/10"
          >
            Consulta le API
            <ExternalIcon className="size-4" />
            <span className="sr-only">(si apre in una nuova scheda)</span>
          </a>
        </div>
      </div>
    </section>
  );
}
