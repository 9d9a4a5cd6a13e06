/**
 * List exports (issue 14): `GET api/{entity}/export?format=csv|xlsx` plus the list's own
 * `searchTerm`, `filters[...]` and `sort`. Every list hands this module its columns (the Italian
 * names the screen shows) and its rows as batches (an async iterable: keyset or bounded pages, never
 * the whole list in memory); this module writes them, row by row, as
 * - CSV with csv-stringify, the way Italian Excel opens it without an import wizard: `;`
 *   separators, UTF-8 with BOM, CRLF, dates dd/mm/yyyy (Europe/Rome), amounts with a decimal comma;
 * - XLSX with exceljs's streaming WorkbookWriter: real dates, numbers with EUR/percent number
 *   formats, a bold frozen header and column widths fitted to the header and the first rows.
 * Text cells starting with `=`, `+`, `-`, `@`, a tab or a carriage return are neutralised here, in
 * one place, for both formats (OWASP "CSV injection": a leading apostrophe).
 */
import { PassThrough } from 'node:stream';
import { TZDate } from '@date-fns/tz';
import { stringify as stringifySync } from 'csv-stringify/sync';
import type ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { BILLING_TIME_ZONE } from '../../contract/billing-dates';
import { listQuerySchema } from './list-query';

import type { ExportColumn, ExportSpec, ExportType, ExportValue } from './export-spec';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The list query without paging (every page is exported), plus the format. */
export const exportQuerySchema = listQuerySchema.omit({ page: true, pageSize: true }).extend({
  format: z.enum(EXPORT_FORMATS, { error: 'formato non supportato: csv oppure xlsx' }).default('csv'),
});
export type ExportQuery = z.output<typeof exportQuerySchema>;

/** Rows fetched per query while exporting. */
export const EXPORT_BATCH_SIZE = 1000;

const BATCH_SIZE_KEY = 'exportBatchSize';
/**
 * Sets an app's export batch size (before `ready`): tests use a few rows, so that an export of a
 * handful of rows crosses several batch boundaries.
 */
export function setExportBatchSize(app: FastifyInstance, size: number): void {
  if (!Number.isInteger(size) || size < 1) throw new Error('export batch size: a positive integer');
  app.decorate(BATCH_SIZE_KEY, size);
}
function exportBatchSize(server: FastifyInstance): number {
  const size = (server as unknown as Record<string, unknown>)[BATCH_SIZE_KEY];
  return typeof size === 'number' ? size : EXPORT_BATCH_SIZE;
}

const FORMULA_START = /^[=+\-@\t\r]/;
/** A text cell a spreadsheet would read as a formula gets a leading apostrophe. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** 'Demo S.r.l.' → 'demo-srl'; accents dropped, anything else becomes a hyphen. */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[.'’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** The Rome calendar day of an instant, 'YYYY-MM-DD'. */
export function romeDay(at: Date): string {
  const t = new TZDate(at.getTime(), BILLING_TIME_ZONE);
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}

/** `sottoscrizioni-demo-srl-2026-11-22.xlsx`: what, whose (tenant-scoped lists), when (Rome). */
export function exportFileName(
  base: string,
  tenantName: string | null,
  now: Date,
  format: ExportFormat | 'pdf',
): string {
  const tenant = tenantName ? slugify(tenantName) : '';
  return `${[base, tenant, romeDay(now)].filter(Boolean).join('-')}.${format}`;
}

const pad = (n: number) => String(n).padStart(2, '0');
const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

interface WallClock {
  y: number;
  m: number;
  d: number;
  hh: number;
  mm: number;
}

const HOUR_MS = 3_600_000;
/** Rome's UTC offset (ms) by UTC hour: it changes only on whole UTC hours (01:00 UTC, EU rule). */
const romeOffsets = new Map<number, number>();
function romeOffsetMs(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = romeOffsets.get(hour);
  if (offset === undefined) {
    const t = new TZDate(hour * HOUR_MS, BILLING_TIME_ZONE);
    offset =
      Date.UTC(t.getFullYear(), t.getMonth(), t.getDate(), t.getHours(), t.getMinutes()) - hour * HOUR_MS;
    if (romeOffsets.size > 50_000) romeOffsets.clear();
    romeOffsets.set(hour, offset);
  }
  return offset;
}

/** A day or an instant as Rome wall-clock parts; null when absent or unreadable. */
function wallClock(value: ExportValue, dayOnly: boolean): WallClock | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const day = DAY_ONLY.exec(value);
    if (day) return { y: Number(day[1]), m: Number(day[2]), d: Number(day[3]), hh: 0, mm: 0 };
  }
  const ms = value instanceof Date ? value.getTime() : new Date(String(value)).getTime();
  if (Number.isNaN(ms)) return null;
  // The wall clock read off a shifted UTC date: one TZDate per hour of the data, not per cell.
  const t = new Date(ms + romeOffsetMs(ms));
  return {
    y: t.getUTCFullYear(),
    m: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    hh: dayOnly ? 0 : t.getUTCHours(),
    mm: dayOnly ? 0 : t.getUTCMinutes(),
  };
}

function toNumber(value: ExportValue): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** 1234.5 → '1234,50' (two decimals, rounded half away from zero on the cent). */
function decimalComma(n: number, decimals: number): string {
  const scale = 10 ** decimals;
  const rounded = Math.sign(n) * Math.round(Math.abs(n) * scale + 1e-9);
  return (rounded / scale).toFixed(decimals).replace('.', ',');
}

/** A cell as CSV text (Italian conventions). */
export function csvCell(type: ExportType, value: ExportValue): string {
  switch (type) {
    case 'money':
    case 'percent': {
      const n = toNumber(value);
      return n === null ? '' : decimalComma(n, 2);
    }
    case 'number': {
      const n = toNumber(value);
      return n === null ? '' : String(n).replace('.', ',');
    }
    case 'integer': {
      const n = toNumber(value);
      return n === null ? '' : String(Math.trunc(n));
    }
    case 'date':
    case 'datetime': {
      const w = wallClock(value, type === 'date');
      if (!w) return '';
      const day = `${pad(w.d)}/${pad(w.m)}/${w.y}`;
      return type === 'date' ? day : `${day} ${pad(w.hh)}:${pad(w.mm)}`;
    }
    case 'bool':
      return value === null || value === undefined ? '' : value ? 'Sì' : 'No';
    case 'text':
      return value === null || value === undefined ? '' : neutralise(String(value));
  }
}

/** A cell as an XLSX value: numbers stay numbers, days and instants are dates. */
function xlsxCell(type: ExportType, value: ExportValue): string | number | Date | null {
  switch (type) {
    case 'money':
    case 'percent':
    case 'number':
    case 'integer':
      return toNumber(value);
    case 'date':
    case 'datetime': {
      // Excel dates have no time zone: the Rome wall clock is written as it reads.
      const w = wallClock(value, type === 'date');
      return w ? new Date(Date.UTC(w.y, w.m - 1, w.d, w.hh, w.mm)) : null;
    }
    case 'bool':
      return value === null || value === undefined ? null : value ? 'Sì' : 'No';
    case 'text':
      return value === null || value === undefined ? null : neutralise(String(value));
  }
}

const NUMBER_FORMATS: Partial<Record<ExportType, string>> = {
  money: '#,##0.00 [$€-410];-#,##0.00 [$€-410]',
  percent: '0.00" %"',
  number: '#,##0.##',
  integer: '0',
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm',
};
const MIN_WIDTH: Partial<Record<ExportType, number>> = { date: 12, datetime: 17, money: 14 };

/** Widths that fit the header and the first rows (the rest streams after the header is written). */
function fittedWidths<T>(columns: readonly ExportColumn<T>[], sample: readonly T[]): number[] {
  return columns.map((c) => {
    const type = c.type ?? 'text';
    let longest = c.header.length;
    for (const row of sample) longest = Math.max(longest, csvCell(type, c.value(row)).length);
    return Math.min(60, Math.max(MIN_WIDTH[type] ?? 8, longest + 2));
  });
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Waits until the consumer has taken what is buffered (bounded memory on a slow download). */
async function drained(stream: PassThrough): Promise<void> {
  if (stream.destroyed) throw new Error('download interrotto dal client');
  if (!stream.writableNeedDrain) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
  if (stream.destroyed) throw new Error('download interrotto dal client');
}

/**
 * The CSV, one chunk per batch: csv-stringify's synchronous API formats a whole batch (quoting,
 * `;`, CRLF), the header and the BOM with the first one; the chunk goes out when the download
 * has taken the previous ones.
 */
async function writeCsv<T>(
  out: PassThrough,
  columns: readonly ExportColumn<T>[],
  first: T[],
  rest: AsyncIterator<T[]>,
): Promise<void> {
  const types = columns.map((c) => c.type ?? 'text');
  const options = { delimiter: ';', record_delimiter: 'windows' } as const;
  const writeBatch = async (rows: T[], head: boolean) => {
    const records = rows.map((row) => columns.map((c, i) => csvCell(types[i] as ExportType, c.value(row))));
    const text = stringifySync(records, {
      ...options,
      ...(head ? { bom: true, header: true, columns: columns.map((c) => c.header) } : {}),
    });
    if (text !== '') out.write(text);
    await drained(out);
  };
  await writeBatch(first, true);
  for (let next = await rest.next(); !next.done; next = await rest.next())
    await writeBatch(next.value, false);
  out.end();
}

/** Rows written between two looks at the zip entry's back-pressure (about 40 KB of XML). */
const XLSX_ROWS_PER_CHECK = 100;

interface PipedWritable {
  _writableState?: { needDrain?: boolean };
  destroyed?: boolean;
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

/**
 * exceljs's sheet stream (StreamBuf) ignores back-pressure: it hands its 64 KB chunks on (to the
 * PassThrough archiver wraps it in, then the zip entry's deflate stream) without waiting, so a
 * writer faster than zlib would pile the whole sheet's XML up in memory. Waits until that pipe has
 * passed on what it was given (its `drain`); a turn of the event loop when it is not open yet.
 */
async function compressed(sheet: ExcelJS.Worksheet): Promise<void> {
  const pipes = (sheet as unknown as { stream?: { pipes?: PipedWritable[] } }).stream?.pipes;
  const pipe = pipes?.[0];
  if (pipe?._writableState && typeof pipe.once === 'function') {
    if (!pipe._writableState.needDrain || pipe.destroyed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        pipe.off('drain', done);
        pipe.off('close', done);
        pipe.off('error', done);
        resolve();
      };
      pipe.once('drain', done);
      pipe.once('close', done);
      pipe.once('error', done);
    });
  } else await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * exceljs (with its zip, unzip and CSV dependencies) loads with the first Excel export, not at
 * start-up: ~0.3 s of the server's start CPU, profiled.
 */
let excel: Promise<typeof ExcelJS> | undefined;
const loadExcel = () => (excel ??= import('exceljs').then((m) => m.default));

async function writeXlsx<T>(
  out: PassThrough,
  spec: ExportSpec<T>,
  first: T[],
  rest: AsyncIterator<T[]>,
): Promise<void> {
  const { stream } = await loadExcel();
  const workbook = new stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Rinnova';
  const sheet = workbook.addWorksheet((spec.sheetName ?? spec.fileName).slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const widths = fittedWidths(spec.columns, first);
  const types = spec.columns.map((c) => c.type ?? 'text');
  sheet.columns = spec.columns.map((c, i) => {
    const numFmt = NUMBER_FORMATS[types[i] as ExportType];
    return { header: c.header, key: `c${i}`, width: widths[i], ...(numFmt ? { style: { numFmt } } : {}) };
  });
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF1F5F9' } };
  header.commit();
  const writeBatch = async (rows: T[]) => {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as T;
      sheet.addRow(spec.columns.map((c, j) => xlsxCell(types[j] as ExportType, c.value(row)))).commit();
      if (i % XLSX_ROWS_PER_CHECK === XLSX_ROWS_PER_CHECK - 1) await compressed(sheet);
    }
    await compressed(sheet);
    await drained(out);
  };
  await writeBatch(first);
  for (let next = await rest.next(); !next.done; next = await rest.next()) await writeBatch(next.value);
  sheet.commit();
  await workbook.commit();
}

/**
 * The batches read one ahead: the next batch's query runs while the current one is written, so
 * the database and the writer work side by side (at most two batches in memory).
 */
function readAhead<T>(iterator: AsyncIterator<T[]>): AsyncIterator<T[]> & { close(): void } {
  let pending: Promise<IteratorResult<T[]>> | null = null;
  let closed = false;
  const fetchNext = () => {
    const next = iterator.next();
    next.catch(() => undefined); // awaited by the writer; never an unhandled rejection meanwhile
    return next;
  };
  return {
    async next() {
      const current = pending ?? fetchNext();
      const result = await current;
      // eslint-disable-next-line require-atomic-updates -- next() is called by one writer at a time: nothing else sets `pending` meanwhile
      pending = result.done || closed ? null : fetchNext();
      return result;
    },
    close() {
      if (closed) return;
      closed = true;
      void Promise.resolve(pending)
        .then(() => iterator.return?.())
        .catch(() => undefined);
    },
  };
}

/**
 * Answers the export. The first batch is read before anything is sent, so a bad filter or a
 * failing query is still an ordinary error envelope; after that the file streams, batch by batch,
 * the next batch read while the current one is written.
 */
export async function sendExport<T>(
  reply: FastifyReply,
  options: {
    spec: ExportSpec<T>;
    format: ExportFormat;
    fileName: string;
    /** The list's rows in batches of `size` rows (the app's export batch size). */
    batches: (size: number) => AsyncIterable<T[]>;
  },
): Promise<FastifyReply> {
  const { spec, format, fileName } = options;
  const batches = options.batches(exportBatchSize(reply.server));
  const iterator = readAhead(batches[Symbol.asyncIterator]());
  const head = await iterator.next();
  const first = head.done ? [] : head.value;
  const out = new PassThrough();
  const work =
    format === 'csv' ? writeCsv(out, spec.columns, first, iterator) : writeXlsx(out, spec, first, iterator);
  work
    .catch((error: unknown) => {
      reply.log.error({ err: error }, 'esportazione interrotta');
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    })
    .finally(() => iterator.close());
  return reply
    .header('content-type', CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(out);
}

/**
 * Keyset batches: `page(after, limit)` returns at most `limit` rows in the list's total order
 * that come after the row `after` (null: from the start), e.g. `WHERE (key, id) > (…)` on the
 * list's index; never an OFFSET, so batch 100 costs what batch 1 costs. Stops on a short batch.
 */
export async function* keysetBatches<T>(
  page: (after: T | null, limit: number) => Promise<T[]>,
  size = EXPORT_BATCH_SIZE,
): AsyncGenerator<T[]> {
  let after: T | null = null;
  for (;;) {
    const rows = await page(after, size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1] as T;
  }
}

/**
 * Bounded pages of a list until it runs out: `page(limit, offset)` returns at most `limit` rows
 * in a total order (ties broken by id). Only for lists that cannot seek (the job engine's).
 */
export async function* offsetBatches<T>(
  page: (limit: number, offset: number) => Promise<T[]>,
  size = EXPORT_BATCH_SIZE,
): AsyncGenerator<T[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await page(size, offset);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
  }
}
