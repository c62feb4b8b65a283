/**
 * Reads what support staff have at hand: kubectl output (a single object, a List, multi-document YAML),
 * Steve collections saved from the browser, exported bundles, or directories of those.
 */
import {
  readFileSync, readdirSync, realpathSync, statSync, Stats
} from 'node:fs';
import { extname, join } from 'node:path';
import { loadAll } from 'js-yaml';
import {
  BUNDLE_FORMAT, classify, HostReportError, inputOfObject, isHostReport, isPlainObject, readHostReport
} from '../pkg/node-health/engine';
import type { HostReport, InputAvailability, InputName } from '../pkg/node-health/engine';
import { redactValue } from '../pkg/node-health/export/redact';
import { BundleError, isBundle, readBundle } from '../pkg/node-health/export/bundle';
import type { BundleRead } from '../pkg/node-health/export/bundle';

export { BUNDLE_FORMAT };

export class InputError extends Error {}

/** What a bundle says of itself (export/bundle.ts), as far as it says it in the expected shape. */
export interface BundleHeader {
  file: string;
  createdAt: string | null;
  cluster: string | null;
  rancherVersion: string | null;
  extensionVersion: string | null;
  obfuscated: boolean;
  redactions: Record<string, number>;
}

function bundleHeader(file: string, bundle: BundleRead): BundleHeader {
  return {
    file,
    createdAt:        bundle.createdAt,
    cluster:          bundle.cluster,
    rancherVersion:   bundle.rancherVersion,
    extensionVersion: bundle.extensionVersion,
    obfuscated:       bundle.obfuscated,
    redactions:       { ...bundle.redactions },
  };
}

export interface LoadedInput {
  objects: unknown[];
  /** Set when the input holds a bundle: the moment and availability it was made with */
  bundleNow: string | null;
  /** The header of each bundle read: who made it, when, from what, and what its redaction removed */
  bundles: BundleHeader[];
  availability: InputAvailability;
  files: number;
  /** Files inside a directory that hold other data; named files must be Kubernetes data */
  skipped: string[];
  /** What was passed over and why, one line each: links that lead nowhere, FIFOs, sockets, devices, duplicates */
  warnings: string[];
  /** Files holding one page of a longer list (a continue token): what is not in them may exist */
  partial: string[];
  /** Host reports (node-health-host/v1), redacted by the export's rules as they are read */
  hostReports: HostReport[];
}

const DATA_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/**
 * Deeper than any Kubernetes object goes (managedFields, the deepest, stay under 30): deeper input is refused
 * before anything walks it recursively.
 */
export const MAX_DEPTH = 256;
/** Values a document may expand to beyond its own size: YAML aliases can make a few bytes into billions. */
const EXPANSION_ALLOWANCE = 100_000;

interface Listing {
  files: { file: string; named: boolean }[];
  warnings: string[];
  /** Directories read, by their real path: a link back to one is not followed again */
  seen: Set<string>;
}

function reasonOf(e: any): string {
  switch (e?.code) {
  case 'ENOENT': return 'no such file or directory (or a link that leads nowhere)';
  case 'ELOOP': return 'a loop of symbolic links';
  case 'EACCES': return 'permission denied';
  default: return e?.code ?? e?.message ?? 'cannot be read';
  }
}

/**
 * Regular files only: a FIFO or a device would block the read or never end, a socket cannot be read. Each
 * directory is read once, however many links lead to it. A path named on the command line that does not
 * exist is an error; anything else that cannot be read is passed over with a warning.
 */
function listFiles(path: string, named: boolean, into: Listing): void {
  let stat;

  try {
    stat = statSync(path);
  } catch (e: any) {
    if (named && e?.code === 'ENOENT') {
      throw new InputError(`${ path }: no such file or directory`);
    }
    into.warnings.push(`skipped ${ path }: ${ reasonOf(e) }`);

    return;
  }
  if (stat.isDirectory()) {
    let real: string;
    let entries: string[];

    try {
      real = realpathSync(path);
      entries = readdirSync(path).sort();
    } catch (e: any) {
      into.warnings.push(`skipped ${ path }: ${ reasonOf(e) }`);

      return;
    }
    if (into.seen.has(real)) {
      return;
    }
    into.seen.add(real);
    for (const entry of entries) {
      const child = join(path, entry);
      let isDirectory = false;

      try {
        isDirectory = statSync(child).isDirectory();
      } catch {
        // listFiles says why
      }
      if (isDirectory || DATA_EXTENSIONS.has(extname(entry).toLowerCase())) {
        listFiles(child, false, into);
      }
    }

    return;
  }
  if (!stat.isFile()) {
    into.warnings.push(`skipped ${ path }: not a regular file (${ kindOf(stat) })`);

    return;
  }
  into.files.push({ file: path, named });
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) {
    return 'a FIFO';
  }
  if (stat.isSocket()) {
    return 'a socket';
  }

  return stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'not a file';
}

/**
 * How deep a parsed document goes and how many values it holds once its YAML aliases are expanded, walked
 * without recursion; throws as soon as either is too much, so that nothing after it (collect, the redaction,
 * JSON output) meets a value it would recurse into too deeply or copy without end.
 */
function checkShape(path: string, doc: unknown, textLength: number): void {
  const limit = textLength + EXPANSION_ALLOWANCE;
  const stack: [unknown, number][] = [[doc, 1]];
  let values = 0;

  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];

    if (++values > limit) {
      throw new InputError(`${ path }: the YAML aliases expand to more than ${ limit } values (an alias bomb?); refused`);
    }
    if (value === null || typeof value !== 'object') {
      continue;
    }
    if (depth > MAX_DEPTH) {
      throw new InputError(`${ path }: nested deeper than ${ MAX_DEPTH } levels; no Kubernetes object is, refused`);
    }
    const children = Array.isArray(value) ? value : Object.values(value);

    for (let i = 0; i < children.length; i++) {
      stack.push([children[i], depth + 1]);
    }
  }
}

function tooDeep(path: string, e: unknown): InputError | null {
  return e instanceof RangeError ? new InputError(`${ path }: nested too deeply to read (${ e.message }); refused`) : null;
}

function parseDocuments(path: string, text: string): unknown[] {
  const ext = extname(path).toLowerCase();
  const trimmed = text.trimStart();
  let docs: unknown[];

  if (trimmed === '') {
    return [];
  }
  if (ext === '.json' || (ext !== '.yaml' && ext !== '.yml' && (trimmed.startsWith('{') || trimmed.startsWith('[')))) {
    try {
      docs = [JSON.parse(text)];
    } catch (e: any) {
      throw tooDeep(path, e) ?? new InputError(`${ path }: invalid JSON (${ e?.message ?? e })`);
    }
  } else {
    try {
      docs = loadAll(text);
    } catch (e: any) {
      throw tooDeep(path, e) ?? new InputError(`${ path }: invalid YAML (${ String(e?.reason ?? e?.message ?? e) }${ e?.mark ? ` at line ${ e.mark.line + 1 }` : '' })`);
    }
  }
  docs.forEach((doc) => checkShape(path, doc, text.length));

  return docs;
}

/** A List or Steve collection that says it is one page of more: kubectl's metadata.continue, Steve's pagination. */
function partialList(doc: Record<string, any>): boolean {
  return (typeof doc.metadata?.continue === 'string' && doc.metadata.continue !== '') ||
    doc.pagination?.partial === true || (typeof doc.continue === 'string' && doc.continue !== '');
}

/** Per load, the inputs whose objects came (also) from a partial list: no finding may rest on their absence. */
const partialInputs = new WeakMap<LoadedInput, Set<InputName>>();

function markPartial(into: LoadedInput, path: string, items: unknown[]): void {
  const inputs = items.map(inputOfObject).filter((i): i is InputName => !!i);

  if (inputs.length) {
    const set = partialInputs.get(into) ?? new Set<InputName>();

    inputs.forEach((i) => set.add(i));
    partialInputs.set(into, set);
    if (!into.partial.includes(path)) {
      into.partial.push(path);
    }
  }
}

function hostReport(path: string, doc: unknown): HostReport {
  try {
    return readHostReport(redactValue(doc));
  } catch (e) {
    if (e instanceof HostReportError) {
      throw new InputError(`${ path }: host report: ${ e.message }`);
    }
    throw e;
  }
}

/** Flattens one parsed document into objects; throws for content that is not Kubernetes data. */
function collect(path: string, doc: unknown, into: LoadedInput): void {
  if (doc === null || doc === undefined) {
    return;
  }
  if (Array.isArray(doc)) {
    doc.forEach((d) => collect(path, d, into));

    return;
  }
  if (!isPlainObject(doc)) {
    throw new InputError(`${ path }: expected a Kubernetes object, a List or a Steve collection, found ${ typeof doc }`);
  }
  if (isBundle(doc)) {
    let bundle: BundleRead;

    try {
      bundle = readBundle(doc);
    } catch (e) {
      throw e instanceof BundleError ? new InputError(`${ path }: ${ e.message }`) : e;
    }
    into.bundles.push(bundleHeader(path, bundle));
    into.bundleNow = bundle.createdAt ?? into.bundleNow;
    Object.assign(into.availability, bundle.availability);
    into.objects.push(...bundle.objects);
    bundle.hostReports.forEach((r) => into.hostReports.push(hostReport(path, r)));

    return;
  }
  if (isHostReport(doc)) {
    into.hostReports.push(hostReport(path, doc));

    return;
  }
  if (typeof doc.format === 'string' && doc.format.startsWith('node-health-')) {
    throw new InputError(`${ path }: ${ doc.format } is not something to diagnose (expected objects or a ${ BUNDLE_FORMAT })`);
  }
  if (doc.type === 'collection' && Array.isArray(doc.data)) {
    doc.data.forEach((d: unknown) => collect(path, d, into));
    if (partialList(doc)) {
      markPartial(into, path, doc.data);
    }

    return;
  }
  if (typeof doc.kind === 'string' && doc.kind.endsWith('List') && Array.isArray(doc.items)) {
    doc.items.forEach((d: unknown) => collect(path, d, into));
    if (partialList(doc)) {
      markPartial(into, path, doc.items);
    }

    return;
  }
  if (isPlainObject(doc.metadata) || typeof doc.kind === 'string' || typeof doc.type === 'string') {
    into.objects.push(doc);

    return;
  }
  throw new InputError(`${ path }: expected a Kubernetes object, a List or a Steve collection (no kind, type or metadata found)`);
}

function resourceVersionOrder(a: unknown, b: unknown): number {
  const x = typeof a === 'string' ? a : '';
  const y = typeof b === 'string' ? b : '';

  if (/^\d+$/.test(x) && /^\d+$/.test(y)) {
    return x.length - y.length || (x < y ? -1 : (x > y ? 1 : 0));
  }

  return x < y ? -1 : (x > y ? 1 : 0);
}

/**
 * The same object given twice (two files of one kind, a file and a bundle) would make two records with one
 * key. Objects count as the same when kind, namespace, name and uid agree; the newest resourceVersion stays.
 */
function dedupe(objects: unknown[], warnings: string[]): unknown[] {
  const byKey = new Map<string, number>();
  const out: unknown[] = [];
  const dropped = new Map<string, number>();

  for (const obj of objects) {
    const o = isPlainObject(obj) ? obj : {};
    const meta = isPlainObject(o.metadata) ? o.metadata : {};
    const kind = classify(o) ?? `${ String(o.apiVersion ?? '') }/${ String(o.kind ?? o.type ?? '') }`;
    const name = typeof meta.name === 'string' ? meta.name : null;

    if (name === null) {
      out.push(obj);
      continue;
    }
    const key = JSON.stringify([kind, meta.namespace ?? null, name, meta.uid ?? null]);
    const at = byKey.get(key);

    if (at === undefined) {
      byKey.set(key, out.length);
      out.push(obj);
      continue;
    }
    const label = `${ kind } ${ typeof meta.namespace === 'string' ? `${ meta.namespace }/` : '' }${ name }`;

    dropped.set(label, (dropped.get(label) ?? 1) + 1);
    if (resourceVersionOrder(meta.resourceVersion, (out[at] as any)?.metadata?.resourceVersion) > 0) {
      out[at] = obj;
    }
  }
  for (const [label, times] of dropped) {
    warnings.push(`${ label } was given ${ times } times; kept the copy with the newest resourceVersion`);
  }

  return out;
}

export function loadInputs(paths: string[]): LoadedInput {
  if (paths.length === 0) {
    throw new InputError('no input: give one or more files or directories of kubectl output, or a bundle');
  }
  const into: LoadedInput = {
    objects: [], bundleNow: null, bundles: [], availability: {}, files: 0, skipped: [], warnings: [], partial: [], hostReports: []
  };
  const listing: Listing = {
    files: [], warnings: into.warnings, seen: new Set()
  };

  paths.forEach((path) => listFiles(path, true, listing));
  for (const { file, named } of listing.files) {
    let text: string;

    try {
      text = readFileSync(file, 'utf8');
    } catch (e: any) {
      throw new InputError(`${ file }: cannot be read (${ e?.code ?? e?.message ?? e })`);
    }
    // PowerShell 5.1 writes UTF-8 with a byte order mark.
    const docs = parseDocuments(file, text.replace(/^\uFEFF/, ''));
    const before = into.objects.length;
    const hostsBefore = into.hostReports.length;

    try {
      // A directory may hold notes or other JSON beside kubectl output; a file named on purpose may not.
      docs.forEach((doc) => collect(file, doc, into));
      if (into.objects.length === before && into.hostReports.length === hostsBefore && !named && docs.length > 0) {
        into.skipped.push(file);
        continue;
      }
    } catch (e) {
      if (named || !(e instanceof InputError)) {
        throw e;
      }
      into.objects.length = before;
      into.hostReports.length = hostsBefore;
      into.skipped.push(file);
      continue;
    }
    into.files++;
  }
  if (into.objects.length === 0 && into.bundleNow === null) {
    const why = into.warnings.length > 0 ? ` (${ into.warnings.join('; ') })` : '';

    throw new InputError(`${ paths.join(', ') }: no Kubernetes objects found in .json, .yaml or .yml files${ why }`);
  }
  into.objects = dedupe(into.objects, into.warnings);
  for (const input of partialInputs.get(into) ?? []) {
    // A bundle's own word on an input stands; a page of a list makes any other input possibly partial.
    if (into.availability[input] === undefined || into.availability[input] === 'ok') {
      into.availability[input] = 'partial';
    }
  }

  return into;
}
