/** The JSON envelope of every API response (api-contract.md, 'Wire conventions'). */
export interface Envelope<T> {
  success: boolean;
  message: string | null;
  data: T | null;
  errors?: string[];
  /**
   * The same failures keyed by field ({ vatCode: 'Partita IVA non valida…' }, first message per
   * field), beside `errors` (kept as it is for compatibility). See contract/field-errors.ts.
   */
  fieldErrors?: Record<string, string>;
}

export interface Paged<T> {
  items: T[];
  /**
   * Rows under the list's filters. Exact up to EXACT_COUNT_UP_TO matching rows (api-contract), and
   * on a deep page up to that page plus COUNT_AHEAD rows; past that the count is not finished (it
   * would cost a scan of the whole tenant) and `totalCountCapped` is true: "more than totalCount".
   */
  totalCount: number;
  totalCountCapped?: boolean;
}

/** A list counts its matching rows exactly up to this many (api-contract 'capped counts'). */
export const EXACT_COUNT_UP_TO = 10_000;
/** On a page deeper than that, how far past the page a list counts before it says "oltre …". */
export const COUNT_AHEAD = 1_000;

/** How many rows a list counts before it stops (its count is capped at that number minus one). */
export function countLimitFor(skippedRows: number): number {
  return Math.max(EXACT_COUNT_UP_TO, skippedRows + COUNT_AHEAD) + 1;
}

export interface SelectOption {
  value: number;
  label: string;
}

export interface SelectResult {
  options: SelectOption[];
  totalCount: number;
}

/** Query of the generic `getAll`: filters travel as `filters[key]=value`. */
export interface ListQuery {
  page: number;
  pageSize: number;
  searchTerm?: string;
  filters?: Record<string, string | boolean | number | undefined>;
  /** An allow-listed column, `-` in front for descending (`sort=-name`). */
  sort?: string;
}

export interface SelectQuery extends ListQuery {
  selectedIds?: number[];
}
