/**
 * Reads what support staff have at hand: kubectl output (a single object, a List, multi-document YAML),
 * Steve collections saved from the browser, exported bundles, or directories of those.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { loadAll } from 'js-yaml';
import type { InputAvailability } from '../pkg/node-health/engine';

export const BUNDLE_FORMAT = 'node-health-bundle/v1';

export class InputError extends Error {}

export interface LoadedInput {
  objects: unknown[];
  /** Set when the input holds a bundle: the moment and availability it was made with */
  bundleNow: string | null;
  availability: InputAvailability;
  files: number;
  /** Files inside a directory that hold other data; named files must be Kubernetes data */
  skipped: string[];
}

const DATA_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

function listFiles(path: string): { file: string; named: boolean }[] {
  let stat;

  try {
    stat = statSync(path);
  } catch (e: any) {
    throw new InputError(`${ path }: ${ e?.code === 'ENOENT' ? 'no such file or directory' : (e?.message ?? 'cannot be read') }`);
  }
  if (stat.isDirectory()) {
    return readdirSync(path).sort().flatMap((entry) => {
      const child = join(path, entry);

      return statSync(child).isDirectory() || DATA_EXTENSIONS.has(extname(entry).toLowerCase()) ? listFiles(child).map((f) => ({ ...f, named: false })) : [];
    });
  }

  return [{ file: path, named: true }];
}

function parseDocuments(path: string, text: string): unknown[] {
  const ext = extname(path).toLowerCase();
  const trimmed = text.trimStart();

  if (ext === '.json' || (ext !== '.yaml' && ext !== '.yml' && (trimmed.startsWith('{') || trimmed.startsWith('[')))) {
    try {
      return [JSON.parse(text)];
    } catch (e: any) {
      throw new InputError(`${ path }: invalid JSON (${ e?.message ?? e })`);
    }
  }
  try {
    return loadAll(text);
  } catch (e: any) {
    throw new InputError(`${ path }: invalid YAML (${ String(e?.reason ?? e?.message ?? e) }${ e?.mark ? ` at line ${ e.mark.line + 1 }` : '' })`);
  }
}

function isObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
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
  if (!isObject(doc)) {
    throw new InputError(`${ path }: expected a Kubernetes object, a List or a Steve collection, found ${ typeof doc }`);
  }
  if (doc.format === BUNDLE_FORMAT) {
    if (!Array.isArray(doc.objects)) {
      throw new InputError(`${ path }: bundle has no "objects" list`);
    }
    into.bundleNow = typeof doc.createdAt === 'string' ? doc.createdAt : (typeof doc.now === 'string' ? doc.now : into.bundleNow);
    if (isObject(doc.availability)) {
      Object.assign(into.availability, doc.availability);
    }
    into.objects.push(...doc.objects);

    return;
  }
  if (typeof doc.format === 'string' && doc.format.startsWith('node-health-')) {
    throw new InputError(`${ path }: ${ doc.format } is not something to diagnose (expected objects or a ${ BUNDLE_FORMAT })`);
  }
  if (doc.type === 'collection' && Array.isArray(doc.data)) {
    doc.data.forEach((d: unknown) => collect(path, d, into));

    return;
  }
  if (typeof doc.kind === 'string' && doc.kind.endsWith('List') && Array.isArray(doc.items)) {
    doc.items.forEach((d: unknown) => collect(path, d, into));

    return;
  }
  if (isObject(doc.metadata) || typeof doc.kind === 'string' || typeof doc.type === 'string') {
    into.objects.push(doc);

    return;
  }
  throw new InputError(`${ path }: expected a Kubernetes object, a List or a Steve collection (no kind, type or metadata found)`);
}

export function loadInputs(paths: string[]): LoadedInput {
  if (paths.length === 0) {
    throw new InputError('no input: give one or more files or directories of kubectl output, or a bundle');
  }
  const into: LoadedInput = {
    objects: [], bundleNow: null, availability: {}, files: 0, skipped: []
  };

  for (const path of paths) {
    for (const { file, named } of listFiles(path)) {
      let text: string;

      try {
        text = readFileSync(file, 'utf8');
      } catch (e: any) {
        throw new InputError(`${ file }: cannot be read (${ e?.code ?? e?.message ?? e })`);
      }
      const docs = parseDocuments(file, text);
      const before = into.objects.length;

      try {
        // A directory may hold notes or other JSON beside kubectl output; a file named on purpose may not.
        docs.forEach((doc) => collect(file, doc, into));
        if (into.objects.length === before && !named && docs.length > 0) {
          into.skipped.push(file);
          continue;
        }
      } catch (e) {
        if (named || !(e instanceof InputError)) {
          throw e;
        }
        into.objects.length = before;
        into.skipped.push(file);
        continue;
      }
      into.files++;
    }
  }
  if (into.files === 0) {
    throw new InputError(`${ paths.join(', ') }: no Kubernetes objects found in .json, .yaml or .yml files`);
  }

  return into;
}
