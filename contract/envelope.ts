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
   * Rows under the list's filters. Exact up to the page plus 1,000 rows after it; past that the
   * count is not finished (it would cost a scan of the whole tenant) and `totalCountCapped` is
   * true: "more than totalCount" (api-contract: capped counts).
   */
  totalCount: number;
  totalCountCapped?: boolean;
}

/** How far past the current page a list counts before it says "oltre …". */
export const COUNT_AHEAD = 1_000;

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
