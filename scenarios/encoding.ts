/**
 * Byte-level helpers the builders need without Node built-ins, so the same code runs in jest (jsdom),
 * in the browser (embedded API) and under tsx. Secret data must be base64 and plan checksums must be
 * real sha256 values, otherwise "is the plan in sync" cannot be computed from the data.
 */

import { sha256Bytes } from '../pkg/node-health/report/html/sha256';

export function utf8Encode(text: string): Uint8Array {
  const ascii = new Uint8Array(text.length);

  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);

    if (code >= 0x80) {
      return utf8EncodeSlow(text);
    }
    ascii[i] = code;
  }

  return ascii;
}

function utf8EncodeSlow(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let o = 0;

  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);

    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);

      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (code < 0x80) {
      out[o++] = code;
    } else if (code < 0x800) {
      out[o++] = 0xc0 | (code >> 6);
      out[o++] = 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      out[o++] = 0xe0 | (code >> 12);
      out[o++] = 0x80 | ((code >> 6) & 0x3f);
      out[o++] = 0x80 | (code & 0x3f);
    } else {
      out[o++] = 0xf0 | (code >> 18);
      out[o++] = 0x80 | ((code >> 12) & 0x3f);
      out[o++] = 0x80 | ((code >> 6) & 0x3f);
      out[o++] = 0x80 | (code & 0x3f);
    }
  }

  return out.slice(0, o);
}

export function utf8Decode(bytes: Uint8Array): string {
  let out = '';

  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    let code: number;

    if (b < 0x80) {
      code = b; i += 1;
    } else if (b < 0xe0) {
      code = ((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f); i += 2;
    } else if (b < 0xf0) {
      code = ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f); i += 3;
    } else {
      code = ((b & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f); i += 4;
    }
    out += String.fromCodePoint(code);
  }

  return out;
}

// Browsers, Node >= 16 and jsdom all provide btoa; the table-driven encoder is the fallback.
const nativeBtoa: ((data: string) => string) | undefined = typeof btoa === 'function' ? btoa : undefined;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX: Record<string, number> = {};

for (let i = 0; i < B64.length; i++) {
  B64_INDEX[B64[i]] = i;
}

const B64_CODES = new Uint8Array(64);

for (let i = 0; i < 64; i++) {
  B64_CODES[i] = B64.charCodeAt(i);
}

function charsToString(chars: Uint8Array): string {
  let out = '';

  for (let i = 0; i < chars.length; i += 8192) {
    out += String.fromCharCode.apply(null, chars.subarray(i, i + 8192) as unknown as number[]);
  }

  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  if (nativeBtoa) {
    return nativeBtoa(binaryString(bytes));
  }
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;

  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];

    out[o++] = B64_CODES[n >> 18];
    out[o++] = B64_CODES[(n >> 12) & 63];
    out[o++] = B64_CODES[(n >> 6) & 63];
    out[o++] = B64_CODES[n & 63];
  }
  if (i < bytes.length) {
    const rest = bytes.length - i;
    const n = (bytes[i] << 16) | (rest === 2 ? bytes[i + 1] << 8 : 0);

    out[o++] = B64_CODES[n >> 18];
    out[o++] = B64_CODES[(n >> 12) & 63];
    out[o++] = rest === 2 ? B64_CODES[(n >> 6) & 63] : 61;
    out[o++] = 61;
  }

  return charsToString(out);
}

export function base64ToBytes(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;

  for (let i = 0; i < clean.length; i += 4) {
    const n = (B64_INDEX[clean[i]] << 18) | (B64_INDEX[clean[i + 1]] << 12) |
      ((B64_INDEX[clean[i + 2]] ?? 0) << 6) | (B64_INDEX[clean[i + 3]] ?? 0);

    out[o++] = n >> 16;
    if (i + 2 < clean.length) out[o++] = (n >> 8) & 255;
    if (i + 3 < clean.length) out[o++] = n & 255;
  }

  return out.subarray(0, o);
}

/** Latin-1 string of the bytes, the input btoa expects. */
function binaryString(bytes: Uint8Array): string {
  let out = '';

  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 8192)));
  }

  return out;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) return false;
  }

  return true;
}

export function base64Encode(text: string): string {
  if (nativeBtoa) {
    return nativeBtoa(isAscii(text) ? text : binaryString(utf8Encode(text)));
  }

  return bytesToBase64(utf8Encode(text));
}

export function base64Decode(text: string): string {
  return utf8Decode(base64ToBytes(text));
}

// One SHA-256 for the project: the report file's CSP hashes and the plan checksums here.
export { sha256Bytes };

const HEX_PAIRS: string[] = [];

for (let i = 0; i < 256; i++) {
  HEX_PAIRS.push((i < 16 ? '0' : '') + i.toString(16));
}

export function toHex(bytes: Uint8Array): string {
  const out: string[] = new Array(bytes.length);

  for (let i = 0; i < bytes.length; i++) {
    out[i] = HEX_PAIRS[bytes[i]];
  }

  return out.join('');
}

/** sha256 hex of the UTF-8 bytes of `text` (what rancher's PlanHash computes over the plan bytes). */
export function sha256Hex(text: string): string {
  return toHex(sha256Bytes(utf8Encode(text)));
}

let crcTable: Uint32Array | undefined;

function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;

      for (let k = 0; k < 8; k++) {
        c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      }
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;

  for (let i = 0; i < data.length; i++) {
    crc = crcTable[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  }

  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A valid gzip stream using uncompressed ("stored") deflate blocks. rancher-system-agent writes
 * applied-output as gzip'd JSON; stored blocks keep that format (any gunzip reads it) while leaving
 * the text inspectable, which canary tests rely on.
 */
export function gzipStored(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 65535));
  const out = new Uint8Array(10 + data.length + blocks * 5 + 8);

  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  let o = 10;

  for (let b = 0; b < blocks; b++) {
    const chunk = data.subarray(b * 65535, Math.min(data.length, (b + 1) * 65535));
    const len = chunk.length;

    out[o++] = b === blocks - 1 ? 1 : 0;
    out[o++] = len & 0xff;
    out[o++] = len >> 8;
    out[o++] = ~len & 0xff;
    out[o++] = (~len >> 8) & 0xff;
    out.set(chunk, o);
    o += len;
  }
  const crc = crc32(data);
  const size = data.length >>> 0;

  out.set([crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24,
    size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, size >>> 24], o);

  return out;
}

/** Reads back what gzipStored wrote (stored blocks only); returns undefined for anything else. */
export function gunzipStored(data: Uint8Array): Uint8Array | undefined {
  if (data.length < 18 || data[0] !== 0x1f || data[1] !== 0x8b || data[3] !== 0) {
    return undefined;
  }
  const parts: Uint8Array[] = [];
  let o = 10;

  for (;;) {
    const header = data[o];

    if ((header & 0x06) !== 0) {
      return undefined;
    }
    const len = data[o + 1] | (data[o + 2] << 8);

    parts.push(data.subarray(o + 5, o + 5 + len));
    o += 5 + len;
    if (header & 1) {
      break;
    }
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let w = 0;

  for (const p of parts) {
    out.set(p, w);
    w += p.length;
  }

  return out;
}
