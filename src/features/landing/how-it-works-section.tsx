import type { ReactNode } from 'react';
import { config } from '../../lib/config';
import { apiPathSteps, linkPathSteps, type PathStep } from './content';
import { ArrowRightIcon, CodeIcon, ExternalIcon, LinkIcon } from '../../components/icons';
import { externalLinkProps, heroHref } from './landing-links';
import { IconBadge, SectionHeading } from './section-heading';
import { PaymentLinkPreview } from './payment-link-preview';
import { ctaPrimary } from './styles';

/** A short, truthful sketch of an integration: read a subscription, gate premium features. */
const snippet = `const res = await fetch(
  \`\${API}/subscription/GetById/42\`,
  { headers: {
    'x-api-key': CHIAVE_API,
    'X-Tenant-Id': TENANT_ID,
  } },
);
const { data } = await res.json();

// 1 = attiva, 3 = attiva senza rinnovo
const premium = [1, 3]
  .includes(data.subscriptionStatus);`;

function Steps({ steps }: { steps: PathStep[] }) {
  return (
    <ol className="mt-6 space-y-5">
      {steps.map((step, index) => (
        <li key={step.title} className="flex gap-4">
          <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-slate-900 text-xs font-semibold text-white">
            {index + 1}
          </span>
          <div className="min-w-0">
            <p className="font-semibold text-slate-900">{step.title}</p>
            <p className="mt-1 text-sm leading-relaxed text-slate-600">{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

interface PathCardProps {
  icon: ReactNode;
  audience: string;
  title: string;
  titleId: string;
  steps: PathStep[];
  children: ReactNode;
}

function PathCard({ icon, audience, title, titleId, steps, children }: PathCardProps) {
  return (
    <article aria-labelledby={titleId} className="card flex min-w-0 flex-col p-6 sm:p-8">
      <div className="flex items-center gap-4">
        <IconBadge>{icon}</IconBadge>
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-500">{audience}</p>
          <h3 id={titleId} className="text-xl font-semibold tracking-tight text-slate-900">
            {title}
          </h3>
        </div>
      </div>
      <Steps steps={steps} />
      <div className="mt-auto pt-8">{children}</div>
    </article>
  );
}

export function HowItWorksSection() {
  return (
    <section
      id="come-funziona"
      aria-labelledby="come-funziona-title"
      className="scroll-mt-16 border-y border-slate-200/70 bg-slate-50 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="come-funziona-title"
          eyebrow="Come funziona"
          title="Due strade, lo stesso risultato: incassi che si rinnovano"
          lead="Vendi consulenze o un software? Scegli come incassare: con un link, senza scrivere una riga di codice, oppure integrando Rinnova nella tua applicazione."
        />
        <div className="mt-14 grid gap-6 lg:grid-cols-2">
          <PathCard
            icon={<LinkIcon className="size-5" />}
            audience="Per consulenti e creator"
            title="Link di pagamento senza codice"
            titleId="percorso-link"
            steps={linkPathSteps}
          >
            <PaymentLinkPreview />
            <p className="mt-4 text-sm text-slate-500">
              Ideale per coaching, consulenze periodiche, corsi e community a pagamento.
            </p>
            <a href={heroHref} className={`${ctaPrimary} mt-6 w-full py-2.5 sm:w-auto`}>
              Inizia con i link di pagamento
              <ArrowRightIcon className="size-4" />
            </a>
          </PathCard>

          <PathCard
            icon={<CodeIcon className="size-5" />}
            audience="Per SaaS e sviluppatori di app"
            title="Integrazione API"
            titleId="percorso-api"
            steps={apiPathSteps}
          >
            <figure className="overflow-hidden rounded-xl bg-slate-950 ring-1 ring-slate-900/10">
              <figcaption className="flex items-center gap-1.5 border-b border-white/10 px-4 py-2.5">
                <span className="size-2.5 rounded-full bg-white/20" />
                <span className="size-2.5 rounded-full bg-white/20" />
                <span className="size-2.5 rounded-full bg-white/20" />
                <span className="ml-2 text-xs text-slate-400">premium.js</span>
              </figcaption>
              <pre className="overflow-x-auto p-4 text-[12px] leading-relaxed sm:text-[12.5px] text-slate-200">
                <code>{snippet}</code>
              </pre>
            </figure>
            <a
              href={config.docsUrl}
              {...externalLinkProps}
              className="btn-secondary mt-6 w-full py-2.5 sm:w-auto"
            >
              Apri la documentazione API
              <ExternalIcon className="size-4" />
              <span className="sr-only">(si apre in una nuova scheda)</span>
            </a>
          </PathCard>
        </div>
      </div>
    </section>
  );
}
