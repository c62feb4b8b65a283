/**
 * Byte-level helpers the builders need without Node built-ins, so the same code runs in jest (jsdom),
 * in the browser (embedded API) and under tsx. Secret data must be base64 and plan checksums must be
 * real sha256 values, otherwise "is the plan in sync" cannot be computed from the data.
 */

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

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const SHA_W = new Int32Array(64);

export function sha256Bytes(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);

  padded.set(data);
  padded[data.length] = 0x80;
  const high = Math.floor(bitLength / 0x100000000);
  const low = bitLength >>> 0;
  const end = padded.length;

  padded[end - 8] = high >>> 24; padded[end - 7] = (high >>> 16) & 255; padded[end - 6] = (high >>> 8) & 255; padded[end - 5] = high & 255;
  padded[end - 4] = low >>> 24; padded[end - 3] = (low >>> 16) & 255; padded[end - 2] = (low >>> 8) & 255; padded[end - 1] = low & 255;

  let h0 = 0x6a09e667; let h1 = 0xbb67ae85; let h2 = 0x3c6ef372; let h3 = 0xa54ff53a;
  let h4 = 0x510e527f; let h5 = 0x9b05688c; let h6 = 0x1f83d9ab; let h7 = 0x5be0cd19;
  const w = SHA_W;

  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let t = 0; t < 16; t++) {
      const j = offset + t * 4;

      w[t] = (padded[j] << 24) | (padded[j + 1] << 16) | (padded[j + 2] << 8) | padded[j + 3];
    }
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]; const b = w[t - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);

      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    let a = h0; let b = h1; let c = h2; let d = h3; let e = h4; let f = h5; let g = h6; let h = h7;

    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[t] + w[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;

      h = g; g = f; f = e; e = (d + t1) | 0;
      d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0; h5 = (h5 + f) | 0; h6 = (h6 + g) | 0; h7 = (h7 + h) | 0;
  }

  const out = new Uint8Array(32);
  const words = [h0, h1, h2, h3, h4, h5, h6, h7];

  for (let i = 0; i < 8; i++) {
    out[i * 4] = words[i] >>> 24;
    out[i * 4 + 1] = (words[i] >>> 16) & 255;
    out[i * 4 + 2] = (words[i] >>> 8) & 255;
    out[i * 4 + 3] = words[i] & 255;
  }

  return out;
}

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
