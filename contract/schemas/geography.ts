import { z } from 'zod';
import { optionalId, requiredId, trimmed } from './common';

export interface Region {
  id: number;
  name: string;
  code: string;
}
export const regionInputSchema = z.object({
  id: optionalId,
  name: trimmed(100).min(1),
  code: trimmed(10).min(1),
});
export type RegionInput = z.infer<typeof regionInputSchema>;

export interface Province {
  id: number;
  name: string;
  abbreviation: string;
  regionId: number;
  region: { id: number; name: string } | null;
}
export const provinceInputSchema = z.object({
  id: optionalId,
  name: trimmed(100).min(1),
  abbreviation: trimmed(4).min(1),
  regionId: requiredId,
});
export type ProvinceInput = z.infer<typeof provinceInputSchema>;

export interface Municipality {
  id: number;
  name: string;
  zip: string;
  provinceId: number;
  province: { id: number; name: string; abbreviation: string } | null;
}
/** The form field is named `zIP` (spec §3); bodies bind case-insensitively, so `zip` is the key. */
export const municipalityInputSchema = z.object({
  id: optionalId,
  name: trimmed(100).min(1),
  zip: trimmed(10).min(1),
  provinceId: requiredId,
});
export type MunicipalityInput = z.infer<typeof municipalityInputSchema>;
