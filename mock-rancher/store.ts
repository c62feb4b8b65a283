/**
 * The objects behind the embedded API, one scope per Kubernetes API (Rancher's `local` cluster and
 * each downstream cluster by management id), with the API server's write rules: resourceVersion
 * on every write and optimistic concurrency, finalizers and deletionTimestamp, immutable identity.
 */
import type { KubeObject } from '../scenarios/types';
import { applyJsonPatch, applyMergePatch, PatchError } from './json-patch';
import { DOWNSTREAM_TYPES, LOCAL_TYPES, TypeInfo, TypeRegistry } from './type-registry';

export const LOCAL_SCOPE = 'local';

/** An error the API server would return; the HTTP layer renders it as a Status or a Steve error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly details?: { name?: string, group?: string, kind?: string, causes?: { message: string, field?: string }[] }
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type WatchAction = 'create' | 'change' | 'remove';

export interface WatchEvent {
  scope: string;
  type: TypeInfo;
  action: WatchAction;
  object: KubeObject;
  revision: string;
}

export type PatchType = 'json' | 'merge';

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${ namespace }/${ name }` : name;
}

function resourceLabel(info: TypeInfo): string {
  return info.group ? `${ info.resource }.${ info.group }` : info.resource;
}

export function notFound(info: TypeInfo, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${ resourceLabel(info) } "${ name }" not found`, {
    name, group: info.group, kind: info.resource
  });
}

export function conflict(info: TypeInfo, name: string): ApiError {
  return new ApiError(409, 'Conflict',
    `Operation cannot be fulfilled on ${ resourceLabel(info) } "${ name }": the object has been modified; please apply your changes to the latest version and try again`,
    {
      name, group: info.group, kind: info.resource
    });
}

export class Scope {
  readonly types: TypeRegistry;
  private readonly objects = new Map<string, Map<string, KubeObject>>();

  constructor(readonly id: string) {
    this.types = new TypeRegistry(id === LOCAL_SCOPE ? LOCAL_TYPES : DOWNSTREAM_TYPES);
  }

  bucket(typeId: string): Map<string, KubeObject> {
    let bucket = this.objects.get(typeId);

    if (!bucket) {
      bucket = new Map();
      this.objects.set(typeId, bucket);
    }

    return bucket;
  }

  count(typeId: string): number {
    return this.objects.get(typeId)?.size || 0;
  }
}

export class ObjectStore {
  private readonly scopes = new Map<string, Scope>();
  /** Objects no write may change: those of a diagnostics bundle, served read-only */
  private readonly frozen = new Set<string>();
  private revision = 1000;
  private readonly listeners = new Set<(event: WatchEvent) => void>();
  /** the clock used for deletionTimestamp; tests may replace it */
  now: () => Date = () => new Date();

  /** Pod logs by `scope/namespace/pod`: what `.../pods/<pod>/log` answers */
  private readonly logs = new Map<string, string>();

  scope(id: string): Scope | undefined {
    return this.scopes.get(id);
  }

  setPodLog(scopeId: string, namespace: string, pod: string, text: string): void {
    this.logs.set(`${ scopeId }/${ namespace }/${ pod }`, text);
  }

  podLog(scopeId: string, namespace: string, pod: string): string | undefined {
    return this.logs.get(`${ scopeId }/${ namespace }/${ pod }`);
  }

  ensureScope(id: string): Scope {
    let scope = this.scopes.get(id);

    if (!scope) {
      scope = new Scope(id);
      this.scopes.set(id, scope);
    }

    return scope;
  }

  scopeIds(): string[] {
    return [...this.scopes.keys()];
  }

  currentRevision(): string {
    return String(this.revision);
  }

  private nextRevision(): string {
    this.revision += 1;

    return String(this.revision);
  }

  onEvent(listener: (event: WatchEvent) => void): () => void {
    this.listeners.add(listener);

    return () => this.listeners.delete(listener);
  }

  private emit(scope: string, type: TypeInfo, action: WatchAction, object: KubeObject): void {
    const event = {
      scope, type, action, object: clone(object), revision: object.metadata.resourceVersion
    };

    this.listeners.forEach((listener) => listener(event));
  }

  private mustScope(scopeId: string): Scope {
    const scope = this.scopes.get(scopeId);

    if (!scope) {
      throw new ApiError(404, 'NotFound', `cluster "${ scopeId }" not found`);
    }

    return scope;
  }

  /**
   * Loads an object as it is (seed data): keeps its resourceVersion, raises the counter past it. `frozen`: no
   * update, patch or delete may change it afterwards (a bundle's object; 403).
   */
  seed(scopeId: string, obj: KubeObject, frozen = false): void {
    const scope = this.ensureScope(scopeId);
    const info = scope.types.addObject(obj);

    if (frozen) {
      this.frozen.add(`${ scopeId }|${ info.id }|${ keyOf(obj.metadata.namespace, obj.metadata.name) }`);
    }
    const copy = clone(obj);
    const rv = Number(copy.metadata.resourceVersion);

    if (Number.isFinite(rv) && rv > this.revision) {
      this.revision = rv;
    }
    if (!copy.metadata.resourceVersion) {
      copy.metadata.resourceVersion = this.nextRevision();
    }
    scope.bucket(info.id).set(keyOf(copy.metadata.namespace, copy.metadata.name), copy);
  }

  list(scopeId: string, typeId: string, namespace?: string): KubeObject[] {
    const scope = this.mustScope(scopeId);
    const out: KubeObject[] = [];

    scope.bucket(typeId).forEach((obj) => {
      if (!namespace || obj.metadata.namespace === namespace) {
        out.push(obj);
      }
    });

    return out;
  }

  /** The stored object itself (callers copy before handing it out). */
  peek(scopeId: string, typeId: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.scopes.get(scopeId)?.bucket(typeId).get(keyOf(namespace, name));
  }

  get(scopeId: string, info: TypeInfo, namespace: string | undefined, name: string): KubeObject {
    const obj = this.peek(scopeId, info.id, namespace, name);

    if (!obj) {
      throw notFound(info, name);
    }

    return clone(obj);
  }

  create(scopeId: string, info: TypeInfo, body: KubeObject): KubeObject {
    const scope = this.mustScope(scopeId);
    const name = body?.metadata?.name;

    if (!name) {
      throw new ApiError(422, 'Invalid', `${ info.kind } "" is invalid: metadata.name: Required value: name is required`);
    }
    const namespace = info.namespaced ? body.metadata.namespace : undefined;

    if (info.namespaced && !namespace) {
      throw new ApiError(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
    }
    if (scope.bucket(info.id).has(keyOf(namespace, name))) {
      throw new ApiError(409, 'AlreadyExists', `${ resourceLabel(info) } "${ name }" already exists`, {
        name, group: info.group, kind: info.resource
      });
    }
    const obj = clone(body);

    obj.apiVersion = obj.apiVersion || (info.group ? `${ info.group }/${ info.version }` : info.version);
    obj.kind = obj.kind || info.kind;
    obj.metadata = {
      ...obj.metadata,
      namespace,
      uid:               `mock-${ this.nextRevision() }-${ name }`,
      creationTimestamp: this.now().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      resourceVersion:   this.currentRevision(),
    };
    delete obj.metadata.deletionTimestamp;
    scope.bucket(info.id).set(keyOf(namespace, name), obj);
    this.emit(scopeId, info, 'create', obj);

    return clone(obj);
  }

  /**
   * PUT: replaces the object. A resourceVersion in the body must match the stored one (409 otherwise);
   * none means "whatever is there" as in Kubernetes. Identity and deletion fields are kept.
   */
  update(scopeId: string, info: TypeInfo, namespace: string | undefined, name: string, body: KubeObject): KubeObject {
    this.refuseFrozen(scopeId, info, namespace, name);
    const current = this.peek(scopeId, info.id, namespace, name);

    if (!current) {
      throw notFound(info, name);
    }
    if (!body || typeof body !== 'object' || !body.metadata || typeof body.metadata !== 'object') {
      throw new ApiError(400, 'BadRequest', 'the body of the request must be an object with metadata');
    }
    if (body.metadata.name && body.metadata.name !== name) {
      throw new ApiError(400, 'BadRequest', `the name of the object (${ body.metadata.name }) does not match the name on the URL (${ name })`);
    }
    const expected = body.metadata.resourceVersion;

    if (expected !== undefined && expected !== '' && expected !== current.metadata.resourceVersion) {
      throw conflict(info, name);
    }

    return this.write(scopeId, info, current, clone(body));
  }

  patch(scopeId: string, info: TypeInfo, namespace: string | undefined, name: string, patchType: PatchType, patch: unknown): KubeObject {
    this.refuseFrozen(scopeId, info, namespace, name);
    const current = this.peek(scopeId, info.id, namespace, name);

    if (!current) {
      throw notFound(info, name);
    }
    let next: KubeObject;

    try {
      next = patchType === 'json' ? applyJsonPatch(current, patch) : applyMergePatch(current, patch);
    } catch (e) {
      if (e instanceof PatchError) {
        if (e.kind === 'malformed') {
          throw new ApiError(400, 'BadRequest', e.message);
        }
        throw new ApiError(422, 'Invalid', e.message, {
          name, group: info.group, kind: info.resource, causes: [{ message: e.message }]
        });
      }
      throw e;
    }
    if (!next || typeof next !== 'object' || !next.metadata) {
      throw new ApiError(422, 'Invalid', 'the patch removed the object\'s metadata');
    }
    // A patch that sets a resourceVersion asks for optimistic concurrency, like a PUT.
    if (next.metadata.resourceVersion !== current.metadata.resourceVersion) {
      throw conflict(info, name);
    }

    return this.write(scopeId, info, current, next);
  }

  private write(scopeId: string, info: TypeInfo, current: KubeObject, next: KubeObject): KubeObject {
    const scope = this.mustScope(scopeId);
    const name = current.metadata.name;
    const before = new Set(current.metadata.finalizers || []);
    const after = Array.isArray(next.metadata.finalizers) ? next.metadata.finalizers : [];

    if (current.metadata.deletionTimestamp && after.some((f) => !before.has(f))) {
      throw new ApiError(422, 'Invalid',
        `${ info.kind } "${ name }" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted`,
        {
          name, group: info.group, kind: info.resource, causes: [{ field: 'metadata.finalizers', message: 'Forbidden: no new finalizers can be added if the object is being deleted' }]
        });
    }
    next.apiVersion = current.apiVersion;
    next.kind = current.kind;
    next.metadata = {
      ...next.metadata,
      name,
      namespace:         current.metadata.namespace,
      uid:               current.metadata.uid,
      creationTimestamp: current.metadata.creationTimestamp,
      deletionTimestamp: current.metadata.deletionTimestamp,
      resourceVersion:   this.nextRevision(),
    };
    if (!next.metadata.deletionTimestamp) {
      delete next.metadata.deletionTimestamp;
    }
    if (!next.metadata.namespace) {
      delete next.metadata.namespace;
    }
    if (JSON.stringify(next.spec) !== JSON.stringify(current.spec) && typeof current.metadata.generation === 'number') {
      next.metadata.generation = current.metadata.generation + 1;
    }
    const key = keyOf(current.metadata.namespace, name);

    if (next.metadata.deletionTimestamp && after.length === 0) {
      // The last finalizer is gone from an object being deleted: the API server removes it now.
      scope.bucket(info.id).delete(key);
      this.emit(scopeId, info, 'remove', next);

      return clone(next);
    }
    scope.bucket(info.id).set(key, next);
    this.emit(scopeId, info, 'change', next);

    return clone(next);
  }

  /** DELETE: with finalizers the object only gets its deletionTimestamp; without, it is gone. */
  delete(scopeId: string, info: TypeInfo, namespace: string | undefined, name: string, preconditionRv?: string, preconditionUid?: string): KubeObject {
    this.refuseFrozen(scopeId, info, namespace, name);
    const scope = this.mustScope(scopeId);
    const key = keyOf(namespace, name);
    const current = scope.bucket(info.id).get(key);

    if (!current) {
      throw notFound(info, name);
    }
    // The API server's DeleteOptions.preconditions: another object under the name, or a change, is a conflict.
    if ((preconditionRv && preconditionRv !== current.metadata.resourceVersion) || (preconditionUid && preconditionUid !== current.metadata.uid)) {
      throw conflict(info, name);
    }
    if (current.metadata.finalizers?.length) {
      if (current.metadata.deletionTimestamp) {
        return clone(current);
      }
      const next = clone(current);

      next.metadata.deletionTimestamp = this.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
      next.metadata.deletionGracePeriodSeconds = 0;
      if (next.apiVersion.startsWith('cluster.x-k8s.io/') && next.kind === 'Machine' && next.status && typeof next.status === 'object') {
        // What the CAPI machine controller does first; without a controller here, the machine then stays so.
        (next.status as Record<string, unknown>).phase = 'Deleting';
      }
      next.metadata.resourceVersion = this.nextRevision();
      scope.bucket(info.id).set(key, next);
      this.emit(scopeId, info, 'change', next);

      return clone(next);
    }
    scope.bucket(info.id).delete(key);
    const gone = clone(current);

    gone.metadata.resourceVersion = this.nextRevision();
    this.emit(scopeId, info, 'remove', gone);

    return gone;
  }

  private refuseFrozen(scopeId: string, info: TypeInfo, namespace: string | undefined, name: string): void {
    if (this.frozen.has(`${ scopeId }|${ info.id }|${ keyOf(namespace, name) }`)) {
      throw new ApiError(403, 'Forbidden', `${ resourceLabel(info) } "${ name }" is part of a diagnostics bundle, served read-only: it cannot be changed`, {
        name, group: info.group, kind: info.resource
      });
    }
  }

  /** Bumps an object's resourceVersion without changing it otherwise (a controller's status write). */
  touch(scopeId: string, info: TypeInfo, namespace: string | undefined, name: string): KubeObject {
    const current = this.peek(scopeId, info.id, namespace, name);

    if (!current) {
      throw notFound(info, name);
    }

    return this.write(scopeId, info, current, clone(current));
  }
}
