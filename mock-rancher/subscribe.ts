/**
 * The `/v1/subscribe` websocket (Steve's watch protocol, as shell/plugins/steve/subscribe.js speaks it):
 * the client sends `{resourceType, namespace?, id?, selector?, mode?, resourceVersion?, stop?}`; the server
 * answers `resource.start`, then `resource.create|change|remove` with the Steve object for every write,
 * `resource.stop` on request, and a `ping` now and then. `/v3/subscribe` (Norman) only pings.
 *
 * A `resourceVersion` (a list's `revision`) starts the watch there: what was written since is sent at once,
 * after `resource.start`, as Kubernetes' watch from a resourceVersion and the SQL cache's rewound event log do.
 * A revision older than the writes kept (the last HISTORY_SIZE, from the hub's start) is refused as Steve
 * refuses it: `resource.start`, `resource.error` ("resourceversion too old"), `resource.stop`.
 */
import type { IncomingMessage } from 'http';
import type { Duplex } from 'stream';
import WebSocket from 'ws';
import { toSteve } from '../scenarios/steve';
import { baseUrlOf } from './http';
import { matchesLabels, parseLabelSelector, Requirement } from './query';
import { steveOptions } from './resources';
import { ObjectStore, WatchEvent } from './store';
import { identify, MockUser } from './users';
import { RANCHER_VERSION } from './world';
import type { TrafficMeter } from './traffic';

interface Watch {
  resourceType: string;
  namespace?: string;
  id?: string;
  selector?: string;
  mode?: string;
  requirements: Requirement[];
}

/** Writes kept for watches that start from a revision. */
const HISTORY_SIZE = 10000;

interface Session {
  socket: WebSocket;
  scope: string | undefined;
  user: MockUser;
  baseUrl: string;
  watches: Map<string, Watch>;
}

function watchKey(w: Pick<Watch, 'resourceType' | 'namespace' | 'id' | 'selector' | 'mode'>): string {
  return JSON.stringify([w.resourceType, w.namespace || '', w.id || '', w.selector || '', w.mode || '']);
}

function echo(w: Pick<Watch, 'resourceType' | 'namespace' | 'id' | 'selector' | 'mode'>): Record<string, unknown> {
  const out: Record<string, unknown> = { resourceType: w.resourceType };

  for (const k of ['namespace', 'id', 'selector', 'mode'] as const) {
    if (w[k]) {
      out[k] = w[k];
    }
  }

  return out;
}

export class SubscribeHub {
  private readonly wss = new WebSocket.Server({ noServer: true });
  private readonly sessions = new Set<Session>();
  private readonly pingTimer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  /** the last writes, oldest first */
  private readonly history: WatchEvent[] = [];
  /** the oldest revision a watch may start from: the store's when the hub started, then the last write forgotten */
  private oldest: number;

  constructor(private readonly store: ObjectStore, private readonly defaultUser: () => string, pingMs = 30000, private readonly traffic?: TrafficMeter) {
    this.oldest = Number(store.currentRevision());
    this.unsubscribe = store.onEvent((e) => this.record(e));
    this.pingTimer = setInterval(() => this.ping(), pingMs);
    // Under a browser-like test environment (the tab's component tests) timers are plain numbers.
    (this.pingTimer as { unref?: () => void }).unref?.();
  }

  /** Takes over an upgrade request; answers 401 without a logged-in user, 404 for unknown clusters. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, scope: string | undefined): void {
    const identity = identify(req.headers, this.defaultUser());

    if (!identity.user) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');

      return;
    }
    if (scope && !this.store.scope(scope)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');

      return;
    }
    const user = identity.user;

    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const session: Session = {
        socket: ws, scope, user, baseUrl: baseUrlOf(req), watches: new Map()
      };

      this.sessions.add(session);
      ws.on('message', (data) => this.onMessage(session, data.toString()));
      ws.on('close', () => this.sessions.delete(session));
      ws.on('error', () => this.sessions.delete(session));
      this.send(session, { name: 'ping', data: { version: RANCHER_VERSION } });
    });
  }

  private send(session: Session, msg: unknown): void {
    if (session.socket.readyState === WebSocket.OPEN) {
      const text = JSON.stringify(msg);

      this.traffic?.record('ws', session.scope ?? 'local', Buffer.byteLength(text));
      session.socket.send(text);
    }
  }

  private onMessage(session: Session, text: string): void {
    let msg: Record<string, unknown>;

    try {
      msg = JSON.parse(text);
    } catch (e) {
      return;
    }
    if (!session.scope || typeof msg.resourceType !== 'string') {
      return;
    }
    const base = {
      resourceType: msg.resourceType,
      namespace:    typeof msg.namespace === 'string' ? msg.namespace : undefined,
      id:           typeof msg.id === 'string' ? msg.id : undefined,
      selector:     typeof msg.selector === 'string' ? msg.selector : undefined,
      mode:         typeof msg.mode === 'string' ? msg.mode : undefined,
    };
    const key = watchKey(base);

    if (msg.stop) {
      session.watches.delete(key);
      this.send(session, { name: 'resource.stop', ...echo(base) });

      return;
    }
    const info = this.store.scope(session.scope)?.types.fromSteveName(base.resourceType);

    if (!info) {
      this.send(session, {
        name: 'resource.error', ...echo(base), data: { error: `failed to find schema ${ base.resourceType }` }
      });
      this.send(session, { name: 'resource.stop', ...echo(base) });

      return;
    }
    if (!session.user.can('watch', info.id)) {
      this.send(session, {
        name: 'resource.error', ...echo(base), data: { error: `watch not allowed for ${ base.resourceType }` }
      });
      this.send(session, { name: 'resource.stop', ...echo(base) });

      return;
    }
    let requirements: Requirement[] = [];

    try {
      requirements = base.selector ? parseLabelSelector(base.selector) : [];
    } catch (e) {
      this.send(session, {
        name: 'resource.error', ...echo(base), data: { error: (e as Error).message }
      });

      return;
    }
    const from = typeof msg.resourceVersion === 'string' && msg.resourceVersion !== '' ? msg.resourceVersion : null;
    const since = from === null ? null : Number(from);

    if (since !== null && !(Number.isInteger(since) && since >= this.oldest)) {
      this.send(session, { name: 'resource.start', ...echo(base) });
      this.send(session, {
        name: 'resource.error', ...echo(base), data: { error: 'resourceversion too old' }
      });
      this.send(session, { name: 'resource.stop', ...echo(base) });

      return;
    }
    const watch: Watch = { ...base, requirements };

    session.watches.set(key, watch);
    this.send(session, { name: 'resource.start', ...echo(base) });
    if (since !== null) {
      const missed = this.history.filter((e) => Number(e.revision) > since && e.scope === session.scope && this.matches(watch, e));

      // resource.changes says only that something changed, once for the lot (Steve debounces them too).
      for (const event of watch.mode === 'resource.changes' ? missed.slice(-1) : missed) {
        this.deliver(session, watch, event);
      }
    }
  }

  private record(event: WatchEvent): void {
    this.history.push(event);
    if (this.history.length > HISTORY_SIZE) {
      this.oldest = Number((this.history.shift() as WatchEvent).revision);
    }
    this.broadcast(event);
  }

  private matches(w: Watch, event: WatchEvent): boolean {
    const id = event.object.metadata.namespace ? `${ event.object.metadata.namespace }/${ event.object.metadata.name }` : event.object.metadata.name;
    const sameType = w.resourceType === event.type.id || w.resourceType === `${ event.type.id }s`;

    return sameType && (!w.namespace || w.namespace === event.object.metadata.namespace) && (!w.id || w.id === id) &&
      matchesLabels(event.object.metadata.labels, w.requirements);
  }

  private deliver(session: Session, w: Watch, event: WatchEvent): void {
    if (w.mode === 'resource.changes') {
      this.send(session, {
        name: 'resource.changes', ...echo(w), data: { type: event.type.id, revision: event.revision }
      });

      return;
    }
    const data = toSteve(event.object, steveOptions(session.baseUrl, { scope: event.scope, info: event.type }, session.user));

    this.send(session, {
      name: `resource.${ event.action }`, resourceType: event.type.id, ...(w.namespace ? { namespace: w.namespace } : {}), revision: event.revision, data
    });
  }

  private broadcast(event: WatchEvent): void {
    for (const session of this.sessions) {
      if (session.scope !== event.scope) {
        continue;
      }
      for (const w of session.watches.values()) {
        if (this.matches(w, event)) {
          this.deliver(session, w, event);
        }
      }
    }
  }

  private ping(): void {
    this.sessions.forEach((s) => this.send(s, { name: 'ping', data: { version: RANCHER_VERSION } }));
  }

  /** Drops every socket; used when the data is reset so that clients reconnect and re-read. */
  disconnectAll(): void {
    this.sessions.forEach((s) => s.socket.terminate());
    this.sessions.clear();
  }

  close(): void {
    clearInterval(this.pingTimer);
    this.unsubscribe();
    this.disconnectAll();
    this.wss.close();
  }
}
