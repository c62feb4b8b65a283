/**
 * Kubernetes objects through Steve (`/v1/<type>[/<namespace>[/<name>]]`, also under
 * `/k8s/clusters/<id>`) and through the Kubernetes API paths the dashboard writes to
 * (`links.view`: `/apis/<group>/<version>/namespaces/<ns>/<resource>/<name>`, `/api/v1/...`).
 */
import type { KubeObject } from '../scenarios/types';
import { toSteve } from '../scenarios/steve';
import {
  forbidden, methodNotAllowed, RequestContext, sendJson, sendRawJson
} from './http';
import {
  CacheMode, ListResult, parseListQuery, QueryError, runListQuery, runSqlListQuery
} from './query';
import { ApiError, LOCAL_SCOPE, ObjectStore, PatchType } from './store';
import type { TypeInfo } from './type-registry';
import type { MockUser, Verb } from './users';

export interface ResourceTarget {
  scope: string;
  info: TypeInfo;
  namespace?: string;
  name?: string;
}

/** The `/k8s/clusters/<id>` part of a downstream URL ('' for Rancher's own cluster). */
export function scopePrefix(scope: string): string {
  return scope === LOCAL_SCOPE ? '' : `/k8s/clusters/${ scope }`;
}

export function steveOptions(baseUrl: string, target: { scope: string, info: TypeInfo }, user: MockUser) {
  return {
    baseUrl,
    clusterId:   target.scope === LOCAL_SCOPE ? undefined : target.scope,
    permissions: {
      update: user.can('update', target.info.id),
      patch:  user.can('patch', target.info.id),
      remove: user.can('delete', target.info.id),
    },
  };
}

function check(user: MockUser, verb: Verb, t: ResourceTarget): void {
  if (!user.can(verb, t.info.id)) {
    throw forbidden(user, verb, t.info, t.name, t.namespace);
  }
}

export function patchTypeOf(contentType: string | undefined, body: unknown): PatchType {
  const ct = (contentType || '').split(';')[0].trim().toLowerCase();

  if (ct === 'application/json-patch+json') {
    return 'json';
  }
  if (ct === 'application/merge-patch+json' || ct === 'application/strategic-merge-patch+json' || ct === 'application/apply-patch+yaml') {
    return 'merge';
  }
  if (ct === 'application/json' || ct === '') {
    // Steve accepts a plain JSON body: an array is a JSON patch, an object a merge patch.
    return Array.isArray(body) ? 'json' : 'merge';
  }
  throw new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got ${ ct })`);
}

/**
 * The objects of a list the user may see: Steve answers with only those (a user allowed some secrets of a
 * namespace by name sees those), never with 403 for the list as a whole.
 */
function visibleTo(user: MockUser, t: ResourceTarget, objects: KubeObject[]): KubeObject[] {
  const visible = user.visible;

  return visible ? objects.filter((o) => visible(t.info.id, o)) : objects;
}

function listOf(store: ObjectStore, t: ResourceTarget, ctx: RequestContext, user: MockUser, mode: CacheMode) {
  try {
    const query = parseListQuery(ctx.query);
    const objects = visibleTo(user, t, store.list(t.scope, t.info.id, t.namespace));
    const result: ListResult = mode === 'sql' ? runSqlListQuery(objects, t.info.id, ctx.query) : runListQuery(objects, query, store.currentRevision());

    return { query, result };
  } catch (e) {
    if (e instanceof QueryError) {
      throw new ApiError(e.status, e.status === 422 ? 'Invalid' : 'BadRequest', e.message);
    }
    throw e;
  }
}

/** Reads and writes of one target, shared by both URL families; returns the object(s) kubectl-shaped. */
function operate(store: ObjectStore, ctx: RequestContext, user: MockUser, t: ResourceTarget, mode: CacheMode):
  { kind: 'list', items: KubeObject[], total: number, continueToken?: string, pages?: number, query: ReturnType<typeof parseListQuery> } |
  { kind: 'item', object: KubeObject, status: number } {
  const method = ctx.method;

  if (!t.name) {
    if (method === 'GET') {
      check(user, 'list', t);
      const { query, result } = listOf(store, t, ctx, user, mode);

      return {
        kind: 'list', items: result.items, total: result.total, continueToken: result.continueToken, pages: result.pages, query
      };
    }
    if (method === 'POST') {
      const body = ctx.body as KubeObject;
      const namespace = t.info.namespaced ? (t.namespace || body?.metadata?.namespace) : undefined;

      check(user, 'create', { ...t, namespace });
      if (t.namespace && body?.metadata?.namespace && body.metadata.namespace !== t.namespace) {
        throw new ApiError(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
      }

      return {
        kind: 'item', object: store.create(t.scope, t.info, { ...body, metadata: { ...(body?.metadata || {}), namespace } } as KubeObject), status: 201
      };
    }
    throw methodNotAllowed(method, ctx.path);
  }
  switch (method) {
  case 'GET': {
    check(user, 'get', t);
    const object = store.get(t.scope, t.info, t.namespace, t.name);

    if (user.visible && !user.visible(t.info.id, object)) {
      throw forbidden(user, 'get', t.info, t.name, t.namespace);
    }

    return {
      kind: 'item', object, status: 200
    };
  }
  case 'PUT':
    check(user, 'update', t);

    return {
      kind: 'item', object: store.update(t.scope, t.info, t.namespace, t.name, ctx.body as KubeObject), status: 200
    };
  case 'PATCH': {
    check(user, 'patch', t);
    const type = patchTypeOf(ctx.req.headers['content-type'], ctx.body);

    return {
      kind: 'item', object: store.patch(t.scope, t.info, t.namespace, t.name, type, ctx.body), status: 200
    };
  }
  case 'DELETE': {
    check(user, 'delete', t);
    const pre = (ctx.body as { preconditions?: { resourceVersion?: string; uid?: string } } | undefined)?.preconditions;

    return {
      kind: 'item', object: store.delete(t.scope, t.info, t.namespace, t.name, pre?.resourceVersion, pre?.uid), status: 200
    };
  }
  default:
    throw methodNotAllowed(method, ctx.path);
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Steve                                                                                            */
/* ------------------------------------------------------------------------------------------------ */

/** Splits `/v1/<type>/<a>/<b>` segments (after the type) into namespace and name by the type's scope. */
export function steveTarget(scope: string, info: TypeInfo, rest: string[]): ResourceTarget {
  if (info.namespaced) {
    if (rest.length > 2) {
      throw new ApiError(404, 'NotFound', `unknown path /${ rest.join('/') } for ${ info.id }`);
    }

    return {
      scope, info, namespace: rest[0], name: rest[1]
    };
  }
  if (rest.length > 1) {
    throw new ApiError(404, 'NotFound', `unknown path /${ rest.join('/') } for ${ info.id }`);
  }

  return {
    scope, info, name: rest[0]
  };
}

export function handleSteveResource(store: ObjectStore, ctx: RequestContext, user: MockUser, t: ResourceTarget, mode: CacheMode): void {
  // A type the user may not read at all has no schema for them: Steve does not know it (404), rather than 403.
  if (!user.can('list', t.info.id) && !user.can('get', t.info.id)) {
    throw new ApiError(404, 'NotFound', `schema ${ t.info.id } not found`);
  }
  const out = operate(store, ctx, user, t, mode);
  const options = steveOptions(ctx.baseUrl, t, user);
  const collectionUrl = `${ ctx.baseUrl }${ scopePrefix(t.scope) }/v1/${ t.info.id }s`;

  if (out.kind === 'item') {
    sendJson(ctx, out.status, toSteve(out.object, options));

    return;
  }
  const { query } = out;
  const itemOptions = {
    ...options, include: query.include, exclude: query.exclude
  };

  sendCollection(ctx, collectionEnvelope(ctx, {
    resourceType: t.info.id,
    createUrl:    user.can('create', t.info.id) ? collectionUrl : undefined,
    revision:     store.currentRevision(),
    count:        out.total,
    continue:     out.continueToken,
    pages:        out.pages,
  }), out.items.map((o) => steveJson(o, itemOptions)));
}

/**
 * Each stored object's Steve form, serialised once per way of asking (links depend on the base URL, the
 * cluster and the user's permissions; include/exclude shape the object). Steve answers lists from its
 * cache too; formatting and encoding every object again on every request made a 2,000-item list take the
 * better part of a second. The store replaces an object on every write (and bumps its resourceVersion), so
 * an entry is only ever used for the object version it was made from.
 */
const steveJsonCache = new WeakMap<KubeObject, { resourceVersion: string | undefined, byOptions: Map<string, Buffer> }>();

function steveJson(obj: KubeObject, options: ReturnType<typeof steveOptions> & { include?: string[], exclude?: string[] }): Buffer {
  const resourceVersion = obj.metadata.resourceVersion;
  let entry = steveJsonCache.get(obj);

  if (!entry || entry.resourceVersion !== resourceVersion) {
    entry = { resourceVersion, byOptions: new Map() };
    steveJsonCache.set(obj, entry);
  }
  const key = JSON.stringify([options.baseUrl, options.clusterId, options.permissions, options.include, options.exclude]);
  let json = entry.byOptions.get(key);

  if (json === undefined) {
    json = Buffer.from(JSON.stringify(toSteve(obj, options)));
    entry.byOptions.set(key, json);
  }

  return json;
}

/**
 * The collection envelope as rancher/apiserver writes it (pkg/types Collection, pkg/writer newCollection): fields
 * with Go's omitempty are left out when zero (`count` of an empty list, `pages`, `continue`, `revision`);
 * `pagination` only on a partial answer, `{first, next, partial: true}`, where `next` is this URL with the
 * continue token. In SQL-cache mode that token is the next page's offset, which the SQL cache does not read back.
 */
export function collectionEnvelope(ctx: RequestContext, c: {
  resourceType: string, createUrl?: string, revision?: string, count?: number, continue?: string, pages?: number
}): Record<string, unknown> {
  const self = `${ ctx.baseUrl }${ ctx.path }${ ctx.url.search }`;
  const body: Record<string, unknown> = {
    type:         'collection',
    links:        { self },
    createTypes:  c.createUrl ? { [c.resourceType]: c.createUrl } : {},
    actions:      {},
    resourceType: c.resourceType,
  };

  if (c.continue || ctx.query.get('continue')) {
    const pagination: Record<string, unknown> = { first: self, partial: true };

    if (c.continue) {
      const next = new URL(self);

      next.searchParams.set('continue', c.continue);
      pagination.next = next.toString();
    }
    body.pagination = pagination;
  }
  if (c.revision) {
    body.revision = c.revision;
  }
  if (c.continue) {
    body.continue = c.continue;
  }
  if (c.pages) {
    body.pages = c.pages;
  }
  if (c.count) {
    body.count = c.count;
  }

  return body;
}

const COMMA = Buffer.from(',');

/** The collection with its items already serialised, `data` last as Steve writes it. */
function sendCollection(ctx: RequestContext, envelope: Record<string, unknown>, items: Buffer[]): void {
  const head = JSON.stringify({ ...envelope, data: [] });
  const parts: Buffer[] = [Buffer.from(head.slice(0, -2))];

  items.forEach((item, i) => {
    if (i > 0) {
      parts.push(COMMA);
    }
    parts.push(item);
  });
  parts.push(Buffer.from(']}'));
  sendRawJson(ctx, 200, Buffer.concat(parts));
}

/* ------------------------------------------------------------------------------------------------ */
/* Kubernetes API paths                                                                             */
/* ------------------------------------------------------------------------------------------------ */

/**
 * `/api/v1/...` or `/apis/<group>/<version>/...` (segments after the version):
 * `[resource]`, `[resource, name]`, `[namespaces, ns, resource]`, `[namespaces, ns, resource, name]`,
 * and `[namespaces, name]` for a Namespace itself.
 */
export function kubeTarget(store: ObjectStore, scope: string, group: string, segments: string[]): ResourceTarget {
  const types = store.scope(scope)?.types;

  if (!types) {
    throw new ApiError(404, 'NotFound', `cluster "${ scope }" not found`);
  }
  let namespace: string | undefined;
  let rest = segments;

  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const info = types.fromResource(group, rest[0]);

  if (!info || rest.length > 2 || (rest.length === 2 && rest[1] === '')) {
    throw new ApiError(404, 'NotFound', `the server could not find the requested resource (${ segments.join('/') })`);
  }

  // A subresource such as /status is written like the object itself here.
  return {
    scope, info, namespace: info.namespaced ? namespace : undefined, name: rest[1]
  };
}

export function handleKubeResource(store: ObjectStore, ctx: RequestContext, user: MockUser, t: ResourceTarget): void {
  const out = operate(store, ctx, user, t, 'classic');

  if (out.kind === 'item') {
    sendJson(ctx, out.status, out.object);

    return;
  }
  const apiVersion = t.info.group ? `${ t.info.group }/${ t.info.version }` : t.info.version;

  sendJson(ctx, 200, {
    apiVersion,
    kind:     `${ t.info.kind }List`,
    metadata: { resourceVersion: store.currentRevision(), ...(out.continueToken ? { continue: out.continueToken } : {}) },
    items:    out.items,
  });
}

/* ------------------------------------------------------------------------------------------------ */
/* SelfSubjectAccessReview: may I list the whole of a type in a namespace?                          */
/* ------------------------------------------------------------------------------------------------ */

/**
 * `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews` (also under /k8s/clusters/<id>): whether the user
 * may use a verb on a whole resource in a namespace. A user allowed only some objects by name is not: Steve then
 * lists only those, which is how a client learns that a list may be partial.
 */
export function handleAccessReview(store: ObjectStore, ctx: RequestContext, user: MockUser, scope: string, segments: string[]): void {
  if (segments.join('/') !== 'selfsubjectaccessreviews') {
    throw new ApiError(404, 'NotFound', `the server could not find the requested resource (${ segments.join('/') })`);
  }
  if (ctx.method !== 'POST') {
    throw methodNotAllowed(ctx.method, ctx.path);
  }
  const body = (ctx.body ?? {}) as { spec?: { resourceAttributes?: Record<string, unknown> } };
  const attrs = body.spec?.resourceAttributes;

  if (!attrs || typeof attrs !== 'object') {
    throw new ApiError(400, 'BadRequest', 'spec.resourceAttributes is required');
  }
  const info = store.scope(scope)?.types.fromResource(typeof attrs.group === 'string' ? attrs.group : '', String(attrs.resource ?? ''));
  const verb = String(attrs.verb ?? '') as Verb;
  const allowed = !!info && user.can(verb, info.id) && !(attrs.name === undefined && user.partialTypes?.includes(info.id));

  sendJson(ctx, 201, {
    apiVersion: 'authorization.k8s.io/v1',
    kind:       'SelfSubjectAccessReview',
    metadata:   {},
    spec:       body.spec,
    status:     { allowed, ...(allowed ? {} : { reason: info ? `${ user.id } may ${ verb } only some ${ info.resource }` : 'no such resource' }) },
  });
}
