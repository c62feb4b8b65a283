/**
 * The lists the dashboard store holds (the cluster's Machines, its management Nodes: store-lists.ts), sent to the
 * session a change at a time rather than whole on every load. The page remembers the resource version it sent of
 * each object; a load sends the objects added or written since, and the names gone. The first load sends them
 * in parts of a hundred, and lets the page draw and answer the user whenever reading the versions or the parts have
 * held its main thread for SLICE_MS, so that neither the copies nor their structured clone to the worker hold the page for long (a
 * management Node is several times the size of a Machine); one Machine changed costs one copy.
 */
import { STEVE_TYPES, isPlainObject, steveIncludePaths } from '../engine';
import type { KubeObject, ObjectKind } from '../engine';
import { completeList, plainCopy } from './store-lists';
import type { StoreGetters, StoreInput, Unwrap } from './store-lists';
import type { ClusterTarget } from './types';

/** The lists sent in parts (the management cluster, one object, goes with each load as before). */
export type SyncedInput = Exclude<StoreInput, 'mgmtCluster'>;

/** One part of a list: objects added or written, names gone; `reset` starts the list anew, `held: false` drops it. */
export interface StorePart {
  input: SyncedInput;
  held: boolean;
  reset: boolean;
  upsert: KubeObject[];
  remove: string[];
}

/** Objects per part: a few milliseconds to copy and to clone. */
export const PART_SIZE = 100;

/**
 * The page's main thread is given back after this many milliseconds of parts (a long task is 50 ms, and the
 * collector often runs in the same task: at 10,000 Machines a 25 ms slice made tasks of 60 ms).
 */
export const SLICE_MS = 10;

/** Objects whose versions are read between two looks at the clock. */
export const SCAN_CHECK = 500;

interface Sent {
  /** the namespace the list is of */
  scope: string;
  /** resource version sent, by name */
  versions: Map<string, string>;
}

function inputsOf(target: ClusterTarget): [SyncedInput, string, string, ObjectKind][] {
  const out: [SyncedInput, string, string, ObjectKind][] = [];

  if (target.machineManaged) {
    out.push(['machines', STEVE_TYPES.machine, target.namespace, 'machine']);
  }
  if (target.mgmtId) {
    out.push(['mgmtNodes', STEVE_TYPES.mgmtNode, target.mgmtId, 'mgmtNode']);
  }

  return out;
}

export class StoreSync {
  private readonly sent = new Map<SyncedInput, Sent>();
  private sliceStart = 0;
  private readonly now: () => number;

  /** `now`: the clock the slices are timed on */
  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Lists the session says it does not hold: sent whole next time. */
  forget(inputs: readonly SyncedInput[]): void {
    inputs.forEach((input) => this.sent.delete(input));
  }

  /**
   * Sends the session (`post`) what changed in the target's lists the store holds, with a `pause` whenever the
   * parts have taken SLICE_MS;
   * answers the inputs the session now holds whole. A part the session could not take starts the list anew
   * next time, and it is not used this time.
   */
  async send(getters: StoreGetters, target: ClusterTarget, unwrap: Unwrap, post: (part: StorePart) => Promise<unknown>, pause: () => Promise<void>): Promise<SyncedInput[]> {
    const held: SyncedInput[] = [];

    this.sliceStart = this.now();
    for (const [input, type, scope, kind] of inputsOf(target)) {
      const list = completeList(getters, type, unwrap);

      if (!list) {
        if (this.sent.delete(input)) {
          post({
            input, held: false, reset: true, upsert: [], remove: []
          }).catch(() => undefined);
        }
        continue;
      }
      if (await this.sendList(input, list, scope, kind, unwrap, post, pause)) {
        held.push(input);
      }
    }

    return held;
  }

  private async sendList(
    input: SyncedInput, list: unknown[], scope: string, kind: ObjectKind, unwrap: Unwrap, post: (part: StorePart) => Promise<unknown>, pause: () => Promise<void>
  ): Promise<boolean> {
    const last = this.sent.get(input);
    const reset = !last || last.scope !== scope;
    const versions = reset ? new Map<string, string>() : last.versions;
    const seen = new Set<string>();
    const changed: Record<string, any>[] = [];
    // The store may change its list while the page is given back: the objects as they are listed now.
    const models = list.slice();

    for (let i = 0; i < models.length; i++) {
      // Reading 10,000 Machines' versions is a slice of its own.
      if (i % SCAN_CHECK === 0 && this.now() - this.sliceStart >= SLICE_MS) {
        await pause();
        this.sliceStart = this.now();
      }
      const raw = unwrap(models[i]);

      if (!isPlainObject(raw) || !isPlainObject(raw.metadata) || raw.metadata.namespace !== scope) {
        continue;
      }
      const name = String(raw.metadata.name ?? '');
      const version = String(raw.metadata.resourceVersion ?? '?');

      seen.add(name);
      if (versions.get(name) !== version) {
        versions.set(name, version);
        changed.push(raw);
      }
    }
    const remove = [...versions.keys()].filter((name) => !seen.has(name));

    remove.forEach((name) => versions.delete(name));
    this.sent.set(input, { scope, versions });
    if (!reset && !changed.length && !remove.length) {
      return true;
    }
    const include = steveIncludePaths(kind);
    const parts: Promise<unknown>[] = [];

    for (let from = 0; from === 0 || from < changed.length; from += PART_SIZE) {
      if (this.now() - this.sliceStart >= SLICE_MS) {
        // The page draws and answers the user between parts.
        await pause();
        this.sliceStart = this.now();
      }
      parts.push(post({
        input, held: true, reset: reset && from === 0, upsert: changed.slice(from, from + PART_SIZE).map((raw) => plainCopy(raw, include)), remove: from === 0 ? remove : []
      }));
    }
    try {
      await Promise.all(parts);

      return true;
    } catch {
      this.sent.delete(input);

      return false;
    }
  }
}

/** Keeps the parts of the store's lists where the session runs, and gives each list whole to a load. */
export class SyncedLists {
  private readonly kept = new Map<SyncedInput, { byName: Map<string, KubeObject>; list: KubeObject[] | null }>();

  apply(part: StorePart): void {
    if (!part.held) {
      this.kept.delete(part.input);

      return;
    }
    let kept = part.reset ? undefined : this.kept.get(part.input);

    if (!kept && !part.reset) {
      // A change to a list this session never had whole (a worker that stopped, the session on the page
      // taking over): the list stays unknown until it is sent whole again.
      return;
    }
    if (!kept) {
      kept = { byName: new Map(), list: null };
      this.kept.set(part.input, kept);
    }
    for (const name of part.remove) {
      kept.byName.delete(name);
    }
    for (const o of part.upsert) {
      kept.byName.set(o.metadata?.name ?? '', o);
    }
    if (part.upsert.length || part.remove.length || part.reset) {
      kept.list = null;
    }
  }

  /** The list as the parts made it: the same array until a part changes it. */
  list(input: SyncedInput): KubeObject[] | undefined {
    const kept = this.kept.get(input);

    if (!kept) {
      return undefined;
    }
    kept.list ??= [...kept.byName.values()];

    return kept.list;
  }
}
