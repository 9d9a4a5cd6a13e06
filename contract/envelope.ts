/** The JSON envelope of every API response (api-contract.md, 'Wire conventions'). */
export interface Envelope<T> {
  success: boolean;
  message: string | null;
  data: T | null;
  errors?: string[];
}

export interface Paged<T> {
  items: T[];
  totalCount: number;
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
}

export interface SelectQuery extends ListQuery {
  selectedIds?: number[];
}
