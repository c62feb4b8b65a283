/**
 * Tolerant accessors. Input comes from clusters, files and bundles, so any field may be missing, null or
 * of the wrong type; every read goes through these so that a malformed object degrades, never throws.
 */
import type { KubeObject } from './types';

// Shared and frozen: a missing field is the common case on large inputs and must not allocate.
const EMPTY_OBJECT: Record<string, any> = Object.freeze({});
const EMPTY_ARRAY: any[] = Object.freeze([]) as unknown as any[];

export function asObject(value: unknown): Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, any> : EMPTY_OBJECT;
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

export function metadata(obj: KubeObject): Record<string, any> {
  return asObject(asObject(obj).metadata);
}

export function nameOf(obj: KubeObject): string | null {
  return asString(metadata(obj).name);
}

export function namespaceOf(obj: KubeObject): string | null {
  return asString(metadata(obj).namespace);
}

export function labelsOf(obj: KubeObject): Record<string, any> {
  return asObject(metadata(obj).labels);
}

export function annotationsOf(obj: KubeObject): Record<string, any> {
  return asObject(metadata(obj).annotations);
}

export function label(obj: KubeObject, key: string): string | null {
  return asString(labelsOf(obj)[key]);
}

export function annotation(obj: KubeObject, key: string): string | null {
  return asString(annotationsOf(obj)[key]);
}

export function specOf(obj: KubeObject): Record<string, any> {
  return asObject(asObject(obj).spec);
}

export function statusOf(obj: KubeObject): Record<string, any> {
  return asObject(asObject(obj).status);
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

/** Go's time.UnixDate ("Mon Jan  2 15:04:05 MST 2006"), which the system agent writes to last-apply-time. */
export function parseUnixDate(value: unknown): number | null {
  const s = asString(value);

  if (!s) {
    return null;
  }
  const m = /^\w{3} (\w{3})\s+(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\S+) (\d{4})$/.exec(s.trim());

  if (!m) {
    return parseTime(s);
  }
  const [, mon, day, hh, mm, ss, zone, year] = m;
  const offset = /^UTC|GMT$/.test(zone) ? 'Z' : (/^[+-]\d{4}$/.test(zone) ? zone : 'Z');
  const t = Date.parse(`${ day } ${ mon } ${ year } ${ hh }:${ mm }:${ ss } ${ offset === 'Z' ? 'GMT' : offset }`);

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

/**
 * Base64 to text without Buffer (the engine also runs in the browser) and without atob, which is slow in
 * Node and throws on stray whitespace. Invalid input gives null.
 */
export function decodeBase64(value: unknown): string | null {
  const s = asString(value);

  if (s === null) {
    return null;
  }
  // Status values are short ASCII: build the text directly, and keep the bytes only for UTF-8.
  const bytes: number[] = [];
  let text = '';
  let ascii = true;
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
      return null;
    }
    buffer = ((buffer << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      const byte = (buffer >> bits) & 0xff;

      bytes.push(byte);
      if (byte > 0x7f) {
        ascii = false;
      } else if (ascii) {
        text += String.fromCharCode(byte);
      }
    }
  }
  if (ascii) {
    return text;
  }

  return typeof TextDecoder === 'function' ? new TextDecoder().decode(new Uint8Array(bytes)) : null;
}
