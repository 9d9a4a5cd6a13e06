/**
 * Exports and the PDF report at 100,000 subscriptions on PostgreSQL (issue 14): the whole list as
 * CSV and as XLSX through the real server (time to the last byte, and the process's peak RSS
 * growth while it streams: the server runs in this process), then the month's PDF report.
 *
 * Beside each export, in the same run, an anchor: the same keyset SQL (one query per 1,000 rows)
 * on a bare `pg` client, written with the same libraries (csv-stringify's sync API per batch;
 * exceljs's streaming writer, one commit per row) into a sink, without sign-in, Fastify, drizzle
 * or HTTP; so the ratio says what the product adds. The load average is printed with them.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import pg from 'pg';
import type { BenchResult } from './billing-lists';

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Peak RSS growth (MB) of this process while `work` runs. */
async function withPeakRss<T>(work: (sample: () => void) => Promise<T>): Promise<[T, number]> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const sampler = setInterval(sample, 20);
  try {
    const value = await work(sample);
    return [value, (peak - baseline) / 1024 / 1024];
  } finally {
    clearInterval(sampler);
  }
}

/** The anchor: the export's SQL in keyset batches on a bare client, formatted into a sink. */
async function anchorExport(
  databaseUrl: string,
  tenantId: number,
  format: 'csv' | 'xlsx',
): Promise<{ ms: number; rows: number; peakGrowthMb: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const start = performance.now();
    const [rows, peakGrowthMb] = await withPeakRss(async (sample) => {
      const sink = new Writable({
        write(_chunk, _encoding, done) {
          done();
        },
      });
      const workbook =
        format === 'xlsx'
          ? new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false })
          : null;
      const sheet = workbook?.addWorksheet('anchor');
      let before = 2_147_483_647;
      let count = 0;
      for (;;) {
        const batch = await client.query<{
          id: number;
          name: string | null;
          email: string;
          plan: string;
          cents: number;
          start: string;
          next: string;
          status: number;
        }>(
          `select s.id, ut.name, u.email, p.name as plan, s.amount_due_cents as cents,
                  to_char(s.start_date at time zone 'Europe/Rome', 'YYYY-MM-DD') as start,
                  to_char(s.next_billing_date at time zone 'Europe/Rome', 'YYYY-MM-DD') as next, s.status
           from subscriptions s
           join user_tenants ut on ut.user_id = s.user_id and ut.tenant_id = s.tenant_id
           join users u on u.id = s.user_id
           join plans p on p.id = s.plan_id and p.tenant_id = s.tenant_id
           where s.tenant_id = $1 and s.id < $2 order by s.id desc limit 1000`,
          [tenantId, before],
        );
        const records = batch.rows.map((r) => [
          r.name ?? r.email,
          r.email,
          r.plan,
          (r.cents / 100).toFixed(2).replace('.', ','),
          r.start,
          r.next,
          String(r.status),
        ]);
        if (sheet) {
          for (const r of batch.rows)
            sheet
              .addRow([
                r.name ?? r.email,
                r.email,
                r.plan,
                r.cents / 100,
                new Date(r.start),
                new Date(r.next),
                r.status,
              ])
              .commit();
          await new Promise<void>((resolve) => setImmediate(resolve));
        } else sink.write(stringify(records, { delimiter: ';', record_delimiter: 'windows' }));
        sample();
        count += batch.rows.length;
        const last = batch.rows[batch.rows.length - 1];
        if (batch.rows.length < 1000 || !last) break;
        before = last.id;
      }
      if (sheet && workbook) {
        sheet.commit();
        await workbook.commit();
      }
      return count;
    });
    return { ms: performance.now() - start, rows, peakGrowthMb };
  } finally {
    await client.end();
  }
}

async function measure(
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; bytes: number; lines: number; peakGrowthMb: number }> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const start = performance.now();
  try {
    const res = await fetch(url, { headers });
    if (!res.ok || !res.body) throw new Error(`${url} → ${res.status} ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
      peak = Math.max(peak, process.memoryUsage.rss());
    }
    return { ms: performance.now() - start, bytes, lines, peakGrowthMb: (peak - baseline) / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

export async function benchExports(
  serverUrl: string,
  headers: Record<string, string>,
  rows: number,
  anchor?: { databaseUrl: string; tenantId: number },
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const k = `${rows / 1000}k`;
  for (const [format, target] of [
    ['csv', 3_000],
    ['xlsx', 10_000],
  ] as const) {
    const loadBefore = loadAverage();
    const r = await measure(`${serverUrl}/api/subscription/export?format=${format}`, headers);
    console.log(
      `  export ${format}: ${(r.ms / 1000).toFixed(2)} s, ${(r.bytes / 1024 / 1024).toFixed(1)} MB${format === 'csv' ? `, ${r.lines - 1} rows` : ''}, peak RSS growth ${r.peakGrowthMb.toFixed(1)} MB (load average ${loadBefore})`,
    );
    if (anchor) {
      const a = await anchorExport(anchor.databaseUrl, anchor.tenantId, format);
      console.log(
        `    anchor (same SQL on a bare pg client, same library, into a sink): ${(a.ms / 1000).toFixed(2)} s, ${a.rows} rows, peak RSS growth ${a.peakGrowthMb.toFixed(1)} MB` +
          ` (×${(r.ms / a.ms).toFixed(2)} for the export; load average ${loadAverage()})`,
      );
    }
    results.push({
      name: `subscription export ${format.toUpperCase()} (PostgreSQL, ${k})`,
      value: r.ms,
      unit: 'ms',
      target,
    });
    results.push({
      name: `subscription export ${format.toUpperCase()}: peak RSS growth`,
      value: r.peakGrowthMb,
      unit: 'MB',
      target: 100,
    });
  }
  await measure(`${serverUrl}/api/report/pdf`, headers); // warm-up (fonts, code paths)
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) samples.push((await measure(`${serverUrl}/api/report/pdf`, headers)).ms);
  samples.sort((a, b) => a - b);
  console.log(`  report PDF: ${samples.map((s) => s.toFixed(0)).join(', ')} ms`);
  results.push({
    name: `monthly PDF report, worst of 5 (PostgreSQL, ${k})`,
    value: samples[samples.length - 1] ?? NaN,
    unit: 'ms',
    target: 2_000,
  });
  return results;
}
