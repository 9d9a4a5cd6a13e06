/**
 * Standard VAT rates of the EU member states, in hundredths of a percent, that an Italian seller
 * registered in the OSS scheme charges an EU private customer on electronically supplied services
 * (art. 7-octies c. 1 lett. b and c. 1-bis DPR 633/72, art. 58 Dir. 2006/112/CE; OSS: art.
 * 74-sexies DPR 633/72). Source: European Commission, 'VAT rates applied in the Member States'
 * (taxation_customs, rates in force on 1 January 2026; Estonia 24 % from 1 July 2025, Romania 21 %
 * from 1 August 2025, Slovakia 23 % from 1 January 2025, Finland 25,5 % from 1 September 2024).
 * A state that changes its rate changes this table, with the date in the commit.
 * Keys: ISO 3166-1 alpha-2 (Greece GR).
 */
import type { PercentHundredths } from '../money';

export const euStandardVatRates: Readonly<Record<string, PercentHundredths>> = {
  AT: 2000, BE: 2100, BG: 2000, CY: 1900, CZ: 2100, DE: 1900, DK: 2500, EE: 2400, ES: 2100,
  FI: 2550, FR: 2000, GR: 2400, HR: 2500, HU: 2700, IE: 2300, IT: 2200, LT: 2100, LU: 1700,
  LV: 2100, MT: 1800, NL: 2100, PL: 2300, PT: 2300, RO: 2100, SE: 2500, SI: 2200, SK: 2300,
}; // prettier-ignore

/** The customer state's standard rate; undefined outside the EU. */
export function euStandardVatRate(country: string): PercentHundredths | undefined {
  return euStandardVatRates[country.toUpperCase()];
}
