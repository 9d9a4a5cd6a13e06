import { features } from './content';
import { ArrowRightIcon } from '../../components/icons';
import { heroHref } from './landing-links';
import { IconBadge, SectionHeading } from './section-heading';
import { ctaPrimary } from './styles';

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
              className="card flex gap-4 p-5 transition-shadow duration-200 hover:shadow-md sm:block sm:p-6"
            >
              <IconBadge>
                <Icon className="size-5" />
              </IconBadge>
              <div className="min-w-0">
                <h3 className="text-base font-semibold text-slate-900 sm:mt-5">{title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-slate-600 sm:mt-2">{text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-14 flex justify-center">
          <a href={heroHref} className={`${ctaPrimary} px-5 py-2.5`}>
            Chiedi informazioni
            <ArrowRightIcon className="size-4" />
          </a>
        </div>
      </div>
    </section>
  );
}
