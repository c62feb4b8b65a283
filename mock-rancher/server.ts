/**
 * The embedded Rancher API: a loopback HTTP server that answers what the dashboard shell 3.0.8 asks
 * for at start and what the Node Health tab reads and writes, from scenario data.
 * See mock-rancher/README.md for users, endpoints and the /mock control API.
 */
import { createServer, IncomingMessage, Server } from 'http';
import type { AddressInfo } from 'net';
import type { Duplex } from 'stream';
import { Fault, FaultQueue, RequestFacts, validateFault } from './faults';
import {
  baseUrlOf, methodNotAllowed, parseJsonBody, readBody, refuseCrossSite, RequestContext, sendError, sendJson, sendRawJson
} from './http';
import { handleNorman } from './norman';
import type { CacheMode } from './query';
import {
  handleAccessReview, handleKubeResource, handleSteveResource, kubeTarget, ResourceTarget, scopePrefix, steveTarget
} from './resources';
import { schemaDefinition, steveSchema, VIRTUAL_STEVE_TYPES, virtualSteveSchema } from './schemas';
import { ApiError, LOCAL_SCOPE, ObjectStore } from './store';
import { SubscribeHub } from './subscribe';
import {
  ANONYMOUS, findUser, identify, LOGGED_OUT, MockUser, USER_COOKIE, USERS
} from './users';
import {
  buildWorld, KUBERNETES_VERSION, RANCHER_VERSION, World, WorldOptions
} from './world';
import type { KubeObject } from '../scenarios/types';
import { TrafficMeter } from './traffic';
import { Kubelets } from './kubelets';

export interface MockRancherOptions extends WorldOptions {
  host?: string;
  /** 0 (the default) picks a free port */
  port?: number;
  /** who is asking when a request names nobody (default admin) */
  defaultUser?: string;
  /** 'all' logs every request, 'problems' (default) only 404 and 5xx answers, 'none' nothing */
  logRequests?: 'all' | 'problems' | 'none';
  log?: (line: string) => void;
  /**
   * The live Nodes' kubelets write their status every 5 min (default true; mock-rancher/kubelets.ts). The speed and
   * byte benchmarks turn them off: their refreshes are those with nothing changed.
   */
  kubelets?: boolean;
}

export interface RequestRecord {
  seq: number;
  at: string;
  method: string;
  path: string;
  user?: string;
  status?: number;
  ms: number;
}

export interface MockRancher {
  url: string;
  port: number;
  /** how Steve answers lists: with its SQL cache (`sql`, the default) or without (`classic`) */
  cacheMode: CacheMode;
  store: ObjectStore;
  world: World;
  faults: FaultQueue;
  /** uncompressed bytes sent, for the benchmark */
  traffic: TrafficMeter;
  requests(): RequestRecord[];
  reset(): void;
  close(): Promise<void>;
}

const REQUEST_LOG_SIZE = 5000;

interface Route {
  kind: 'steve' | 'kube' | 'norman' | 'other';
  scope?: string;
  /** path segments after /v1, after the API version, or after /v3 */
  segments: string[];
  group?: string;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, 'BadRequest', `malformed percent escape in the path segment ${ JSON.stringify(segment) }`);
  }
}

/**
 * Where a path goes: `/v1/...`, `/k8s/clusters/<id>/v1/...`, `/api(s)/...` (also under /k8s), `/v3/...`.
 * A malformed percent escape is an ApiError 400.
 */
export function routeOf(path: string): Route {
  const parts = path.split('/').filter((p, i) => i > 0 || p !== '').map(decodeSegment);
  let scope = LOCAL_SCOPE;
  let rest = parts[0] === '' ? parts.slice(1) : parts;

  if (rest[0] === 'k8s' && rest[1] === 'clusters' && rest[2]) {
    scope = rest[2];
    rest = rest.slice(3);
  }
  if (rest[rest.length - 1] === '') {
    rest = rest.slice(0, -1);
  }
  if (rest[0] === 'v1') {
    return {
      kind: 'steve', scope, segments: rest.slice(1)
    };
  }
  if (rest[0] === 'api' && rest[1]) {
    return {
      kind: 'kube', scope, group: '', segments: rest.slice(2)
    };
  }
  if (rest[0] === 'apis' && rest[1] && rest[2]) {
    return {
      kind: 'kube', scope, group: rest[1], segments: rest.slice(3)
    };
  }
  if (rest[0] === 'v3' && scope === LOCAL_SCOPE) {
    return { kind: 'norman', segments: rest.slice(1) };
  }

  return { kind: 'other', segments: rest };
}

const STEVE_SPECIAL = new Set(['schemas', 'schemaDefinitions', 'counts', 'userpreferences', 'userpreference', 'uiplugins', 'subscribe']);

export async function startMockRancher(options: MockRancherOptions): Promise<MockRancher> {
  const log = options.log || ((line: string) => console.error(line)); // eslint-disable-line no-console
  const logRequests = options.logRequests || 'problems';
  const defaultUser = options.defaultUser || 'admin';
  const faults = new FaultQueue();
  const cacheMode: CacheMode = options.sqlCache === false ? 'classic' : 'sql';
  const requestLog: RequestRecord[] = [];
  const preferences = new Map<string, Record<string, string>>();
  let seq = 0;
  let store = new ObjectStore();
  let world = buildWorld(store, options);
  const startKubelets = (): Kubelets | null => {
    if (options.kubelets === false) {
      return null;
    }
    const k = new Kubelets(store, (options.now ?? new Date()).getTime());

    k.start();

    return k;
  };
  let kubelets = startKubelets();
  const traffic = new TrafficMeter();
  let hub = new SubscribeHub(store, () => defaultUser, undefined, traffic);

  world.warnings.forEach((w) => log(`[mock-rancher] ${ w }`));

  function reset(): void {
    hub.close();
    store = new ObjectStore();
    world = buildWorld(store, options);
    kubelets?.stop();
    kubelets = startKubelets();
    hub = new SubscribeHub(store, () => defaultUser, undefined, traffic);
    faults.clear();
    preferences.clear();
  }

  /** `namespaces/<ns>/pods/<pod>/log` after `/api/v1` */
  function isPodLog(segments: string[]): boolean {
    return segments.length === 5 && segments[0] === 'namespaces' && segments[2] === 'pods' && segments[4] === 'log';
  }

  /** A pod's log as the API server answers it: plain text, the last `tailLines` lines when asked. */
  function podLog(ctx: RequestContext, user: MockUser, scope: string, segments: string[]): void {
    const [, namespace, , pod] = segments;
    const info = store.scope(scope)?.types.fromResource('', 'pods');

    if (ctx.method !== 'GET' || !info) {
      throw methodNotAllowed(ctx.method, ctx.path);
    }
    if (!user.can('get', info.id)) {
      throw new ApiError(403, 'Forbidden', `pods "${ pod }" is forbidden: User "${ user.username }" cannot get resource "pods/log" in API group "" in the namespace "${ namespace }"`);
    }
    store.get(scope, info, namespace, pod);
    const lines = (store.podLog(scope, namespace, pod) ?? '').split('\n');
    const tail = Number(ctx.query.get('tailLines'));
    const text = (Number.isInteger(tail) && tail >= 0 ? lines.slice(-tail) : lines).join('\n');

    sendRawJson(ctx, 200, text, { 'content-type': 'text/plain' });
  }

  /* ---------------------------------------------------------------------------------------------- */
  /* resources Steve serves that Kubernetes does not have                                           */
  /* ---------------------------------------------------------------------------------------------- */

  function schemas(ctx: RequestContext, user: MockUser, scope: string, rest: string[]): void {
    const prefix = `${ ctx.baseUrl }${ scopePrefix(scope) }`;
    const types = store.scope(scope)?.types;

    if (!types) {
      throw new ApiError(404, 'NotFound', `cluster "${ scope }" not found`);
    }
    const all = [
      ...VIRTUAL_STEVE_TYPES.filter((v) => scope === LOCAL_SCOPE || v.id !== 'userpreference').map((v) => virtualSteveSchema(v, prefix)),
      ...types.all().map((info) => steveSchema(info, user, prefix)).filter((s): s is Record<string, unknown> => !!s),
    ];

    if (rest.length) {
      const one = all.find((s) => s.id === rest[0] || s.pluralName === rest[0]);

      if (!one) {
        throw new ApiError(404, 'NotFound', `schema ${ rest[0] } not found`);
      }
      sendJson(ctx, 200, one);

      return;
    }
    sendJson(ctx, 200, {
      type: 'collection', links: { self: `${ prefix }/v1/schemas` }, createTypes: {}, actions: {}, resourceType: 'schema', revision: store.currentRevision(), data: all
    });
  }

  function counts(ctx: RequestContext, user: MockUser, scope: string): void {
    const types = store.scope(scope)?.types;
    const out: Record<string, unknown> = {};

    for (const info of types?.all() || []) {
      if (!user.can('list', info.id)) {
        continue;
      }
      const objects = store.list(scope, info.id);
      const namespaces: Record<string, { count: number }> = {};

      for (const o of objects) {
        if (o.metadata.namespace) {
          namespaces[o.metadata.namespace] = { count: (namespaces[o.metadata.namespace]?.count || 0) + 1 };
        }
      }
      out[info.id] = { summary: { count: objects.length }, namespaces };
    }
    const count = {
      id: 'count', type: 'count', links: { self: `${ ctx.baseUrl }${ scopePrefix(scope) }/v1/counts/count` }, counts: out
    };

    sendJson(ctx, 200, {
      type: 'collection', links: { self: `${ ctx.baseUrl }${ scopePrefix(scope) }/v1/counts` }, createTypes: {}, actions: {}, resourceType: 'count', revision: store.currentRevision(), data: [count]
    });
  }

  function userPreferences(ctx: RequestContext, user: MockUser, rest: string[]): void {
    const data = preferences.get(user.id) || { locale: 'en-us', 'seen-whatsnew': `"${ RANCHER_VERSION }"` };
    const self = `${ ctx.baseUrl }/v1/userpreferences/${ user.id }`;
    const view = () => ({
      id: user.id, type: 'userpreference', links: { self, update: self }, metadata: { name: user.id }, data: preferences.get(user.id) || data
    });

    if (ctx.method === 'PUT' && rest.length) {
      const body = ctx.body as { data?: Record<string, unknown> } | undefined;
      const next: Record<string, string> = {};

      for (const [k, v] of Object.entries(body?.data || {})) {
        next[k] = typeof v === 'string' ? v : JSON.stringify(v);
      }
      preferences.set(user.id, next);
      sendJson(ctx, 200, view());

      return;
    }
    if (ctx.method !== 'GET') {
      throw methodNotAllowed(ctx.method, ctx.path);
    }
    if (rest.length) {
      sendJson(ctx, 200, view());

      return;
    }
    sendJson(ctx, 200, {
      type: 'collection', links: { self: `${ ctx.baseUrl }/v1/userpreferences` }, actions: {}, resourceType: 'userpreference', data: [view()]
    });
  }

  function steveTargetOf(route: Route): ResourceTarget | undefined {
    const [typeName, ...rest] = route.segments;

    if (!typeName || STEVE_SPECIAL.has(typeName)) {
      return undefined;
    }
    const info = store.scope(route.scope || LOCAL_SCOPE)?.types.fromSteveName(typeName);

    if (!info) {
      if (!store.scope(route.scope || LOCAL_SCOPE)) {
        throw new ApiError(404, 'NotFound', `cluster "${ route.scope }" not found`);
      }
      throw new ApiError(404, 'NotFound', `schema ${ typeName } not found`);
    }

    return steveTarget(route.scope || LOCAL_SCOPE, info, rest);
  }

  function steve(ctx: RequestContext, user: MockUser, route: Route, target: ResourceTarget | undefined): void {
    const scope = route.scope || LOCAL_SCOPE;
    const [first, ...rest] = route.segments;

    if (target) {
      handleSteveResource(store, ctx, user, target, cacheMode);

      return;
    }
    switch (first) {
    case undefined:
      sendJson(ctx, 200, { type: 'apiRoot', links: { self: `${ ctx.baseUrl }${ scopePrefix(scope) }/v1`, schemas: `${ ctx.baseUrl }${ scopePrefix(scope) }/v1/schemas` } });

      return;
    case 'schemas':
      schemas(ctx, user, scope, rest);

      return;
    case 'schemaDefinitions': {
      const info = store.scope(scope)?.types.fromSteveName(rest[0] || '');

      if (!info) {
        throw new ApiError(404, 'NotFound', `schema definition ${ rest[0] } not found`);
      }
      sendJson(ctx, 200, schemaDefinition(info));

      return;
    }
    case 'counts':
      counts(ctx, user, scope);

      return;
    case 'userpreferences':
    case 'userpreference':
      userPreferences(ctx, user, rest);

      return;
    case 'uiplugins':
      // Extensions installed into this Rancher: none (the dev server builds this one in).
      sendJson(ctx, 200, { entries: {} });

      return;
    case 'subscribe':
      throw new ApiError(400, 'BadRequest', 'the subscribe endpoint speaks websocket only');
    }
  }

  /* ---------------------------------------------------------------------------------------------- */
  /* /mock: the control API for tests and demos                                                     */
  /* ---------------------------------------------------------------------------------------------- */

  function objectAt(body: Record<string, unknown>): ResourceTarget & { name: string } {
    const scope = String(body.cluster || LOCAL_SCOPE);
    const info = store.scope(scope)?.types.fromSteveName(String(body.type || ''));

    if (!info) {
      throw new ApiError(400, 'BadRequest', `unknown type "${ body.type }" in cluster "${ scope }"`);
    }
    if (typeof body.name !== 'string' || !body.name) {
      throw new ApiError(400, 'BadRequest', '"name" is required');
    }

    return {
      scope, info, namespace: info.namespaced ? String(body.namespace || '') : undefined, name: body.name
    };
  }

  function control(ctx: RequestContext, user: MockUser | undefined, segments: string[]): void {
    if (user?.username !== 'admin') {
      throw new ApiError(403, 'Forbidden', 'the /mock control API is for the admin user');
    }
    const [what] = segments;

    switch (`${ ctx.method } ${ what || '' }`) {
    case 'GET ':
      sendJson(ctx, 200, {
        rancherVersion: RANCHER_VERSION,
        cacheMode,
        users:          USERS.map((u) => ({
          username: u.username, id: u.id, description: u.description
        })),
        clusters:       world.clusters,
        warnings:       world.warnings,
        faults:         faults.list(),
      });

      return;
    case 'POST reset':
      reset();
      sendJson(ctx, 200, { reset: true, clusters: world.clusters.length });

      return;
    case 'GET faults':
      sendJson(ctx, 200, { faults: faults.list() });

      return;
    case 'POST faults': {
      const specs = Array.isArray(ctx.body) ? ctx.body : [ctx.body];
      let added: Fault[];

      try {
        added = specs.map((s) => faults.add(validateFault(s)));
      } catch (e) {
        throw new ApiError(400, 'BadRequest', (e as Error).message);
      }
      sendJson(ctx, 201, { faults: added });

      return;
    }
    case 'DELETE faults':
      faults.clear();
      sendJson(ctx, 200, { faults: [] });

      return;
    case 'GET requests': {
      const since = Number(ctx.query.get('since') || 0);

      sendJson(ctx, 200, { requests: requestLog.filter((r) => r.seq > since), last: seq });

      return;
    }
    case 'GET objects': {
      const t = objectAt(Object.fromEntries(ctx.query.entries()));

      sendJson(ctx, 200, store.get(t.scope, t.info, t.namespace, t.name));

      return;
    }
    case 'POST objects': {
      // A write by "someone else": the concurrency hook for browser tests (admin, not through Steve).
      const body = (ctx.body || {}) as Record<string, unknown>;
      const t = objectAt(body);
      let result: KubeObject;

      if (body.delete) {
        result = store.delete(t.scope, t.info, t.namespace, t.name);
      } else if (body.jsonPatch) {
        result = store.patch(t.scope, t.info, t.namespace, t.name, 'json', body.jsonPatch);
      } else if (body.mergePatch) {
        result = store.patch(t.scope, t.info, t.namespace, t.name, 'merge', body.mergePatch);
      } else {
        result = store.touch(t.scope, t.info, t.namespace, t.name);
      }
      sendJson(ctx, 200, result);

      return;
    }
    default:
      throw new ApiError(404, 'NotFound', `unknown control endpoint ${ ctx.method } /mock/${ segments.join('/') } (GET /mock, POST /mock/reset, GET|POST|DELETE /mock/faults, GET /mock/requests, GET|POST /mock/objects)`);
    }
  }

  /* ---------------------------------------------------------------------------------------------- */
  /* the request pipeline                                                                           */
  /* ---------------------------------------------------------------------------------------------- */

  function publicEndpoint(ctx: RequestContext): boolean {
    const p = ctx.path.toLowerCase();

    if (p === '/rancherversion') {
      sendJson(ctx, 200, {
        Version: RANCHER_VERSION, GitCommit: 'mock', RancherPrime: 'false'
      });

      return true;
    }
    if (p === '/version') {
      const [major, minor] = KUBERNETES_VERSION.replace(/^v/, '').split('.');

      sendJson(ctx, 200, {
        major, minor, gitVersion: KUBERNETES_VERSION, gitCommit: 'mock', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z', goVersion: 'go1.23', compiler: 'gc', platform: 'linux/amd64'
      });

      return true;
    }
    if (p === '/v1-public/authproviders' || p === '/v3-public/authproviders') {
      const norman = p.startsWith('/v3');

      sendJson(ctx, 200, {
        type: 'collection',
        data: [{
          id: 'local', type: norman ? 'localProvider' : 'localProvider', name: 'local', links: { self: `${ ctx.baseUrl }${ ctx.path }/local` }, actions: { login: `${ ctx.baseUrl }/v3-public/localProviders/local?action=login` }
        }],
      });

      return true;
    }
    if ((p === '/v1-public/login' || p === '/v3-public/localproviders/local') && ctx.method === 'POST') {
      const body = (ctx.body || {}) as { username?: string };
      const user = findUser(body.username);

      if (!user) {
        throw new ApiError(401, 'Unauthorized', `authentication failed: no user "${ body.username || '' }" (users: ${ USERS.map((u) => u.username).join(', ') }; any password)`);
      }
      ctx.user = user;
      sendJson(ctx, 200, { type: 'token', userId: user.id }, { 'set-cookie': `${ USER_COOKIE }=${ user.username }; Path=/; SameSite=Lax` });

      return true;
    }

    return false;
  }

  function factsOf(ctx: RequestContext, user: MockUser | undefined, route: Route, target: ResourceTarget | undefined): RequestFacts {
    return {
      method:    ctx.method,
      path:      ctx.path,
      user:      user?.username,
      type:      target?.info.id || (route.kind === 'norman' ? `norman.${ (route.segments[0] || '').toLowerCase() }` : route.segments[0]),
      cluster:   route.scope,
      namespace: target?.namespace,
      name:      target?.name,
    };
  }

  async function applyFault(fault: Fault, target: ResourceTarget | undefined): Promise<void> {
    if (fault.delayMs) {
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    }
    if (fault.concurrent && target?.name) {
      if (fault.concurrent.mergePatch) {
        store.patch(target.scope, target.info, target.namespace, target.name, 'merge', fault.concurrent.mergePatch);
      } else {
        store.touch(target.scope, target.info, target.namespace, target.name);
      }
    }
    if (fault.status) {
      const reasons: Record<number, string> = {
        401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 502: 'BadGateway', 503: 'ServiceUnavailable', 504: 'Timeout'
      };

      throw new ApiError(fault.status, reasons[fault.status] || 'InternalError', fault.message || `injected fault #${ fault.id } (${ fault.status })`);
    }
  }

  async function handle(req: IncomingMessage, res: import('http').ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url || '/', 'http://mock');
    const identity = identify(req.headers, defaultUser);
    const ctx: RequestContext = {
      req,
      res,
      method:  (req.method || 'GET').toUpperCase(),
      url,
      path:    url.pathname,
      query:   url.searchParams,
      baseUrl: baseUrlOf(req),
      user:    identity.user,
      rawBody: '',
      flavour: 'steve',
      traffic,
    };
    let route: Route = { kind: 'other', segments: [] };

    try {
      route = routeOf(ctx.path);
      ctx.flavour = route.kind === 'kube' ? 'kube' : route.kind === 'norman' ? 'norman' : route.kind === 'steve' ? 'steve' : 'plain';
      const isControl = route.kind === 'other' && route.segments[0] === 'mock';

      refuseCrossSite(req, ctx.method, isControl);
      ctx.rawBody = await readBody(req);
      ctx.body = parseJsonBody(ctx.rawBody);

      if (isControl) {
        control(ctx, identity.user, route.segments.slice(1));

        return;
      }
      if (publicEndpoint(ctx)) {
        return;
      }
      if (ctx.path === '/v1/logout' || (ctx.path === '/v3/tokens' && ctx.query.get('action') === 'logout')) {
        ctx.user = undefined;
        sendJson(ctx, 200, {}, { 'set-cookie': `${ USER_COOKIE }=${ LOGGED_OUT }; Path=/; SameSite=Lax` });

        return;
      }
      const publicSettings = ctx.method === 'GET' && ((route.kind === 'steve' && route.scope === LOCAL_SCOPE && route.segments[0] === 'management.cattle.io.settings') ||
        (route.kind === 'norman' && (route.segments[0] || '').toLowerCase() === 'settings'));

      if (!identity.user && !publicSettings) {
        throw new ApiError(401, 'Unauthorized', identity.reason === 'logged-out' ? 'must authenticate' : (identity.reason === 'bad-token' ? 'invalid API token' : `unknown user "${ identity.name }"`));
      }
      // Not logged in, a settings read still answers (ctx.user stays unset: x-api-cattle-auth says false).
      const user = identity.user || ANONYMOUS;

      if (route.kind === 'kube' && route.group === 'authorization.k8s.io') {
        handleAccessReview(store, ctx, user, route.scope || LOCAL_SCOPE, route.segments);

        return;
      }
      if (route.kind === 'kube' && !route.group && isPodLog(route.segments)) {
        podLog(ctx, user, route.scope || LOCAL_SCOPE, route.segments);

        return;
      }
      const target = route.kind === 'steve' ? steveTargetOf(route) : route.kind === 'kube' ? kubeTarget(store, route.scope || LOCAL_SCOPE, route.group || '', route.segments) : undefined;
      const fault = faults.take(factsOf(ctx, user, route, target));

      if (fault) {
        await applyFault(fault, target);
      }
      switch (route.kind) {
      case 'steve':
        steve(ctx, user, route, target);
        break;
      case 'kube':
        handleKubeResource(store, ctx, user, target as ResourceTarget);
        break;
      case 'norman':
        handleNorman(store, ctx, user, route.segments);
        break;
      default:
        throw new ApiError(404, 'NotFound', `${ ctx.path } is not served by the embedded Rancher API`);
      }
    } catch (e) {
      sendError(ctx, e);
    } finally {
      const record: RequestRecord = {
        seq: ++seq, at: new Date(started).toISOString(), method: ctx.method, path: `${ ctx.path }${ url.search }`, user: ctx.user?.username || identity.user?.username, status: ctx.status, ms: Date.now() - started
      };

      requestLog.push(record);
      if (requestLog.length > REQUEST_LOG_SIZE) {
        requestLog.splice(0, requestLog.length - REQUEST_LOG_SIZE);
      }
      if (logRequests === 'all' || (logRequests === 'problems' && (record.status === 404 || (record.status || 0) >= 500))) {
        log(`[mock-rancher] ${ record.method } ${ record.path } -> ${ record.status } (${ record.user || '-' }, ${ record.ms } ms)`);
      }
    }
  }

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    let route: Route;

    try {
      route = routeOf(new URL(req.url || '/', 'http://mock').pathname);
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');

      return;
    }

    if (route.kind === 'steve' && route.segments[0] === 'subscribe') {
      hub.handleUpgrade(req, socket, head, route.scope);
    } else if (route.kind === 'norman' && route.segments[0] === 'subscribe') {
      hub.handleUpgrade(req, socket, head, undefined);
    } else {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`[mock-rancher] request failed: ${ e?.stack || e }`);
      if (!res.headersSent) {
        res.writeHead(500);
      }
      res.end();
    });
  });

  server.on('upgrade', upgrade);
  server.keepAliveTimeout = 65000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port || 0, options.host || '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://${ options.host || '127.0.0.1' }:${ port }`,
    port,
    cacheMode,
    get store() {
      return store;
    },
    get world() {
      return world;
    },
    faults,
    traffic,
    requests: () => [...requestLog],
    reset,
    close:    () => new Promise<void>((resolve) => {
      kubelets?.stop();
      hub.close();
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
