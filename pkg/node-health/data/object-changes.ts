/**
 * What changed between two loads' objects, by metadata.uid and resourceVersion: the new input with every object
 * Kubernetes says is unchanged (same uid, same resourceVersion) replaced by the earlier load's very object, so
 * that the engine carries over the records joined from it (engine/incremental.ts), and the objects changed,
 * added and removed. Null when it cannot tell: an object without a uid or a resourceVersion, or a uid twice.
 */
import { asString, metadata } from '../engine';
import type { KubeObject, ObjectChanges } from '../engine';

export interface ComparedObjects {
  objects: unknown[];
  changes: ObjectChanges;
  /** how many objects changed, were added or removed */
  count: number;
}

function identityOf(obj: unknown): { uid: string; version: string } | null {
  if (obj === null || typeof obj !== 'object') {
    return null;
  }
  const meta = metadata(obj as KubeObject);
  const uid = asString(meta.uid);
  const version = asString(meta.resourceVersion);

  return uid && version ? { uid, version } : null;
}

export function compareObjects(earlier: readonly unknown[], next: readonly unknown[]): ComparedObjects | null {
  const byUid = new Map<string, unknown>();

  for (let i = 0; i < earlier.length; i++) {
    const id = identityOf(earlier[i]);

    if (!id || byUid.has(id.uid)) {
      return null;
    }
    byUid.set(id.uid, earlier[i]);
  }
  const objects: unknown[] = new Array(next.length);
  const changed: unknown[] = [];
  const added: unknown[] = [];
  const seen = new Set<string>();

  for (let i = 0; i < next.length; i++) {
    const obj = next[i];
    const id = identityOf(obj);

    if (!id || seen.has(id.uid)) {
      return null;
    }
    seen.add(id.uid);
    const before = byUid.get(id.uid);

    if (before === undefined) {
      added.push(obj);
      objects[i] = obj;
    } else if (before === obj || identityOf(before)?.version === id.version) {
      objects[i] = before;
    } else {
      changed.push(obj);
      objects[i] = obj;
    }
  }
  const removed: string[] = [];

  if (seen.size - added.length !== byUid.size) {
    for (const uid of byUid.keys()) {
      if (!seen.has(uid)) {
        removed.push(uid);
      }
    }
  }

  return {
    objects,
    changes: {
      changed, added, removed
    },
    count: changed.length + added.length + removed.length
  };
}
