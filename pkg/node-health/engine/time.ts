/**
 * Durations. Findings carry them as milliseconds (DURATION_ARGS); the tab and the reports say them in the
 * reader's language from their parts (report/durations.ts), and the JSON report also in the compact form.
 */
import { parseTime } from './fields';

export type DurationUnit = 'd' | 'h' | 'm' | 's';

export interface DurationPart {
  value: number;
  unit: DurationUnit;
}

/** Milliseconds from a timestamp to `nowMs` (negative for one after it); null when the timestamp is missing or unreadable. */
export function elapsedMs(since: unknown, nowMs: number): number | null {
  const t = parseTime(since);

  return t === null ? null : nowMs - t;
}

/** The largest unit of a duration and, below a day or an hour, the next one: 2d 4h, 3h 58m, 40m, 12s. */
export function durationParts(ms: number): DurationPart[] {
  if (!Number.isFinite(ms) || ms < 0) {
    return [{ value: 0, unit: 's' }];
  }
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);

  if (d > 0) {
    return h > 0 ? [{ value: d, unit: 'd' }, { value: h, unit: 'h' }] : [{ value: d, unit: 'd' }];
  }
  if (h > 0) {
    return m > 0 ? [{ value: h, unit: 'h' }, { value: m, unit: 'm' }] : [{ value: h, unit: 'h' }];
  }
  if (m > 0) {
    return [{ value: m, unit: 'm' }];
  }

  return [{ value: s, unit: 's' }];
}

/** A duration in the compact form of the command line and the report: 2d 4h, 3h 58m, 40m, 12s. */
export function formatDuration(ms: number): string {
  return durationParts(ms).map((p) => `${ p.value }${ p.unit }`).join(' ');
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
