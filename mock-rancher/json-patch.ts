/**
 * The two patch formats the API server accepts from the dashboard: JSON Patch (RFC 6902, what the
 * shell's `resource.patch()` sends) and JSON Merge Patch (RFC 7386; strategic merge patch is treated
 * the same way, which is what it does for the fields that have no merge key).
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** Why a patch was not applied; `kind` decides the HTTP status (malformed: 400, failed: 422). */
export class PatchError extends Error {
  constructor(message: string, readonly kind: 'malformed' | 'failed') {
    super(message);
    this.name = 'PatchError';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') {
    return [];
  }
  if (!pointer.startsWith('/')) {
    throw new PatchError(`invalid JSON pointer "${ pointer }"`, 'malformed');
  }

  return pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Deep equality as RFC 6902's `test` defines it (object member order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);

    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }

  return false;
}

function arrayIndex(token: string, length: number, forInsert: boolean, pointer: string): number {
  if (forInsert && token === '-') {
    return length;
  }
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new PatchError(`invalid array index "${ token }" in "${ pointer }"`, 'failed');
  }
  const index = Number(token);

  if (index > length || (!forInsert && index === length)) {
    throw new PatchError(`array index ${ index } out of bounds in "${ pointer }"`, 'failed');
  }

  return index;
}

/** The container that holds the pointer's last token; throws when a parent is missing. */
function parentOf(doc: unknown, tokens: string[], pointer: string): unknown {
  let current = doc;

  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(current)) {
      current = current[arrayIndex(token, current.length, false, pointer)];
    } else if (isObject(current) && Object.prototype.hasOwnProperty.call(current, token)) {
      current = current[token];
    } else {
      throw new PatchError(`path "${ pointer }" does not exist`, 'failed');
    }
  }

  return current;
}

export function getAt(doc: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);

  if (!tokens.length) {
    return doc;
  }
  const parent = parentOf(doc, tokens, pointer);
  const last = tokens[tokens.length - 1];

  if (Array.isArray(parent)) {
    return parent[arrayIndex(last, parent.length, false, pointer)];
  }
  if (isObject(parent) && Object.prototype.hasOwnProperty.call(parent, last)) {
    return parent[last];
  }
  throw new PatchError(`path "${ pointer }" does not exist`, 'failed');
}

function addAt(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);

  if (!tokens.length) {
    return value;
  }
  const parent = parentOf(doc, tokens, pointer);
  const last = tokens[tokens.length - 1];

  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(last, parent.length, true, pointer), 0, value);
  } else if (isObject(parent)) {
    parent[last] = value;
  } else {
    throw new PatchError(`path "${ pointer }" does not exist`, 'failed');
  }

  return doc;
}

function removeAt(doc: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);

  if (!tokens.length) {
    throw new PatchError('cannot remove the whole document', 'failed');
  }
  const parent = parentOf(doc, tokens, pointer);
  const last = tokens[tokens.length - 1];

  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(last, parent.length, false, pointer), 1);
  } else if (isObject(parent) && Object.prototype.hasOwnProperty.call(parent, last)) {
    delete parent[last];
  } else {
    throw new PatchError(`path "${ pointer }" does not exist`, 'failed');
  }

  return doc;
}

function validate(ops: unknown): JsonPatchOperation[] {
  if (!Array.isArray(ops)) {
    throw new PatchError('a JSON patch must be an array of operations', 'malformed');
  }

  return ops.map((op, i) => {
    if (!isObject(op) || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw new PatchError(`operation ${ i } needs "op" and "path"`, 'malformed');
    }
    if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(op.op)) {
      throw new PatchError(`operation ${ i }: unknown op "${ op.op }"`, 'malformed');
    }
    if (['add', 'replace', 'test'].includes(op.op) && !('value' in op)) {
      throw new PatchError(`operation ${ i } (${ op.op }) needs "value"`, 'malformed');
    }
    if (['move', 'copy'].includes(op.op) && typeof op.from !== 'string') {
      throw new PatchError(`operation ${ i } (${ op.op }) needs "from"`, 'malformed');
    }

    return op as unknown as JsonPatchOperation;
  });
}

/** Applies the operations in order to a copy of `doc`; all or nothing. */
export function applyJsonPatch<T>(doc: T, operations: unknown): T {
  let result: unknown = clone(doc);

  for (const op of validate(operations)) {
    switch (op.op) {
    case 'add':
      result = addAt(result, op.path, clone(op.value));
      break;
    case 'remove':
      result = removeAt(result, op.path);
      break;
    case 'replace':
      getAt(result, op.path);
      result = addAt(removeAt(result, op.path), op.path, clone(op.value));
      break;
    case 'move': {
      const from = op.from as string;

      if (op.path.startsWith(`${ from }/`)) {
        throw new PatchError(`cannot move "${ from }" into its own child "${ op.path }"`, 'failed');
      }
      const value = getAt(result, from);

      result = addAt(removeAt(result, from), op.path, value);
      break;
    }
    case 'copy':
      result = addAt(result, op.path, clone(getAt(result, op.from as string)));
      break;
    case 'test': {
      let actual: unknown;

      try {
        actual = getAt(result, op.path);
      } catch (e) {
        throw new PatchError(`testing value ${ op.path } failed: path does not exist`, 'failed');
      }
      if (!jsonEqual(actual, op.value)) {
        throw new PatchError(`testing value ${ op.path } failed: test failed`, 'failed');
      }
      break;
    }
    }
  }

  return result as T;
}

/** RFC 7386: objects merge recursively, null deletes, everything else (arrays too) replaces. */
export function applyMergePatch<T>(doc: T, patch: unknown): T {
  if (!isObject(patch)) {
    return clone(patch) as unknown as T;
  }
  const target: Record<string, unknown> = isObject(doc) ? clone(doc) as Record<string, unknown> : {};

  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
    } else {
      target[key] = applyMergePatch(target[key], value);
    }
  }

  return target as unknown as T;
}
