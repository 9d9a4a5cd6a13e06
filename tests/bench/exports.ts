/**
 * Exports and the PDF report at 100,000 subscriptions on PostgreSQL (issue 14): the whole list as
 * CSV and as XLSX through the real server (time to the last byte, and the process's peak RSS
 * growth while it streams: the server runs in this process), then the month's PDF report.
 */
import { performance } from 'node:perf_hooks';
import type { BenchResult } from './billing-lists';

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
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const k = `${rows / 1000}k`;
  for (const [format, target] of [
    ['csv', 3_000],
    ['xlsx', 10_000],
  ] as const) {
    const r = await measure(`${serverUrl}/api/subscription/export?format=${format}`, headers);
    console.log(
      `  export ${format}: ${(r.ms / 1000).toFixed(2)} s, ${(r.bytes / 1024 / 1024).toFixed(1)} MB${format === 'csv' ? `, ${r.lines - 1} rows` : ''}, peak RSS growth ${r.peakGrowthMb.toFixed(1)} MB`,
    );
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
