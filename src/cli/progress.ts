/** Progress bar text for long jobs: "[#####.....] iteration 3/15  1.2 s elapsed  ETA 4.8 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms - m * 60_000) / 1000)} s`;
}

export function progressBar(fraction: number, width = 24): string {
  const filled = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export function progressLine(
  label: string,
  done: number,
  total: number,
  elapsedMs: number,
  etaMs: number | null,
): string {
  const eta = etaMs === null ? 'ETA --' : `ETA ${formatDuration(etaMs)}`;
  return `${progressBar(done / total)} ${label} ${Math.floor(done)}/${total}  ${formatDuration(elapsedMs)} elapsed  ${eta}`;
}
