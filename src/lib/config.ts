/** Build-time settings of the SPA (see .env.example). */
export const config = {
  /** Base URL of the REST API, ending in /api. Same origin by default. */
  apiBaseUrl: (import.meta.env.VITE_API_BASE_URL as string | undefined) || '/api',
  /** The SPA's static API key, sent as x-api-key on every call. */
  apiKey: (import.meta.env.VITE_API_KEY as string | undefined) || 'rinnova-dev-key',
  /** Optional external contact-form service; the project's own server otherwise. */
  contactFormUrl: (import.meta.env.VITE_CONTACT_FORM_URL as string | undefined) || '',
  whatsappPhone: (import.meta.env.WHATSAPP_PHONE as string | undefined) || '',
  supportEmail: (import.meta.env.SUPPORT_EMAIL as string | undefined) || 'supporto@rinnova.it',
  /** The server's browsable API reference (landing page 'Docs'). */
  docsUrl: `${((import.meta.env.VITE_API_BASE_URL as string | undefined) || '/api').replace(/\/$/, '')}/docs`,
} as const;
