/** Durations for messages: compact and language-neutral ("2h 5m"), so both locales can show them as-is. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    return '0s';
  }
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);

  if (d > 0) {
    return h > 0 ? `${ d }d ${ h }h` : `${ d }d`;
  }
  if (h > 0) {
    return m > 0 ? `${ h }h ${ m }m` : `${ h }h`;
  }
  if (m > 0) {
    return `${ m }m`;
  }

  return `${ s }s`;
}

export function toEpochMs(value: string | number | Date): number {
  if (value instanceof Date) {
    return value.getTime();
  }
  if (typeof value === 'number') {
    return value;
  }
  const t = Date.parse(value);

  if (Number.isNaN(t)) {
    throw new RangeError(`not a valid time: ${ value }`);
  }

  return t;
}
