/** A size in bytes as an Italian reader writes it: '512 B', '1,5 kB', '12,4 MB' (the SPA and `npm run tenants`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString('it-IT', { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`;
}
