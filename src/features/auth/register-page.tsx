import { Link } from 'react-router-dom';
import { AuthCard } from './auth-card';

/**
 * /register (the landing page's mobile menu links here, spec §2). Accounts are created by an
 * Admin or through a tenant's onboarding, so this page says so and leads to the contact form
 * instead of pretending to sign people up.
 */
export default function RegisterPage() {
  return (
    <AuthCard
      title="Attiva Rinnova per la tua attività"
      subtitle="Ogni cliente riceve un tenant dedicato, configurato insieme a noi."
    >
      <div className="space-y-4 text-sm text-slate-600">
        <p>
          La registrazione in autonomia non è ancora aperta. Raccontaci cosa vendi e come incassi oggi: ti
          rispondiamo con i passi per attivare il tuo spazio e collegare PayPal.
        </p>
        <p>
          Se il tuo amministratore ti ha già creato un account, trovi il link per impostare la password nella
          tua email.
        </p>
      </div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <a href="/#hero" className="btn-primary flex-1">
          Scrivici dal modulo contatti
        </a>
        <Link to="/login" className="btn-secondary flex-1">
          Accedi
        </Link>
      </div>
    </AuthCard>
  );
}
