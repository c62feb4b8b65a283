/**
 * Deterministic randomness: every scenario must produce byte-identical output for the same seed so
 * tests, benchmarks and the embedded API agree on names, uids and which nodes are broken.
 */

/** 128-bit string hash (cyrb128) used to seed generators and derive stable ids from names. */
export function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703; let h2 = 3144134277; let h3 = 1013904242; let h4 = 2773480762;

  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);

    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;

  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const HEX_BYTE: string[] = [];

for (let i = 0; i < 256; i++) {
  HEX_BYTE.push((i < 16 ? '0' : '') + i.toString(16));
}

function pushHex8(out: string[], n: number): void {
  out.push(HEX_BYTE[n >>> 24], HEX_BYTE[(n >>> 16) & 255], HEX_BYTE[(n >>> 8) & 255], HEX_BYTE[n & 255]);
}

// Ids are built with join(): concatenated strings stay as trees of pieces in V8, several times the
// size of the text, and big scenarios hold hundreds of thousands of ids.

/** A v4-shaped UUID that is a pure function of `key`. */
export function stableUid(key: string): string {
  const [a, b, c, d] = hash128(key);
  const bytes: string[] = [];

  pushHex8(bytes, a);
  pushHex8(bytes, b);
  pushHex8(bytes, c);
  pushHex8(bytes, d);
  const h = bytes.join('');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);

  return [h.slice(0, 8), '-', h.slice(8, 12), '-4', h.slice(13, 16), '-', variant, h.slice(17, 20), '-', h.slice(20, 32)].join('');
}

/** Lower-case hex of the requested length, a pure function of `key`. */
export function stableHex(key: string, length: number): string {
  const parts: string[] = [];

  for (let round = 0; parts.length * 2 < length; round++) {
    for (const word of hash128(`${ key }#${ round }`)) pushHex8(parts, word);
  }
  const joined = parts.join('');

  return joined.length === length ? joined : joined.slice(0, length);
}

const ALNUM = 'bcdfghjklmnpqrstvwxz2456789';

/** Kubernetes generateName-style suffix (consonants and digits), a pure function of `key`. */
export function stableSuffix(key: string, length = 5): string {
  const words = hash128(key);
  let out = '';

  for (let i = 0; i < length; i++) {
    out += ALNUM[(words[i % 4] >>> ((i * 5) % 27)) % ALNUM.length];
  }

  return out;
}

/** Stable positive integer in [min, max], a pure function of `key`. */
export function stableInt(key: string, min: number, max: number): number {
  return min + (hash128(key)[0] % (max - min + 1));
}

export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** sfc32 generator seeded from a string or number. */
export function createRng(seed: string | number): Rng {
  let [a, b, c, d] = hash128(String(seed));
  const next = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;

    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;

    return (t >>> 0) / 4294967296;
  };

  for (let i = 0; i < 12; i++) {
    next();
  }

  return {
    next,
    int:    (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick:   (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}
