/**
 * Scenario time: everything is stamped relative to a scenario's `now`, never the wall clock, so
 * "stuck for 2 hours" stays 2 hours in every run.
 */

const UNIT_SECONDS: Record<string, number> = {
  s: 1, m: 60, h: 3600, d: 86400, w: 604800
};

/** A span such as '90s', '40m', '2h', '1h30m', '120d', or a number of seconds. */
export type Duration = string | number;

const durationCache = new Map<string, number>();

export function durationSeconds(span: Duration): number {
  if (typeof span === 'number') {
    return span;
  }
  const cached = durationCache.get(span);

  if (cached !== undefined) {
    return cached;
  }
  const matcher = /(\d+(?:\.\d+)?)([smhdw])/g;
  let total = 0;
  let consumed = 0;
  let m: RegExpExecArray | null;

  while ((m = matcher.exec(span)) !== null) {
    total += parseFloat(m[1]) * UNIT_SECONDS[m[2]];
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== span.length) {
    throw new Error(`not a duration: ${ span }`);
  }
  if (durationCache.size < 4096) durationCache.set(span, total);

  return total;
}

/** RFC 3339 in UTC without fractional seconds, as the API server writes timestamps. */
export function rfc3339(ms: number): string {
  return `${ new Date(ms).toISOString().slice(0, 19) }Z`;
}

/**
 * A MicroTime as the API server writes one (a Lease's renewTime): RFC 3339 in UTC with six fractional digits,
 * the microseconds below the millisecond given (0-999) or none.
 */
export function microTime(ms: number, belowMs = 0): string {
  const whole = Math.floor(ms);

  return `${ new Date(whole).toISOString().slice(0, 23) }${ String(Math.trunc(belowMs) % 1000).padStart(3, '0') }Z`;
}

let lastParsed = '';
let lastParsedMs = 0;

export function parseTime(rfc: string): number {
  // the scenario clock is parsed over and over; remember the last one
  if (rfc === lastParsed) {
    return lastParsedMs;
  }
  const ms = Date.parse(rfc);

  if (Number.isNaN(ms)) {
    throw new Error(`not a timestamp: ${ rfc }`);
  }
  lastParsed = rfc;
  lastParsedMs = ms;

  return ms;
}

/** `now` minus `span`, as RFC 3339. */
export function ago(now: string, span: Duration): string {
  return rfc3339(parseTime(now) - durationSeconds(span) * 1000);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Go's time.UnixDate layout ("Mon Jan _2 15:04:05 MST 2006") in UTC: the format
 * rancher-system-agent writes into the plan secret's last-apply-time.
 */
export function goUnixDate(rfc: string): string {
  const d = new Date(parseTime(rfc));
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, ' ');

  return `${ DAYS[d.getUTCDay()] } ${ MONTHS[d.getUTCMonth()] } ${ day } ${ pad(d.getUTCHours()) }:${ pad(d.getUTCMinutes()) }:${ pad(d.getUTCSeconds()) } UTC ${ d.getUTCFullYear() }`;
}

/** Parses goUnixDate output back to RFC 3339 (UTC only). */
export function parseGoUnixDate(text: string): string | undefined {
  const m = /^\w{3} (\w{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) UTC (\d{4})$/.exec(text);

  if (!m) {
    return undefined;
  }
  const month = MONTHS.indexOf(m[1]);

  return rfc3339(Date.UTC(+m[6], month, +m[2], +m[3], +m[4], +m[5]));
}
