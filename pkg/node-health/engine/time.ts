/**
 * Durations for messages. Findings carry them compactly ("2h 5m"), as the command line prints them by
 * default; the tab and the reports say them in the reader's language from their parts (report/durations.ts).
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

const COMPACT_DURATION = /^(\d+)([dhms])(?: (\d+)([hm]))?$/;

/**
 * Reads formatDuration's output back into its parts, or null for any other text. Findings carry their
 * durations as text (the command line prints them as they are); the tab reads them back to say them in
 * the user's language.
 */
export function parseDuration(text: string): DurationPart[] | null {
  const m = COMPACT_DURATION.exec(text);

  if (!m) {
    return null;
  }
  const parts: DurationPart[] = [{ value: Number(m[1]), unit: m[2] as DurationUnit }];

  if (m[3] !== undefined) {
    parts.push({ value: Number(m[3]), unit: m[4] as DurationUnit });
  }

  return parts;
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
