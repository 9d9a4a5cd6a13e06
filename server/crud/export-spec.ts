/**
 * What a list declares about its export (the columns and their types); the writer is export.ts.
 * Types only, so an entity declaration imports nothing of the writer. The headers and types come
 * from the list's spec (contract/lists; bound by list-binding.ts `bindExport`).
 */
import type { ExportType, ExportValue } from '../../contract/lists/list-spec';

export type { ExportType, ExportValue };

export interface ExportColumn<T> {
  /** The column's Italian name, as the list screen shows it. */
  header: string;
  type?: ExportType;
  value: (row: T) => ExportValue;
}

export interface ExportSpec<T> {
  /** The file name's first part: the entity's Italian plural, slugged ('sottoscrizioni'). */
  fileName: string;
  /** The XLSX sheet's name (defaults to the file name). */
  sheetName?: string;
  columns: readonly ExportColumn<T>[];
}
