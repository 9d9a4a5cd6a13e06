import { config } from '../../lib/config';
import { ContactForm } from './contact-form';
import { ArrowRightIcon, BookIcon, CheckIcon } from '../../components/icons';
import { externalLinkProps } from './landing-links';
import { MeshBackground } from './mesh-background';
import { ctaPrimary, ctaSecondary } from './styles';

const highlights = [
  'PayPal e Stripe sul tuo conto',
  'Bonifici con approvazione manuale',
  'Partita IVA, codice SDI e PEC dei clienti',
];

export function Hero() {
  return (
    <section id="hero" aria-labelledby="hero-title" className="relative isolate scroll-mt-16">
      <MeshBackground />
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-20 sm:px-6 sm:pt-20 lg:grid-cols-[minmax(0,1fr)_minmax(0,500px)] lg:gap-16 lg:px-8 lg:pt-24 lg:pb-16">
        <div className="min-w-0">
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-blue/20 bg-white/70 px-3 py-1 text-xs font-semibold tracking-wide text-blue-700 shadow-sm backdrop-blur">
            <span className="size-1.5 rounded-full bg-gradient-to-r from-brand-sky to-brand-indigo" />
            Per consulenti, creator e SaaS
          </p>
          <h1
            id="hero-title"
            className="mt-5 text-4xl leading-[1.08] font-bold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-[3.5rem]"
          >
            Gli abbonamenti dei tuoi clienti,{' '}
            <span className="bg-gradient-to-r from-sky-600 via-blue-600 to-indigo-600 bg-clip-text text-transparent">
              rinnovati senza pensieri.
            </span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-pretty text-slate-600">
            Rinnova è la piattaforma italiana per incassare pagamenti ricorrenti e gestire gli abbonamenti.
            Crei i piani, invii un link di pagamento o colleghi la tua app via API: gli incassi arrivano
            direttamente sul tuo conto.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <a href="#come-funziona" className={`${ctaPrimary} px-5 py-3 text-base`}>
              Scopri come funziona
              <ArrowRightIcon className="size-4" />
            </a>
            <a href={config.docsUrl} {...externalLinkProps} className={`${ctaSecondary} px-5 py-3 text-base`}>
              <BookIcon className="size-4" />
              Documentazione API
              <span className="sr-only">(si apre in una nuova scheda)</span>
            </a>
          </div>
          <ul className="mt-10 flex flex-col gap-3 text-sm text-slate-700 sm:flex-row sm:flex-wrap sm:gap-x-6">
            {highlights.map((text) => (
              <li key={text} className="flex items-start gap-2">
                <span className="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-blue-600/10 text-blue-700">
                  <CheckIcon className="size-3.5" strokeWidth={2.5} />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <div className="flex min-w-0 justify-center lg:justify-end">
          <ContactForm />
        </div>
      </div>
    </section>
  );
}
