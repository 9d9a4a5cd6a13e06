import { config } from '../../lib/config';

/** Spec §1: users without tenants are told so and invited to write to the developer. */
export function NoTenantsMessage() {
  return (
    <div
      role="alert"
      className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p className="font-medium">Nessun tenant associato al tuo account.</p>
      <p className="mt-1">
        Per ottenere l’accesso contatta lo sviluppatore via email all’indirizzo{' '}
        <a className="link" href={`mailto:${config.supportEmail}`}>
          {config.supportEmail}
        </a>
        .
      </p>
    </div>
  );
}
