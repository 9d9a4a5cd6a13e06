import { Link } from 'react-router-dom';
import { config } from '../../lib/config';
import { ChatIcon, MailIcon } from '../../components/icons';
import { externalLinkProps, sectionLinks, whatsappUrl } from './landing-links';
import { Logo } from './logo';

const footerLink = 'text-sm text-slate-600 transition-colors hover:text-slate-900';

export function Footer() {
  const year = new Date().getFullYear();
  const chatUrl = whatsappUrl(config.whatsappPhone);

  return (
    <footer
      id="contatti"
      aria-labelledby="contatti-title"
      className="scroll-mt-16 border-t border-slate-200 bg-slate-50"
    >
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-14 sm:px-6 lg:grid-cols-[2fr_1fr_1fr_1.4fr] lg:px-8">
        <div className="col-span-2 lg:col-span-1">
          <Logo />
          <p className="mt-4 max-w-xs text-sm leading-relaxed text-slate-600">
            Pagamenti ricorrenti e gestione degli abbonamenti per consulenti, creator e SaaS.
          </p>
        </div>

        <nav aria-label="Sezioni">
          <h2 className="text-sm font-semibold text-slate-900">Prodotto</h2>
          <ul className="mt-4 space-y-3">
            {sectionLinks.map((link) => (
              <li key={link.href}>
                <a href={link.href} className={footerLink}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <nav aria-label="Risorse">
          <h2 className="text-sm font-semibold text-slate-900">Risorse</h2>
          <ul className="mt-4 space-y-3">
            <li>
              <a href={config.docsUrl} {...externalLinkProps} className={footerLink}>
                Documentazione API
                <span className="sr-only"> (si apre in una nuova scheda)</span>
              </a>
            </li>
            <li>
              <Link to="/login" className={footerLink}>
                Accedi
              </Link>
            </li>
          </ul>
        </nav>

        <div className="col-span-2 lg:col-span-1">
          <h2 id="contatti-title" className="text-sm font-semibold text-slate-900">
            Contatti
          </h2>
          <ul className="mt-4 space-y-3">
            <li>
              <a
                href={`mailto:${config.supportEmail}`}
                className="inline-flex items-center gap-2 text-sm font-medium break-all text-blue-700 hover:text-blue-800 hover:underline"
              >
                <MailIcon className="size-4 shrink-0" />
                {config.supportEmail}
              </a>
            </li>
            {chatUrl && (
              <li>
                <a
                  href={chatUrl}
                  {...externalLinkProps}
                  className={`${footerLink} inline-flex items-center gap-2`}
                >
                  <ChatIcon className="size-4 shrink-0 text-emerald-600" />
                  Scrivici su WhatsApp
                </a>
              </li>
            )}
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-200">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-500 sm:px-6 lg:px-8">
          © {year} Rinnova · Pagamenti ricorrenti e abbonamenti, fatti in Italia.
        </p>
      </div>
    </footer>
  );
}
