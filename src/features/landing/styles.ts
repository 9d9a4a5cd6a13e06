/**
 * Button looks of the landing page. The design system's btn-primary puts white text on #3b82f6
 * (3.7:1, below WCAG AA for body-size text); landing CTAs use the darker end of the brand
 * gradient (blue-600 → indigo-600, at least 5.2:1) so the text stays readable.
 */
export const ctaPrimary =
  'btn bg-gradient-to-r from-blue-600 to-indigo-600 text-white shadow-sm shadow-blue-900/20 hover:from-blue-700 hover:to-indigo-700';

export const ctaSecondary = 'btn-secondary';
