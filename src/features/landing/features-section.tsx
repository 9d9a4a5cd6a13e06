import { features } from './content';
import { ArrowRightIcon } from './icons';
import { heroHref } from './landing-links';
import { IconBadge, SectionHeading } from './section-heading';

export function FeaturesSection() {
  return (
    <section
      id="caratteristiche"
      aria-labelledby="caratteristiche-title"
      className="scroll-mt-16 bg-white py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="caratteristiche-title"
          eyebrow="Caratteristiche"
          title="Tutto quello che serve per vendere in abbonamento"
          lead="Dagli incassi ai report, passando per bonifici e permessi: gli strumenti di un back office completo, senza doverlo costruire da zero."
        />
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <li
              key={title}
              className="card group relative p-6 transition-shadow duration-200 hover:shadow-md"
            >
              <IconBadge>
                <Icon className="size-5" />
              </IconBadge>
              <h3 className="mt-5 text-base font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-14 flex justify-center">
          <a href={heroHref} className="btn-primary px-5 py-2.5">
            Chiedi informazioni
            <ArrowRightIcon className="size-4" />
          </a>
        </div>
      </div>
    </section>
  );
}
