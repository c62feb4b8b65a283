/**
 * Which of the tab's lists changed since they were last read, from Steve's watch protocol: `/v1/subscribe`
 * (Rancher's own objects) and `/k8s/clusters/<id>/v1/subscribe` (a downstream cluster's), one socket per scope,
 * one subscription per type and namespace in `resource.changes` mode, the mode the dashboard uses with Steve's
 * SQL cache: Steve then sends only `{name: 'resource.changes', resourceType, namespace}` when something of the
 * type changed, never the objects. Both of Steve's modes answer it.
 *
 * A list is watched from the revision Steve read it at (the collection's `revision`, sent as the subscription's
 * `resourceVersion`): Steve's watch then starts there, replaying whatever changed since (Kubernetes' watch from
 * that resourceVersion without the SQL cache; the cache's event log rewound to it with it), so the list counts
 * unchanged from the moment Steve confirms the subscription (`resource.start`) and the refresh after a first
 * load reads nothing again. A revision Steve no longer holds is refused (`resource.error`, then
 * `resource.stop`): the list is subscribed to again from now, and read again.
 *
 * Otherwise a list counts as changed unless its subscription is known to be running and nothing arrived for it
 * since it was read: before the socket is open, after it dropped, after `resource.stop` or `resource.error`,
 * everything is read again. An event that arrives while a list is being read marks it changed again, so the
 * next refresh reads it once more rather than keep a stale copy.
 */
import type { ListAccess } from './requests';

/** The part of a WebSocket used here (the browser's, or a test double). */
export interface SocketLike {
  readonly readyState: number;
  send(text: string): void;
  close(): void;
  onopen: ((ev: any) => void) | null;
  onmessage: ((ev: any) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
}

export type OpenSocket = (url: string) => SocketLike;

const OPEN = 1;

/** A list the tab reads, as Steve's watch names it. */
export interface WatchedList {
  /** management id of the downstream cluster, or null for Rancher's own */
  cluster: string | null;
  resourceType: string;
  namespace?: string;
}

/** The Steve type of a list request's resource: the kind in lower case (`machines` of cluster.x-k8s.io: cluster.x-k8s.io.machine). */
export function watchedListOf(access: ListAccess): WatchedList {
  const singular = access.resource.replace(/s$/, '');

  return {
    cluster: access.cluster, resourceType: access.group ? `${ access.group }.${ singular }` : singular, namespace: access.namespace
  };
}

function keyOf(list: WatchedList): string {
  return JSON.stringify([list.cluster, list.resourceType, list.namespace ?? '']);
}

function socketUrl(origin: string, cluster: string | null): string {
  const base = origin.replace(/^http/, 'ws');

  return cluster ? `${ base }/k8s/clusters/${ encodeURIComponent(cluster) }/v1/subscribe` : `${ base }/v1/subscribe`;
}

interface Scope {
  socket: SocketLike;
  open: boolean;
}

export class ChangeWatch {
  private readonly scopes = new Map<string, Scope>();
  private readonly lists = new Map<string, WatchedList>();
  /** subscriptions Steve has confirmed (resource.start) and not stopped since */
  private readonly running = new Set<string>();
  /** lists read since their last change */
  private readonly clean = new Set<string>();
  /** subscriptions Steve refused: not asked again while the socket lasts */
  private readonly refused = new Set<string>();
  /** per list, the revision its next subscription starts from (its last read's), until that subscription is sent */
  private readonly from = new Map<string, string>();
  /** subscriptions sent with a revision and not confirmed, refused or stopped since */
  private readonly fromRevision = new Set<string>();
  private closed = false;
  private readonly origin: string;
  private readonly openSocket: OpenSocket;

  constructor(origin: string, openSocket: OpenSocket) {
    this.origin = origin;
    this.openSocket = openSocket;
  }

  /**
   * Starts watching a list (once), from the revision it was just read at ('' or none: from whenever Steve starts
   * the watch); a list not watched yet counts as changed.
   */
  watch(list: WatchedList, revision?: string): void {
    const key = keyOf(list);

    if (this.closed) {
      return;
    }
    if (this.lists.has(key)) {
      // Read again before its subscription went out: it starts from the newer read.
      if (this.from.has(key) && revision) {
        this.from.set(key, revision);
      }

      return;
    }
    this.lists.set(key, list);
    if (revision) {
      this.from.set(key, revision);
    }
    const scope = this.scopeOf(list.cluster);

    if (scope?.open) {
      this.subscribe(scope, list);
    }
  }

  /** Whether the list may have changed since it was last read. */
  changed(list: WatchedList): boolean {
    const key = keyOf(list);

    return !this.running.has(key) || !this.clean.has(key);
  }

  /** The list is being read now: changes from here on count for the next read. */
  markRead(list: WatchedList): void {
    const key = keyOf(list);

    if (this.running.has(key)) {
      this.clean.add(key);
    }
  }

  close(): void {
    this.closed = true;
    for (const scope of this.scopes.values()) {
      scope.socket.onclose = null;
      scope.socket.close();
    }
    this.scopes.clear();
    this.running.clear();
    this.clean.clear();
    this.from.clear();
    this.fromRevision.clear();
  }

  private scopeOf(cluster: string | null): Scope | null {
    const id = cluster ?? '';
    const existing = this.scopes.get(id);

    if (existing) {
      return existing;
    }
    let socket: SocketLike;

    try {
      socket = this.openSocket(socketUrl(this.origin, cluster));
    } catch {
      // No socket (blocked, or no WebSocket here): every list is read every time.
      return null;
    }
    const scope: Scope = { socket, open: false };

    this.scopes.set(id, scope);
    socket.onopen = () => {
      scope.open = true;
      for (const list of this.lists.values()) {
        if ((list.cluster ?? '') === id) {
          this.subscribe(scope, list);
        }
      }
    };
    socket.onmessage = (ev) => this.onMessage(cluster, ev.data);
    socket.onerror = () => undefined;
    socket.onclose = () => {
      // Whatever happened while it was down is unknown: the scope's lists are read again, and the next
      // watch() opens a new socket.
      this.scopes.delete(id);
      for (const [key, list] of this.lists) {
        if ((list.cluster ?? '') === id) {
          this.running.delete(key);
          this.clean.delete(key);
          this.refused.delete(key);
          this.from.delete(key);
          this.fromRevision.delete(key);
          this.lists.delete(key);
        }
      }
    };

    return scope;
  }

  private subscribe(scope: Scope, list: WatchedList): void {
    if (scope.socket.readyState !== OPEN) {
      return;
    }
    const key = keyOf(list);
    const revision = this.from.get(key);

    this.from.delete(key);
    if (revision) {
      this.fromRevision.add(key);
    } else {
      this.fromRevision.delete(key);
    }
    scope.socket.send(JSON.stringify({
      resourceType: list.resourceType, ...(list.namespace ? { namespace: list.namespace } : {}), ...(revision ? { resourceVersion: revision } : {}), mode: 'resource.changes'
    }));
  }

  private onMessage(cluster: string | null, data: unknown): void {
    let msg: Record<string, any>;

    try {
      msg = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object' || typeof msg.resourceType !== 'string') {
      return;
    }
    const key = keyOf({
      cluster, resourceType: msg.resourceType, namespace: typeof msg.namespace === 'string' && msg.namespace ? msg.namespace : undefined
    });

    if (!this.lists.has(key)) {
      return;
    }
    switch (msg.name) {
    case 'resource.start':
      this.running.add(key);
      // Watched from the revision of the copy held (or an older one): whatever changed since comes as events.
      if (this.fromRevision.has(key)) {
        this.clean.add(key);
      }
      break;
    case 'resource.changes':
    case 'resource.create':
    case 'resource.change':
    case 'resource.remove':
      this.clean.delete(key);
      break;
    case 'resource.stop': {
      // Steve ends watches now and then; until it runs again, the list is read every time.
      this.running.delete(key);
      this.clean.delete(key);
      this.fromRevision.delete(key);
      const scope = this.scopes.get(cluster ?? '');
      const list = this.lists.get(key);

      if (scope?.open && list && !this.closed && !this.refused.has(key)) {
        this.subscribe(scope, list);
      }
      break;
    }
    case 'resource.error':
      // A revision Steve no longer holds: subscribed to again from now (on resource.stop). Any other refusal stands.
      if (this.fromRevision.has(key)) {
        this.fromRevision.delete(key);
      } else {
        this.refused.add(key);
      }
      this.running.delete(key);
      this.clean.delete(key);
      break;
    default:
    }
  }
}
