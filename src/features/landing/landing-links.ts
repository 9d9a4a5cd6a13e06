/** Links the landing page's header, mobile menu and footer share. */
export const sectionLinks = [
  { href: '#vantaggi', label: 'Vantaggi' },
  { href: '#come-funziona', label: 'Come funziona' },
  { href: '#caratteristiche', label: 'Caratteristiche' },
  { href: '#plus', label: 'Plus' },
] as const;

/** Where every call to action leads: the hero, which holds the contact form. */
export const heroHref = '#hero';

/** Attributes of a link that opens outside the SPA (the API reference, chat). */
export const externalLinkProps = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * The chat link for a configured phone number, `https://wa.me/{digits}`; wa.me wants the
 * international number with digits only (no '+', spaces or dashes). Null when unset or when the
 * setting holds no digits, so callers simply hide the link.
 */
export function whatsappUrl(phone: string | undefined | null): string | null {
  const digits = (phone ?? '').replace(/\D/g, '').replace(/^00/, '');
  return digits ? `https://wa.me/${digits}` : null;
}
