/**
 * Tolerant accessors. Input comes from clusters, files and bundles, so any field may be missing, null or
 * of the wrong type; every read goes through these so that a malformed object degrades, never throws.
 * The engine's readers and everything above it (loading, actions, exports, the command line) use these.
 */
import type { KubeObject } from './types';

// Shared and frozen: a missing field is the common case on large inputs and must not allocate.
const EMPTY_OBJECT: Record<string, any> = Object.freeze({});
const EMPTY_ARRAY: any[] = Object.freeze([]) as unknown as any[];

/** Whether a value is a JSON object (not null, not an array): what every reader of untrusted input asks first. */
export function isPlainObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value when it is a JSON object, else a shared empty one (frozen: readers never write to what they read). */
export function asObject(value: unknown): Record<string, any> {
  return isPlainObject(value) ? value : EMPTY_OBJECT;
}

export function asArray(value: unknown): any[] {
  return Array.isArray(value) ? value : EMPTY_ARRAY;
}

export function asString(value: unknown): string | null {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }

  return null;
}

export function asNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return value;
  }
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);

    return Number.isFinite(n) ? n : null;
  }

  return null;
}

export function metadata(obj: unknown): Record<string, any> {
  return asObject(asObject(obj).metadata);
}

export function nameOf(obj: unknown): string | null {
  return asString(metadata(obj).name);
}

export function namespaceOf(obj: unknown): string | null {
  return asString(metadata(obj).namespace);
}

export function labelsOf(obj: unknown): Record<string, any> {
  return asObject(metadata(obj).labels);
}

export function annotationsOf(obj: unknown): Record<string, any> {
  return asObject(metadata(obj).annotations);
}

export function label(obj: unknown, key: string): string | null {
  return asString(labelsOf(obj)[key]);
}

export function annotation(obj: unknown, key: string): string | null {
  return asString(annotationsOf(obj)[key]);
}

export function specOf(obj: unknown): Record<string, any> {
  return asObject(asObject(obj).spec);
}

export function statusOf(obj: unknown): Record<string, any> {
  return asObject(asObject(obj).status);
}

/** Whether an object has any field of its own: a status of `{}` (or none) says nothing. */
export function hasFields(obj: Record<string, unknown>): boolean {
  for (const key in obj) {
    if (Object.prototype.hasOwnProperty.call(obj, key)) {
      return true;
    }
  }

  return false;
}

/** Parses an RFC3339 (or other Date-parsable) timestamp; null when absent or invalid. */
export function parseTime(value: unknown): number | null {
  const s = asString(value);

  if (!s) {
    return null;
  }
  const t = Date.parse(s);

  return Number.isNaN(t) ? null : t;
}

const UNIX_DATE = /^\s*\w{3} (\w{3})\s+(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\S+) (\d{4})\s*$/;
const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';
const NUMERIC_ZONE = /^[+-]\d{4}$/;

/**
 * Go's time.UnixDate ("Mon Jan  2 15:04:05 MST 2006"), which the system agent writes to last-apply-time.
 * A zone name other than UTC/GMT cannot be resolved without a zone database and is read as UTC.
 */
export function parseUnixDate(value: unknown): number | null {
  const s = asString(value);

  if (!s) {
    return null;
  }
  const m = UNIX_DATE.exec(s);

  if (!m) {
    return parseTime(s);
  }
  const month = MONTHS.indexOf(m[1]);

  if (month < 0 || month % 3 !== 0) {
    return null;
  }
  const zone = m[6];
  let offsetMinutes = 0;

  if (NUMERIC_ZONE.test(zone)) {
    offsetMinutes = (zone.charCodeAt(0) === 45 /* - */ ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
  }
  const t = Date.UTC(Number(m[7]), month / 3, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) - offsetMinutes * 60000;

  return Number.isNaN(t) ? null : t;
}

export function describeObject(kindLabel: string, obj: KubeObject): string {
  const ns = namespaceOf(obj);
  const name = nameOf(obj) ?? '?';

  return ns ? `${ kindLabel } ${ ns }/${ name }` : `${ kindLabel } ${ name }`;
}

const BASE64_VALUES = (() => {
  const table = new Int16Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

  for (let i = 0; i < alphabet.length; i++) {
    table[alphabet.charCodeAt(i)] = i;
  }
  table['-'.charCodeAt(0)] = 62; // base64url, as some tools write it
  table['_'.charCodeAt(0)] = 63;

  return table;
})();

// Decoded bytes land here and become one string: building the text a character at a time made a
// string object per byte, which on a large cluster was a third of everything the diagnosis allocated.
let scratch = new Uint8Array(1024);
// Views of the scratch buffer's first n bytes, made once per length rather than once per value.
let views: Uint8Array[] = [];

function prefix(length: number): Uint8Array {
  let view = views[length];

  if (!view) {
    view = scratch.subarray(0, length);
    views[length] = view;
  }

  return view;
}

/** Decodes base64 into the scratch buffer; the number of bytes, or -1 for invalid input. */
function decodeIntoScratch(s: string): number {
  if (scratch.length < s.length) {
    scratch = new Uint8Array(s.length * 2);
    views = [];
  }
  let length = 0;
  let buffer = 0;
  let bits = 0;

  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);

    if (c === 61 /* = */) {
      break;
    }
    if (c === 10 || c === 13 || c === 32) {
      continue;
    }
    const v = c < 128 ? BASE64_VALUES[c] : -1;

    if (v < 0) {
      return -1;
    }
    buffer = ((buffer << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      scratch[length++] = (buffer >> bits) & 0xff;
    }
  }

  return length;
}

/**
 * Base64 to text without Buffer (the engine also runs in the browser) and without atob, which is slow in
 * Node and throws on stray whitespace. Invalid input gives null.
 */
export function decodeBase64(value: unknown): string | null {
  const s = asString(value);
  const length = s === null ? -1 : decodeIntoScratch(s);

  if (length < 0) {
    return null;
  }
  for (let i = 0; i < length; i++) {
    if (scratch[i] > 0x7f) {
      return typeof TextDecoder === 'function' ? new TextDecoder().decode(prefix(length)) : null;
    }
  }

  return asciiText(length);
}

/** Whether base64 text decodes to bytes containing this ASCII word, without making a string of it. */
export function base64Includes(value: unknown, word: string): boolean {
  const s = asString(value);
  const length = s === null ? -1 : decodeIntoScratch(s);
  const first = word.charCodeAt(0);

  for (let i = 0; i + word.length <= length; i++) {
    if (scratch[i] === first) {
      let j = 1;

      while (j < word.length && scratch[i + j] === word.charCodeAt(j)) {
        j++;
      }
      if (j === word.length) {
        return true;
      }
    }
  }

  return false;
}

/*
 * Plan-secret status values are read tens of thousands of times on a large cluster, mostly to compare or
 * count them. These read the decoded bytes where they are, so that only values someone shows become text.
 */

/** Whether base64 text decodes to at least one byte. */
export function base64NonEmpty(value: unknown): boolean {
  const s = asString(value);

  return s !== null && decodeIntoScratch(s) > 0;
}

/** Whether base64 text decodes to exactly this ASCII word. */
export function base64Is(value: unknown, word: string): boolean {
  const s = asString(value);
  const length = s === null ? -1 : decodeIntoScratch(s);

  if (length !== word.length) {
    return false;
  }
  for (let i = 0; i < length; i++) {
    if (scratch[i] !== word.charCodeAt(i)) {
      return false;
    }
  }

  return true;
}

/** The number base64 text decodes to, read as asNumber reads text; null when it is none. */
export function base64Number(value: unknown): number | null {
  const s = asString(value);
  const length = s === null ? -1 : decodeIntoScratch(s);

  if (length <= 0) {
    return null;
  }
  let n = 0;

  for (let i = 0; i < length; i++) {
    const digit = scratch[i] - 48;

    if (digit < 0 || digit > 9 || i >= 15) {
      // Signs, decimals, exponents, spaces: rare enough to read as text.
      return asNumber(decodeBase64(s));
    }
    n = n * 10 + digit;
  }

  return n;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordChar(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function twoDigits(at: number): number {
  return (scratch[at] - 48) * 10 + scratch[at + 1] - 48;
}

/**
 * parseUnixDate of the text base64 decodes to. The agent writes every last-apply-time as "Mon Jan  2 15:04:05 UTC
 * 2006": that shape is read from the decoded bytes, with no text made of them; anything else is read as text.
 */
export function base64UnixDate(value: unknown): number | null {
  const s = asString(value);
  const length = s === null ? -1 : decodeIntoScratch(s);

  if (length !== 28) {
    return parseUnixDate(decodeBase64(s));
  }
  const b = scratch;
  const shaped = isWordChar(b[0]) && isWordChar(b[1]) && isWordChar(b[2]) && b[3] === 32 && isWordChar(b[4]) && isWordChar(b[5]) &&
    isWordChar(b[6]) && b[7] === 32 && (b[8] === 32 || isDigit(b[8])) && isDigit(b[9]) && b[10] === 32 && isDigit(b[11]) && isDigit(b[12]) &&
    b[13] === 58 && isDigit(b[14]) && isDigit(b[15]) && b[16] === 58 && isDigit(b[17]) && isDigit(b[18]) && b[19] === 32 &&
    b[20] > 32 && b[20] < 127 && b[21] > 32 && b[21] < 127 && b[22] > 32 && b[22] < 127 && b[23] === 32 &&
    isDigit(b[24]) && isDigit(b[25]) && isDigit(b[26]) && isDigit(b[27]);

  if (!shaped) {
    return parseUnixDate(decodeBase64(s));
  }
  // A three-letter zone is never a numeric offset: read as UTC, as parseUnixDate does.
  let month = -1;

  for (let i = 0; i < MONTHS.length && month < 0; i += 3) {
    if (MONTHS.charCodeAt(i) === b[4] && MONTHS.charCodeAt(i + 1) === b[5] && MONTHS.charCodeAt(i + 2) === b[6]) {
      month = i;
    }
  }
  // What is no month's name is no time (as parseUnixDate reads it: its pattern matches, its month does not).
  if (month < 0) {
    return null;
  }
  const day = b[8] === 32 ? b[9] - 48 : twoDigits(8);
  const t = Date.UTC(twoDigits(24) * 100 + twoDigits(26), month / 3, day, twoDigits(11), twoDigits(14), twoDigits(17));

  return Number.isNaN(t) ? null : t;
}

/** Whether two base64 texts decode to the same bytes (both invalid counts as the same). */
export function base64Equal(a: unknown, b: unknown): boolean {
  const x = asString(a);
  const y = asString(b);

  return x === y || decodeBase64(x) === decodeBase64(y);
}

const CHUNK = 4096;

function asciiText(length: number): string {
  if (length <= CHUNK) {
    return String.fromCharCode.apply(null, prefix(length) as unknown as number[]);
  }
  let text = '';

  for (let i = 0; i < length; i += CHUNK) {
    text += String.fromCharCode.apply(null, scratch.subarray(i, Math.min(length, i + CHUNK)) as unknown as number[]);
  }

  return text;
}
