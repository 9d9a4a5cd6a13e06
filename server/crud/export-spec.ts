/**
 * What a list declares about its export (the columns and their types); the writer is export.ts.
 * Types only, so an entity declaration imports nothing of the writer.
 */
export type ExportValue = string | number | boolean | Date | null | undefined;
/**
 * How a column is written: text; integer/number; money (euros, 2 decimals, EUR format);
 * percent (22 means 22 %); date (a 'YYYY-MM-DD' day, or an instant shown as its Rome day);
 * datetime (an instant, shown in Rome time); bool ('Sì'/'No').
 */
export type ExportType = 'text' | 'integer' | 'number' | 'money' | 'percent' | 'date' | 'datetime' | 'bool';

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
