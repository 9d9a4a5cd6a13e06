import {
  formatBool,
  formatCurrency,
  formatDate,
  formatPercent,
  formatText,
  getPath,
  NOT_AVAILABLE,
} from './formatters';
import { messages } from '../../contract/messages';
import type { ColumnDef } from './resource';

/** One cell as the list shows it (Sì/No, 49,50 €, dd/mm/yyyy), '' when missing. */
function cellText(column: ColumnDef, row: Record<string, unknown>): string {
  const primary = getPath(row, column.key);
  const value =
    (primary === null || primary === undefined || primary === '') && column.fallback
      ? getPath(row, column.fallback)
      : primary;
  let text: string;
  switch (column.type) {
    case 'bool':
      text = formatBool(value);
      break;
    case 'currency':
      text = formatCurrency(value);
      break;
    case 'percent':
      text = formatPercent(value);
      break;
    case 'dateTime':
      text = formatDate(value);
      break;
    case 'subscriptionstatusenum':
      text = (messages.subscriptionStatus as Record<number, string>)[Number(value)] ?? NOT_AVAILABLE;
      break;
    default:
      text = formatText(value);
  }
  return text === NOT_AVAILABLE ? '' : text;
}

/** RFC 4180 quoting; a leading = + - @ is neutralised so a spreadsheet never runs it as a formula. */
function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[";\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The rows as CSV the way Italian spreadsheets open it: ';' between fields (the comma is the
 * decimal mark), a BOM so accents survive, CRLF line ends.
 */
export function rowsToCsv(columns: readonly ColumnDef[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.map((c) => csvField(c.name)).join(';')];
  for (const row of rows) lines.push(columns.map((c) => csvField(cellText(c, row))).join(';'));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Downloads the rows as `{name}-selezionati.csv`. */
export function exportRowsCsv(
  name: string,
  columns: readonly ColumnDef[],
  rows: readonly Record<string, unknown>[],
): void {
  const blob = new Blob([rowsToCsv(columns, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name}-selezionati.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
