/** Number formats of the dashboard (it-IT). Money arrives in cents. */
const eur = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
const eurRound = new Intl.NumberFormat('it-IT', {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 0,
});
const integer = new Intl.NumberFormat('it-IT');
const oneDecimal = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const thousands = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });

export const formatCents = (cents: number) => eur.format(cents / 100);
export const formatCentsRounded = (cents: number) => eurRound.format(cents / 100);
export const formatCount = (n: number) => integer.format(n);
/** 12.5 → '12,5 %' (spec: one decimal); null → '—'. */
export const formatRate = (rate: number | null) => (rate === null ? '—' : `${oneDecimal.format(rate)} %`);
/** 16.67 → '+16,67 %', -3 → '-3,00 %' (spec: two decimals). */
export const formatChange = (change: number) =>
  `${change > 0 ? '+' : change < 0 ? '−' : ''}${twoDecimals.format(Math.abs(change))} %`;
/** Euro axis ticks in thousands (spec: 'k'): 12500 € → '12,5k', 350 € → '0,35k'. */
export const formatThousands = (euros: number) => `${thousands.format(euros / 1000)}k`;

/** Donut colours: the spec's three for the first plans, then further shades. */
export const PLAN_COLOURS = [
  '#0ea5e9',
  '#3b82f6',
  '#6366f1',
  '#8b5cf6',
  '#a855f7',
  '#06b6d4',
  '#14b8a6',
  '#64748b',
];
export const planColour = (index: number) => PLAN_COLOURS[index % PLAN_COLOURS.length] as string;
