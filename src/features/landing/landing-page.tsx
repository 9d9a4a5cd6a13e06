import { useEffect } from 'react';
import { AdvantagesSection } from './advantages-section';
import { CtaBand } from './cta-band';
import { FeaturesSection } from './features-section';
import { Footer } from './footer';
import { Header } from './header';
import { Hero } from './hero';
import { HowItWorksSection } from './how-it-works-section';
import { PlusSection } from './plus-section';

/** Smooth in-page anchor scrolling while the landing page is shown, unless motion is reduced. */
function useSmoothAnchorScroll() {
  useEffect(() => {
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;
    if (reduced) return;
    const root = document.documentElement;
    const previous = root.style.scrollBehavior;
    root.style.scrollBehavior = 'smooth';
    return () => {
      root.style.scrollBehavior = previous;
    };
  }, []);
}

/** The public landing page at `/` for signed-out visitors (spec §2 'Public routes'). */
export default function LandingPage() {
  useSmoothAnchorScroll();
  return (
    <div className="min-h-screen overflow-x-clip bg-white text-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Vai al contenuto
      </a>
      <Header />
      <main id="main">
        <Hero />
        <AdvantagesSection />
        <HowItWorksSection />
        <FeaturesSection />
        <PlusSection />
        <CtaBand />
      </main>
      <Footer />
    </div>
  );
}
