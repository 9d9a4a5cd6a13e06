import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { config } from '../../lib/config';
import { ChatIcon, CloseIcon, ExternalIcon, MenuIcon } from '../../components/icons';
import { externalLinkProps, sectionLinks, whatsappUrl } from './landing-links';
import { Logo } from './logo';
import { ctaPrimary } from './styles';

const navLink =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-900/5 hover:text-slate-900';

/** Sticky translucent header: sections, Docs, Login, chat; a menu button on small screens. */
export function Header() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const chatUrl = whatsappUrl(config.whatsappPhone);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const close = () => setMenuOpen(false);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/75 backdrop-blur-lg supports-[backdrop-filter]:bg-white/65">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-md" aria-label="Rinnova, home">
          <Logo />
        </Link>

        <nav aria-label="Principale" className="ml-6 hidden items-center gap-1 lg:flex">
          {sectionLinks.map((link) => (
            <a key={link.href} href={link.href} className={navLink}>
              {link.label}
            </a>
          ))}
          <a
            href={config.docsUrl}
            {...externalLinkProps}
            className={`${navLink} inline-flex items-center gap-1`}
          >
            Docs
            <ExternalIcon className="size-3.5 opacity-60" />
            <span className="sr-only">(si apre in una nuova scheda)</span>
          </a>
        </nav>

        <div className="ml-auto flex items-center gap-2">
          {chatUrl && (
            <a
              href={chatUrl}
              {...externalLinkProps}
              aria-label="Scrivici su WhatsApp"
              title="Scrivici su WhatsApp"
              className="icon-btn text-emerald-600 hover:bg-emerald-50 hover:text-emerald-700"
            >
              <ChatIcon className="size-5" />
            </a>
          )}
          <Link to="/login" className="btn-secondary hidden lg:inline-flex">
            Login
          </Link>
          <button
            type="button"
            className="icon-btn lg:hidden"
            aria-label={menuOpen ? 'Chiudi menu' : 'Apri menu'}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon className="size-5" /> : <MenuIcon className="size-5" />}
          </button>
        </div>
      </div>

      {menuOpen && (
        <nav
          id={menuId}
          aria-label="Menu mobile"
          className="border-t border-slate-200/70 bg-white/95 px-4 pt-2 pb-5 shadow-lg shadow-slate-900/5 sm:px-6 lg:hidden"
        >
          <ul className="flex flex-col">
            {sectionLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  onClick={close}
                  className="block rounded-md px-3 py-3 text-base font-medium text-slate-700 hover:bg-slate-50"
                >
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a
                href={config.docsUrl}
                {...externalLinkProps}
                onClick={close}
                className="flex items-center gap-1.5 rounded-md px-3 py-3 text-base font-medium text-slate-700 hover:bg-slate-50"
              >
                Docs
                <ExternalIcon className="size-4 opacity-60" />
                <span className="sr-only">(si apre in una nuova scheda)</span>
              </a>
            </li>
          </ul>
          <div className="mt-3 grid grid-cols-2 gap-3 border-t border-slate-100 pt-4">
            <Link to="/login" onClick={close} className="btn-secondary py-2.5">
              Login
            </Link>
            <Link to="/register" onClick={close} className={`${ctaPrimary} py-2.5`}>
              Registrati
            </Link>
          </div>
        </nav>
      )}
    </header>
  );
}
