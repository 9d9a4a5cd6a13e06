/**
 * Two-factor sign-in (issue 23, api-contract 'Access'): TOTP (RFC 6238, 6 digits, 30 s) for Admin
 * and SuperAdmin, with one-time recovery codes. The Italian texts and shapes the SPA and the
 * server share; no schema library here, so the sign-in page stays light (schemas/two-factor.ts).
 */
export const twoFactorMessages = {
  codeRequired: 'Inserisci il codice a 6 cifre dell’app di autenticazione o un codice di recupero.',
  codeInvalid: 'Codice non valido o già usato. Riprova con il codice attuale dell’app.',
  challengeInvalid: 'Il passaggio di verifica è scaduto: accedi di nuovo con email e password.',
  notForRole: 'L’accesso in due passaggi è disponibile per Admin e SuperAdmin.',
  alreadyEnabled: 'L’accesso in due passaggi è già attivo.',
  notEnabled: 'L’accesso in due passaggi non è attivo.',
  setupMissing: 'Avvia di nuovo l’attivazione: il codice QR non è più valido.',
  enabled: 'Accesso in due passaggi attivato. Conserva i codici di recupero in un posto sicuro.',
  disabled: 'Accesso in due passaggi disattivato.',
  resetDone: 'Secondo fattore azzerato: la persona lo attiverà di nuovo al prossimo accesso.',
  requiredByTenant:
    'Questo tenant richiede l’accesso in due passaggi agli Admin: attivalo dal menu utente («Accesso in due passaggi»).',
  slowDown: (seconds: number) =>
    `Troppi tentativi di accesso non riusciti per questo account: riprova tra ${seconds} secondi.`,
} as const;

/** Login's answer when the password was right and a second factor is needed. */
export interface SecondFactorChallenge {
  secondFactor: true;
  challenge: string;
}

export interface TwoFactorStatus {
  /** Admin and SuperAdmin may turn it on. */
  available: boolean;
  enabled: boolean;
  recoveryCodesLeft: number;
  /** Tenants of this Admin that require it (the SPA asks to enrol when the chosen one does). */
  requiredByTenantIds: number[];
}

export interface TwoFactorSetup {
  /** `otpauth://totp/Rinnova:<email>?secret=…&issuer=Rinnova`. */
  otpauthUri: string;
  /** The same secret in base32, to type by hand (the SPA draws the URI as a QR code). */
  secret: string;
}

export interface TwoFactorEnabled {
  recoveryCodes: string[];
}

/** The digits a TOTP code has; anything else typed at the second step is a recovery code. */
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
