/**
 * Norman (`/v3`): the current user and principal, schemas, settings, clusters, and
 * `clusterregistrationtokens` in the flat shape the dashboard's Registration tab reads.
 */
import { clusterRegistrationToken, normanRegistrationToken } from '../scenarios/builders';
import type { KubeObject } from '../scenarios/types';
import { forbidden, methodNotAllowed, RequestContext, sendJson } from './http';
import { NORMAN_TYPES, normanSchema } from './schemas';
import { ApiError, LOCAL_SCOPE, ObjectStore } from './store';
import type { MockUser } from './users';

function collection(ctx: RequestContext, resourceType: string, data: unknown[], createable = false): Record<string, unknown> {
  return {
    type:         'collection',
    resourceType,
    links:        { self: `${ ctx.baseUrl }${ ctx.path }${ ctx.url.search }` },
    createTypes:  createable ? { [resourceType]: `${ ctx.baseUrl }${ ctx.path }` } : {},
    actions:      {},
    pagination:   { limit: 1000, total: data.length },
    sort:         { order: 'asc', reverse: `${ ctx.baseUrl }${ ctx.path }?order=desc` },
    filters:      {},
    data,
  };
}

export function normanUser(ctx: RequestContext, user: MockUser): Record<string, unknown> {
  return {
    id:                 user.id,
    type:               'user',
    baseType:           'user',
    username:           user.username,
    name:               user.displayName,
    description:        user.description,
    enabled:            true,
    me:                 true,
    mustChangePassword: false,
    principalIds:       [`local://${ user.id }`],
    state:              'active',
    uuid:               `mock-${ user.id }`,
    links:              { self: `${ ctx.baseUrl }/v3/users/${ user.id }` },
    actions:            {},
  };
}

export function normanPrincipal(ctx: RequestContext, user: MockUser): Record<string, unknown> {
  const id = `local://${ user.id }`;

  return {
    id,
    type:          'principal',
    baseType:      'principal',
    name:          user.displayName,
    loginName:     user.username,
    principalType: 'user',
    provider:      'local',
    me:            true,
    memberOf:      false,
    links:         { self: `${ ctx.baseUrl }/v3/principals/${ encodeURIComponent(id) }` },
    actions:       {},
  };
}

function normanSetting(ctx: RequestContext, s: KubeObject): Record<string, unknown> {
  const o = s as KubeObject & { value?: string, default?: string, customized?: boolean, source?: string };

  return {
    id:         s.metadata.name,
    type:       'setting',
    baseType:   'setting',
    name:       s.metadata.name,
    value:      o.value ?? '',
    default:    o.default ?? '',
    customized: !!o.customized,
    source:     o.source ?? '',
    links:      { self: `${ ctx.baseUrl }/v3/settings/${ s.metadata.name }` },
    actions:    {},
  };
}

function normanCluster(ctx: RequestContext, c: KubeObject): Record<string, unknown> {
  const spec = (c.spec || {}) as Record<string, unknown>;
  const status = (c.status || {}) as Record<string, unknown>;

  return {
    id:         c.metadata.name,
    type:       'cluster',
    baseType:   'cluster',
    name:       spec.displayName || c.metadata.name,
    internal:   !!spec.internal,
    state:      'active',
    driver:     status.driver,
    provider:   status.provider,
    conditions: status.conditions || [],
    links:      { self: `${ ctx.baseUrl }/v3/clusters/${ c.metadata.name }` },
    actions:    {},
  };
}

function serverUrl(store: ObjectStore): string | undefined {
  const s = store.peek(LOCAL_SCOPE, 'management.cattle.io.setting', undefined, 'server-url') as { value?: string } | undefined;

  return s?.value || undefined;
}

function tokenView(store: ObjectStore, ctx: RequestContext, user: MockUser, token: KubeObject): Record<string, unknown> {
  const flat = normanRegistrationToken(token, serverUrl(store));
  const self = `${ ctx.baseUrl }/v3/clusterRegistrationTokens/${ flat.id }`;

  flat.links = user.can('update', 'management.cattle.io.clusterregistrationtoken') ? {
    self, update: self, remove: self
  } : { self };

  return flat;
}

const TOKEN_TYPE = 'management.cattle.io.clusterregistrationtoken';

function registrationTokens(store: ObjectStore, ctx: RequestContext, user: MockUser, rest: string[]): void {
  const info = store.scope(LOCAL_SCOPE)?.types.get(TOKEN_TYPE);

  if (!info) {
    throw new ApiError(404, 'NotFound', 'clusterregistrationtokens are not served');
  }
  if (rest.length) {
    if (!user.can('get', TOKEN_TYPE)) {
      throw forbidden(user, 'get', info);
    }
    const [namespace, name] = decodeURIComponent(rest[0]).split(':');
    const token = store.peek(LOCAL_SCOPE, TOKEN_TYPE, namespace, name || '');

    if (!token) {
      throw new ApiError(404, 'NotFound', `clusterRegistrationToken "${ rest[0] }" not found`);
    }
    sendJson(ctx, 200, tokenView(store, ctx, user, token));

    return;
  }
  if (ctx.method === 'POST') {
    if (!user.can('create', TOKEN_TYPE)) {
      throw forbidden(user, 'create', info);
    }
    const clusterId = (ctx.body as { clusterId?: string } | undefined)?.clusterId;

    if (!clusterId || !store.peek(LOCAL_SCOPE, 'management.cattle.io.cluster', undefined, clusterId)) {
      throw new ApiError(422, 'InvalidBodyContent', `clusterId "${ clusterId || '' }" does not name a cluster`);
    }
    const existing = store.list(LOCAL_SCOPE, TOKEN_TYPE, clusterId)[0];
    const token = existing || store.create(LOCAL_SCOPE, info, clusterRegistrationToken({
      mgmtId: clusterId, createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), serverUrl: serverUrl(store), name: `crt-${ Date.now().toString(36) }`
    }));

    sendJson(ctx, 201, tokenView(store, ctx, user, token));

    return;
  }
  if (ctx.method !== 'GET') {
    throw methodNotAllowed(ctx.method, ctx.path);
  }
  const clusterId = ctx.query.get('clusterId') || undefined;
  // As Norman's collections do, the list holds only what the user may read: a user who may not read registration
  // tokens (read-only) gets none, and no error, since Rancher's cluster page lists them for every user.
  const readable = user.can('list', TOKEN_TYPE) ? store.list(LOCAL_SCOPE, TOKEN_TYPE, clusterId) : [];
  const tokens = readable.map((t) => tokenView(store, ctx, user, t));

  sendJson(ctx, 200, collection(ctx, 'clusterRegistrationToken', tokens, user.can('create', TOKEN_TYPE)));
}

export function handleNorman(store: ObjectStore, ctx: RequestContext, user: MockUser, segments: string[]): void {
  const [rawType, ...rest] = segments;
  const type = (rawType || '').toLowerCase();

  switch (type) {
  case '':
    sendJson(ctx, 200, { type: 'apiRoot', links: { self: `${ ctx.baseUrl }/v3`, schemas: `${ ctx.baseUrl }/v3/schemas` } });

    return;
  case 'schemas': {
    const schemas = NORMAN_TYPES.map((t) => normanSchema(t, user, ctx.baseUrl));

    if (rest.length) {
      const one = schemas.find((s) => String(s.id).toLowerCase() === rest[0].toLowerCase());

      if (!one) {
        throw new ApiError(404, 'NotFound', `schema "${ rest[0] }" not found`);
      }
      sendJson(ctx, 200, one);

      return;
    }
    sendJson(ctx, 200, collection(ctx, 'schema', schemas));

    return;
  }
  case 'users':
    if (rest.length && rest[0] !== user.id) {
      throw new ApiError(404, 'NotFound', `user "${ rest[0] }" not found`);
    }
    sendJson(ctx, 200, rest.length ? normanUser(ctx, user) : collection(ctx, 'user', [normanUser(ctx, user)]));

    return;
  case 'principals':
    sendJson(ctx, 200, rest.length ? normanPrincipal(ctx, user) : collection(ctx, 'principal', [normanPrincipal(ctx, user)]));

    return;
  case 'settings': {
    const settings = store.list(LOCAL_SCOPE, 'management.cattle.io.setting');

    if (rest.length) {
      const one = settings.find((s) => s.metadata.name === rest[0]);

      if (!one) {
        throw new ApiError(404, 'NotFound', `setting "${ rest[0] }" not found`);
      }
      sendJson(ctx, 200, normanSetting(ctx, one));

      return;
    }
    sendJson(ctx, 200, collection(ctx, 'setting', settings.map((s) => normanSetting(ctx, s))));

    return;
  }
  case 'clusters': {
    const clusters = store.list(LOCAL_SCOPE, 'management.cattle.io.cluster');

    if (rest.length) {
      const one = clusters.find((c) => c.metadata.name === rest[0]);

      if (!one) {
        throw new ApiError(404, 'NotFound', `cluster "${ rest[0] }" not found`);
      }
      sendJson(ctx, 200, normanCluster(ctx, one));

      return;
    }
    sendJson(ctx, 200, collection(ctx, 'cluster', clusters.map((c) => normanCluster(ctx, c))));

    return;
  }
  case 'clusterregistrationtokens':
    registrationTokens(store, ctx, user, rest);

    return;
  default: {
    const known = NORMAN_TYPES.find((t) => t.plural.toLowerCase() === type);

    if (known && !rest.length && ctx.method === 'GET') {
      // Types the dashboard may list but the node views never fill: an empty collection, not an error.
      sendJson(ctx, 200, collection(ctx, known.id, []));

      return;
    }
    throw new ApiError(404, 'NotFound', `/v3/${ segments.join('/') } is not served by the embedded Rancher API`);
  }
  }
}
