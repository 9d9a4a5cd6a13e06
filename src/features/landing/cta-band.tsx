import { ArrowRightIcon } from '../../components/icons';
import { heroHref } from './landing-links';

/** Closing call to action before the footer. */
export function CtaBand() {
  return (
    <section aria-labelledby="cta-title" className="bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <div className="relative isolate overflow-hidden rounded-3xl bg-gradient-to-br from-sky-700 via-blue-600 to-indigo-600 px-6 py-14 text-center shadow-xl shadow-blue-900/15 sm:px-12">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(40%_60%_at_80%_0%,rgba(255,255,255,0.14),transparent),radial-gradient(35%_50%_at_0%_100%,rgba(255,255,255,0.1),transparent)]"
          />
          <h2
            id="cta-title"
            className="text-[1.75rem] leading-tight font-bold tracking-tight text-balance text-white sm:text-4xl"
          >
            Pronto a far rinnovare i tuoi abbonamenti?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-base leading-relaxed text-pretty text-blue-50 sm:text-lg">
            Scrivici due righe su cosa vendi: ti aiutiamo a capire se Rinnova fa al caso tuo e da dove
            partire.
          </p>
          <a
            href={heroHref}
            className="btn mt-8 bg-white px-6 py-3 text-base text-blue-700 shadow-sm hover:bg-blue-50"
          >
            Contattaci
            <ArrowRightIcon className="size-4" />
          </a>
        </div>
      </div>
    </section>
  );
}
