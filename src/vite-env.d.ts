/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_BASE_URL?: string;
  readonly VITE_API_KEY?: string;
  readonly VITE_CONTACT_FORM_URL?: string;
  readonly WHATSAPP_PHONE?: string;
  readonly SUPPORT_EMAIL?: string;
}
