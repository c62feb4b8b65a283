/**
 * The one redaction every export goes through (the tab's downloads, the copied report, the command line's
 * bundle, and what the command line diagnoses). It works on copies: the tab keeps showing the objects it was
 * given.
 *
 * What leaves is a whitelist, not a list of what to remove: of each object the diagnosis uses, only its
 * identity and the fields the engine reads (engine/read-fields.ts), whatever else it holds. Then:
 * - a machine-plan Secret keeps only status values of the shape the agent writes (a checksum, a count, a
 *   time, the probe JSON, a plan state); plan, appliedPlan, the outputs and any other key or value go;
 * - no other Secret at all, no registration token, and no object the diagnosis does not use;
 * - every string kept (condition messages, the annotations and labels read) with credentials cut out: PEM
 *   blocks, kubeconfigs, JWTs, RKE2/K3s join tokens, token and password flags and assignments, bearer
 *   headers, user:password@ in URLs.
 */
import {
  LAST_APPLIED_ANNOTATION, PLAN_SECRET_TYPE, classify, isPlainObject, keepReadFields, splitPlanSecretData
} from '../engine';
import type { KubeObject } from '../engine';

/** What replaces a redacted value. Plain text, so every reader sees that something was there. */
export const REDACTED = '[redacted]';

export const REDACTION_KINDS = [
  'planSecretData',
  'secret',
  'registrationToken',
  'privateKey',
  'certificate',
  'kubeconfig',
  'token',
  'password',
  'urlCredentials',
  'secretField',
  'managedFields',
  'lastAppliedConfiguration',
  'unusedObject',
  'unreadField',
  'planStatusValue',
] as const;

export type RedactionKind = typeof REDACTION_KINDS[number];

/** How many values of each kind were removed or replaced. */
export type RedactionSummary = Record<RedactionKind, number>;

export type RedactionCounter = (kind: RedactionKind, times?: number) => void;

/** A value left out for its shape, and why: said in the bundle and by the command line. */
export interface LeftOutValue {
  object: string;
  field: string;
  reason: string;
}

export function emptySummary(): RedactionSummary {
  return Object.fromEntries(REDACTION_KINDS.map((k) => [k, 0])) as RedactionSummary;
}

export function summaryCounter(summary: RedactionSummary): RedactionCounter {
  return (kind, times = 1) => {
    summary[kind] += times;
  };
}

const ignore: RedactionCounter = () => undefined;

/** Norman's names for the secret kinds it serves under /v3 (cloud credentials, registry credentials, ...). */
const NORMAN_SECRET_TYPES = new Set([
  'secret', 'namespacedsecret', 'certificate', 'namespacedcertificate', 'dockercredential', 'namespaceddockercredential',
  'basicauth', 'namespacedbasicauth', 'sshauth', 'namespacedsshauth', 'cloudcredential',
]);

/** Fields of a registration token that carry the token itself (commands and the import URL embed it). */
const REGISTRATION_FIELD = /^(token|manifest-?url|insecure-?manifest-?url)$|command$/i;

// Keys are compared with separators removed and lower-cased: "client-key-data" reads as "clientkeydata".
const SECRET_KEY_WORDS = /password|passwd|passphrase|secret|token|privatekey|apikey|accesskey|credential|kubeconfig|clientkey|keydata|certificatedata|authoritydata|bearer/;
// ... except names of, and references to, such things: "cloudCredentialSecretName", "plan-secret-name".
const REFERENCE_SUFFIX = /(name|names|namespace|ref|refs|id|ids|kind|type|hash|checksum|count|ttl|file|path|generation)$/;

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSecretKey(key: string): boolean {
  const k = normaliseKey(key);

  return SECRET_KEY_WORDS.test(k) && !REFERENCE_SUFFIX.test(k);
}

interface Pattern {
  kind: RedactionKind | ((match: string, ...groups: string[]) => RedactionKind);
  re: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const PASSWORDISH = /pass(word|wd|phrase)?|pwd/i;
/** Half of a credential pair although named like a reference: aws_access_key_id */
const CREDENTIAL_ID = /accesskeyid$/;

function flagKind(name: string): RedactionKind {
  if (/kubeconfig/i.test(name)) {
    return 'kubeconfig';
  }

  return PASSWORDISH.test(name) ? 'password' : 'token';
}

/** Words that make a key=value pair a credential, in free text. */
const SECRET_WORDS = 'password|passwd|passphrase|pwd|token|secret|api[_-]?key|access[_-]?key|private[_-]?key|kubeconfig';

const KUBECONFIG_KIND = /\bkind"?\s*:\s*"?Config\b/;
const KUBECONFIG_LISTS = /\b(clusters|users|contexts)"?\s*:/;

// Order matters: whole blocks first, so that the patterns for single values do not cut a block in half.
const PATTERNS: Pattern[] = [
  {
    kind:    (m) => (/PRIVATE KEY/.test(m) ? 'privateKey' : 'certificate'),
    // Up to the matching END line, or to the end of the text when the block was cut off.
    re:      /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?(?:-----END \1-----|$)/g,
    replace: () => REDACTED,
  },
  {
    kind:    'kubeconfig',
    re:      /\b((?:client-key|client-certificate|certificate-authority)-data"?\s*:\s*"?)([A-Za-z0-9+/=]{8,})/g,
    replace: (_m, key) => `${ key }${ REDACTED }`,
  },
  {
    kind:    'urlCredentials',
    re:      /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:'"]+:[^\s/@'"]+@/gi,
    replace: (_m, scheme) => `${ scheme }${ REDACTED }@`,
  },
  {
    // Rancher's import manifest URL carries the registration token: /v3/import/<token>_c-m-xxxx.yaml
    kind:    'token',
    re:      /(\/v3\/import\/)[A-Za-z0-9]{8,}(?=[_.])/g,
    replace: (_m, prefix) => `${ prefix }${ REDACTED }`,
  },
  {
    kind:    'token',
    re:      /\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}(?:\.[A-Za-z0-9_-]*)?|\beyJ[A-Za-z0-9_+/-]{40,}=*/g,
    replace: () => REDACTED,
  },
  {
    // A key file base64-encoded whole ("-----BEGIN" in base64), and PuTTY's key files.
    kind:    'privateKey',
    re:      /\bLS0tLS1CRUdJT[A-Za-z0-9+/=]*|PuTTY-User-Key-File-[\s\S]*?(?:Private-MAC:\s*[0-9a-fA-F]+|$)/g,
    replace: () => REDACTED,
  },
  {
    // Tokens known by their prefix: GitHub, GitLab, Slack, AWS access key ids, Stripe-style secret keys.
    kind:    'token',
    re:      /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|sk_live_[A-Za-z0-9]{16,})/g,
    replace: () => REDACTED,
  },
  {
    // An HTTP Authorization header, whatever its scheme: "Authorization: token ghp_...", "authorization=Digest ...".
    kind:    'token',
    re:      /\b(Authorization"?\s*[:=]\s*"?)(?!\[redacted\])(?:[A-Za-z-]+\s+)?[^\s'",;]+/gi,
    replace: (_m, prefix) => `${ prefix }${ REDACTED }`,
  },
  {
    // RKE2/K3s join tokens: K10<ca hash>::<user>:<password>
    kind:    'token',
    re:      /\bK10[0-9a-fA-F]{8,}::[^\s:'"]+:[^\s'",;]+/g,
    replace: () => REDACTED,
  },
  {
    kind:    'token',
    // A digit or symbol in the credential keeps prose ("Basic configuration") out.
    re:      /\b(Bearer|Basic)(\s+)(?!\[redacted\])(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/-]{8,}=*/gi,
    replace: (_m, scheme, space) => `${ scheme }${ space }${ REDACTED }`,
  },
  {
    // Command-line flags: --token X, --agent-token=X, -Token X, and in JSON argument lists "--token","X".
    kind:    (_m, _pre, flag) => flagKind(flag),
    re:      /(^|[\s"'[,(])(--?(?:[A-Za-z0-9]+-)*(?:token|password|passwd|secret|api-?key|access-?key|secret-?key|private-?key))(\s*=\s*|\s+|"\s*,\s*"|'\s*,\s*')(?!\[redacted\])("[^"]*"|'[^']*'|[^\s'",\]]+)/gi,
    replace: (_m, pre, flag, sep) => `${ pre }${ flag }${ sep }${ REDACTED }`,
  },
  {
    // Quoted assignments: "apiKey": "X", password: 'a b', "kubeConfig":"apiVersion: v1\nkind: Config...".
    kind:    (_m, _q, key) => flagKind(key),
    re:      new RegExp(`(?<![\\w.-])(["']?)([\\w.-]*(?:${ SECRET_WORDS })[\\w.-]*)\\1(\\s*[=:]\\s*)(["'])(?!\\[redacted\\]["'])((?:\\\\.|(?!\\4)[^\\\\])*)(?:\\4|$)`, 'gi'),
    replace: (m, q, key, sep, q2) => (REFERENCE_SUFFIX.test(normaliseKey(key)) && !CREDENTIAL_ID.test(normaliseKey(key)) ? m : `${ q }${ key }${ q }${ sep }${ q2 }${ REDACTED }${ q2 }`),
  },
  {
    // Bare assignments: token=X, password: X, client_secret=X, ?token=X&...
    kind:    (_m, key) => flagKind(key),
    re:      new RegExp(`(?<![\\w.-])([\\w.-]*(?:${ SECRET_WORDS })[\\w.-]*)(\\s*[=:]\\s*)(?!\\[redacted\\]|["'])([^\\s'",;&}\\]]+)`, 'gi'),
    replace: (m, key, sep) => (REFERENCE_SUFFIX.test(normaliseKey(key)) && !CREDENTIAL_ID.test(normaliseKey(key)) ? m : `${ key }${ sep }${ REDACTED }`),
  },
];

/** Every pattern below needs one of these; most cluster strings (names, times, states) have none. */
const MAY_HOLD_CREDENTIALS = /-----BEGIN|LS0tLS1CRUdJT|PuTTY|kind|-data|:\/\/|\/v3\/import\/|eyJ|K10|bearer|basic|token|pass|pwd|secret|key|kubeconfig|authorization|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA|sk_live_/i;

/** A string with every credential it contains replaced by the marker; each replacement is counted. */
export function redactString(value: string, count: RedactionCounter = ignore): string {
  if (!MAY_HOLD_CREDENTIALS.test(value)) {
    return value;
  }
  // A kubeconfig, as YAML or JSON, goes as a whole.
  if (KUBECONFIG_KIND.test(value) && KUBECONFIG_LISTS.test(value)) {
    count('kubeconfig');

    return REDACTED;
  }
  let out = value;

  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    if (!p.re.test(out)) {
      continue;
    }
    p.re.lastIndex = 0;
    out = out.replace(p.re, (match: string, ...rest: any[]) => {
      const groups = rest.slice(0, -2).map((g) => (g === undefined ? '' : String(g)));
      const replaced = p.replace(match, ...groups);

      if (replaced !== match) {
        count(typeof p.kind === 'function' ? p.kind(match, ...groups) : p.kind);
      }

      return replaced;
    });
  }

  return out;
}

/** A deep copy with every string credential redacted and secret-named fields replaced by the marker. */
export function redactValue(value: unknown, count: RedactionCounter = ignore): unknown {
  return redactTree(value, count, false);
}

/** In a registration token (registration = true) the token, commands and manifest URL go too, except in metadata. */
function redactTree(value: unknown, count: RedactionCounter, registration: boolean): unknown {
  if (typeof value === 'string') {
    return redactString(value, count);
  }
  if (Array.isArray(value)) {
    return value.map((v) => redactTree(v, count, registration));
  }
  if (!isPlainObject(value)) {
    return value;
  }
  const out: Record<string, unknown> = {};
  // An environment variable or similar pair: {name: "CATTLE_TOKEN", value: "..."}.
  const pairName = typeof value.name === 'string' ? value.name : (typeof value.key === 'string' ? value.key : null);
  const secretPair = pairName !== null && isSecretKey(pairName);

  for (const key of Object.keys(value)) {
    const v = value[key];

    if (key === LAST_APPLIED_ANNOTATION) {
      count('lastAppliedConfiguration');
      continue;
    }
    if (registration && typeof v === 'string' && REGISTRATION_FIELD.test(key)) {
      if (v !== '' && v !== REDACTED) {
        count('registrationToken');
      }
      out[key] = v === '' ? v : REDACTED;
      continue;
    }
    if ((isSecretKey(key) || (secretPair && key === 'value')) && isSecretValue(v)) {
      count('secretField');
      out[key] = REDACTED;
      continue;
    }
    out[key] = redactTree(v, count, registration && key !== 'metadata');
  }

  return out;
}

function isSecretValue(v: unknown): boolean {
  if (typeof v === 'string') {
    return v !== '' && v !== REDACTED;
  }

  return (Array.isArray(v) && v.length > 0) || (isPlainObject(v) && Object.keys(v).length > 0);
}

function isSecret(obj: Record<string, any>): boolean {
  if (obj.kind === 'Secret' && (typeof obj.apiVersion !== 'string' || obj.apiVersion === 'v1')) {
    return true;
  }

  return typeof obj.type === 'string' && NORMAN_SECRET_TYPES.has(obj.type.toLowerCase());
}

function isPlanSecret(obj: Record<string, any>): boolean {
  return isSecret(obj) && (obj._type === PLAN_SECRET_TYPE || obj.type === PLAN_SECRET_TYPE);
}

/** Steve's links point at the Rancher server; only the path of self is kept (it names the downstream cluster). */
function trimSteveLinks(obj: Record<string, any>): void {
  if (isPlainObject(obj.links)) {
    const self = typeof obj.links.self === 'string' ? obj.links.self.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') : null;

    if (self) {
      obj.links = { self };
    } else {
      delete obj.links;
    }
  }
}

/** Store models serialise through toJSON; plain objects are read as they are (nothing here changes them). */
function plainSource(obj: Record<string, any>): Record<string, any> | null {
  if (typeof obj.toJSON !== 'function') {
    return obj;
  }
  try {
    const copy = JSON.parse(JSON.stringify(obj));

    return isPlainObject(copy) ? copy : null;
  } catch {
    return null;
  }
}

/** Values (not containers) in a tree, counted without recursion. */
function countValues(value: unknown): number {
  const stack: unknown[] = [value];
  let n = 0;

  while (stack.length > 0) {
    const v = stack.pop();

    if (Array.isArray(v)) {
      stack.push(...v);
    } else if (isPlainObject(v)) {
      stack.push(...Object.values(v));
    } else if (v !== undefined) {
      n++;
    }
  }

  return n;
}

/** Every string of a tree through the pattern redaction, in place (the tree is a fresh copy). */
function redactStrings(value: unknown, count: RedactionCounter): unknown {
  if (typeof value === 'string') {
    return redactString(value, count);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      value[i] = redactStrings(value[i], count);
    }
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      value[key] = redactStrings(value[key], count);
    }
  }

  return value;
}

function describeSource(obj: Record<string, any>): string {
  const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
  const kind = typeof obj.kind === 'string' ? obj.kind : (typeof obj.type === 'string' ? obj.type : 'object');

  return `${ kind } ${ typeof meta.namespace === 'string' ? `${ meta.namespace }/` : '' }${ typeof meta.name === 'string' ? meta.name : '?' }`;
}

/**
 * One object, whitelisted and redacted; null when the object is left out entirely (any Secret but a
 * machine-plan one, a registration token, anything the diagnosis does not use). The result shares nothing
 * with the input. Plan-secret status values left out for their shape are added to leftOut.
 */
export function redactObject(input: unknown, count: RedactionCounter = ignore, leftOut: LeftOutValue[] = []): KubeObject | null {
  if (!isPlainObject(input)) {
    count('unusedObject');

    return null;
  }
  if (isSecret(input) && !isPlanSecret(input)) {
    count('secret');

    return null;
  }
  const kind = classify(input);
  const source = kind && kind !== 'registrationToken' ? plainSource(input) : null;

  if (!kind || !source) {
    count(kind === 'registrationToken' ? 'registrationToken' : 'unusedObject');

    return null;
  }
  const meta = isPlainObject(source.metadata) ? source.metadata : {};

  if (meta.managedFields !== undefined) {
    count('managedFields');
  }
  if (isPlainObject(meta.annotations) && meta.annotations[LAST_APPLIED_ANNOTATION] !== undefined) {
    count('lastAppliedConfiguration');
  }
  const kept = keepReadFields(source, kind);
  let data: Record<string, unknown> | null = null;

  if (kind === 'planSecret') {
    const split = splitPlanSecretData(source.data);

    count('planSecretData', split.dropped.length + (isPlainObject(source.stringData) ? Object.keys(source.stringData).length : 0));
    for (const bad of split.malformed) {
      count('planStatusValue');
      leftOut.push({
        object: describeSource(source), field: `data.${ bad.key }`, reason: bad.reason
      });
    }
    data = isPlainObject(source.data) ? split.kept : null;
    delete kept.data;
  }
  const unread = countValues(source) - countValues(kept) - (kind === 'planSecret' ? countValues(source.data) + countValues(source.stringData) : 0);

  count('unreadField', Math.max(0, unread));
  trimSteveLinks(kept);
  const out = redactStrings(kept, count) as KubeObject;

  if (data) {
    // Status values of the agent's shapes, base64 as the secret holds them: kept byte for byte.
    out.data = data;
  }

  return out;
}

export interface RedactedObjects {
  objects: KubeObject[];
  summary: RedactionSummary;
  leftOut: LeftOutValue[];
  /** each object given, and its redacted copy (null: left out entirely) */
  copies: Map<unknown, KubeObject | null>;
}

/** Redacts a set of objects (each once). The input objects are never changed. */
export function redactObjects(objects: unknown[]): RedactedObjects {
  const summary = emptySummary();
  const count = summaryCounter(summary);
  const leftOut: LeftOutValue[] = [];
  const out: KubeObject[] = [];
  const copies = new Map<unknown, KubeObject | null>();

  for (const obj of objects) {
    if (copies.has(obj)) {
      continue;
    }
    const redacted = redactObject(obj, count, leftOut);

    copies.set(obj, redacted);
    if (redacted) {
      out.push(redacted);
    }
  }

  return {
    objects: out, summary, leftOut, copies
  };
}
