import { describe, expect, it } from 'vitest';
import {
  formatBool,
  formatCurrency,
  formatDate,
  formatText,
  getPath,
  isMissing,
} from '../../../src/lib/formatters';

// Intl puts a no-break space before the euro sign.
const nb = (s: string) => s.replace(/ /g, '\u00a0');

describe('formatCurrency (EUR, it-IT)', () => {
  it.each([
    [12345.5, '12.345,50 €'],
    [1234567.891, '1.234.567,89 €'],
    [0, '0,00 €'],
    [-3.2, '-3,20 €'],
    ['19.99', '19,99 €'],
  ])('%s → %s', (value, expected) => {
    expect(formatCurrency(value)).toBe(nb(expected));
  });

  it.each([null, undefined, '', 'abc', true, NaN])('%s → N/D', (value) => {
    expect(formatCurrency(value)).toBe('N/D');
  });
});

describe('formatDate (dd/mm/yyyy, it-IT)', () => {
  it.each([
    ['2024-03-05T12:00:00Z', '05/03/2024'],
    ['2024-12-31', '31/12/2024'],
    ['2023-01-09', '09/01/2023'],
    [new Date(2020, 1, 29, 10), '29/02/2020'],
  ])('%s → %s', (value, expected) => {
    expect(formatDate(value)).toBe(expected);
  });

  it.each([null, undefined, '', 'non una data', {}])('%s → N/D', (value) => {
    expect(formatDate(value)).toBe('N/D');
  });
});

describe('formatBool (Sì/No)', () => {
  it('reads true and false (also as strings)', () => {
    expect(formatBool(true)).toBe('Sì');
    expect(formatBool('true')).toBe('Sì');
    expect(formatBool(false)).toBe('No');
    expect(formatBool('false')).toBe('No');
  });
  it.each([null, undefined, 1, 'sì'])('%s → N/D', (value) => {
    expect(formatBool(value)).toBe('N/D');
  });
});

describe('formatText, isMissing, getPath', () => {
  it('shows N/D for missing values and objects, the text otherwise', () => {
    expect(formatText(null)).toBe('N/D');
    expect(formatText('  ')).toBe('N/D');
    expect(formatText({ a: 1 })).toBe('N/D');
    expect(formatText(0)).toBe('0');
    expect(formatText('Roma')).toBe('Roma');
    expect(isMissing(0)).toBe(false);
    expect(isMissing(false)).toBe(false);
  });

  it('reads dotted paths and stops at missing links', () => {
    const row = { region: { name: 'Lazio', country: { code: 'IT' } }, province: null };
    expect(getPath(row, 'region.name')).toBe('Lazio');
    expect(getPath(row, 'region.country.code')).toBe('IT');
    expect(getPath(row, 'province.name')).toBeUndefined();
    expect(getPath(row, 'missing.deep.path')).toBeUndefined();
  });
});
