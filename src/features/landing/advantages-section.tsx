import { advantages } from './content';
import { ArrowRightIcon } from '../../components/icons';
import { heroHref } from './landing-links';
import { IconBadge, SectionHeading } from './section-heading';

export function AdvantagesSection() {
  return (
    <section id="vantaggi" aria-labelledby="vantaggi-title" className="scroll-mt-16 bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="vantaggi-title"
          eyebrow="Vantaggi"
          title="Meno tempo a rincorrere pagamenti, più tempo per il tuo lavoro"
          lead="Rinnova si occupa della parte ripetitiva degli abbonamenti: scadenze, rinnovi e stati di pagamento. Tu vedi tutto da un unico pannello."
        />
        <ul className="mt-14 grid gap-x-8 gap-y-8 sm:gap-y-10 sm:grid-cols-2 lg:grid-cols-4">
          {advantages.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4 sm:block">
              <IconBadge>
                <Icon className="size-5" />
              </IconBadge>
              <div className="min-w-0">
                <h3 className="text-base font-semibold text-slate-900 sm:mt-4">{title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-slate-600 sm:mt-2">{text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-14 flex justify-center">
          <a href={heroHref} className="btn-secondary px-5 py-2.5">
            Raccontaci il tuo caso
            <ArrowRightIcon className="size-4" />
          </a>
        </div>
      </div>
    </section>
  );
}
