/**
 * The Steve envelope (`/v1/...` responses) around kubectl-shaped objects: id, type, links,
 * metadata.state as rancher/wrangler's summary computes it (pkg/summary, the classic summarizers
 * Rancher 2.9-2.13 run for CAPI v1beta1 machines), normalised conditions, `_type` on secrets.
 */

import { KubeObject } from './types';
import { parseTime } from './time';

export interface SteveState {
  name: string;
  error: boolean;
  transitioning: boolean;
  message: string;
}

export interface SteveResource extends KubeObject {
  id: string;
  type: string;
  links: Record<string, string>;
}

export interface SteveOptions {
  /** scheme://host of the Rancher server; links are absolute as Steve writes them */
  baseUrl?: string;
  /** management cluster id for objects served by a downstream cluster (/k8s/clusters/<id>/v1/...) */
  clusterId?: string;
  /** what the caller may do; a missing permission drops the link, as Steve does */
  permissions?: { update?: boolean; remove?: boolean; patch?: boolean };
  /** Steve's ?include= (keep only these dot paths, plus the envelope) */
  include?: string[];
  /** Steve's ?exclude= (drop these dot paths) */
  exclude?: string[];
  /** reference time for the age column in metadata.fields (default: the object's own creation) */
  now?: string;
}

export const DEFAULT_STEVE_BASE_URL = 'https://rancher.example.com';

function groupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');

  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** Steve schema id: `<group>.<kind lower-case>`, or just the kind for the core group. */
export function steveType(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): string {
  const { group } = groupVersion(obj.apiVersion);
  const kind = obj.kind.toLowerCase();

  return group ? `${ group }.${ kind }` : kind;
}

/** Kubernetes resource (plural) name; every kind used here pluralises with a plain "s". */
export function resourceName(kind: string): string {
  return `${ kind.toLowerCase() }s`;
}

export function steveId(obj: KubeObject): string {
  return obj.metadata.namespace ? `${ obj.metadata.namespace }/${ obj.metadata.name }` : obj.metadata.name;
}

/* ------------------------------------------------------------------------------------------------ */
/* wrangler summary (classic summarizers)                                                            */
/* ------------------------------------------------------------------------------------------------ */

const REASON = '%REASON%';

// True == ok, False == error, Unknown == transitioning
const TRANSITIONING_UNKNOWN: Record<string, string> = {
  Active:                      'activating',
  AddonDeploy:                 'provisioning',
  AgentDeployed:               'provisioning',
  BackingNamespaceCreated:     'configuring',
  Built:                       'building',
  CertsGenerated:              'provisioning',
  ConfigOK:                    'configuring',
  Created:                     'creating',
  CreatorMadeOwner:            'configuring',
  DefaultNamespaceAssigned:    'configuring',
  DefaultNetworkPolicyCreated: 'configuring',
  DefaultProjectCreated:       'configuring',
  DockerProvisioned:           'provisioning',
  Deployed:                    'deploying',
  Drained:                     'draining',
  Downloaded:                  'downloading',
  etcd:                        'provisioning',
  Inactive:                    'deactivating',
  Initialized:                 'initializing',
  Installed:                   'installing',
  NodesCreated:                'provisioning',
  Pending:                     'pending',
  PodScheduled:                'scheduling',
  Provisioned:                 'provisioning',
  Reconciled:                  'reconciling',
  Refreshed:                   'refreshed',
  Registered:                  'registering',
  Removed:                     'removing',
  Saved:                       'saving',
  Updated:                     'updating',
  Updating:                    'updating',
  Upgraded:                    'upgrading',
  Waiting:                     'waiting',
  InitialRolesPopulated:       'activating',
  ScalingActive:               'pending',
  AbleToScale:                 'pending',
  RunCompleted:                'running',
  Processed:                   'processed',
};

// True == ok, False == transitioning, Unknown == error
const TRANSITIONING_FALSE: Record<string, string> = {
  Completed:           'activating',
  Ready:               'unavailable',
  Available:           'updating',
  BootstrapReady:      REASON,
  InfrastructureReady: REASON,
  NodeHealthy:         REASON,
};

// True == transitioning
const TRANSITIONING_TRUE: Record<string, string> = { Reconciling: 'reconciling' };

const NODE_ERROR_CONDITIONS: Record<string, string[]> = {
  MemoryPressure: ['True'], DiskPressure: ['True'], NetworkUnavailable: ['True'],
};
const FALLBACK_ERROR_CONDITIONS: Record<string, string[]> = {
  OutOfDisk:          ['True'],
  MemoryPressure:     ['True'],
  DiskPressure:       ['True'],
  NetworkUnavailable: ['True'],
  Unschedulable:      ['True'],
  ReplicaFailure:     ['True'],
  Stalled:            ['True'],
  Failed:             ['True'],
};

interface Cond {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

interface Summary {
  state: string;
  error: boolean;
  transitioning: boolean;
  message: string[];
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** wrangler reads the deprecated v1beta1 conditions of a CAPI v1beta2 object when they exist. */
export function summaryConditions(obj: KubeObject): Cond[] {
  const status = record(obj.status);
  const deprecatedConditions = record(record(status?.deprecated)?.v1beta1)?.conditions;

  if (Array.isArray(deprecatedConditions) && deprecatedConditions.length) {
    return deprecatedConditions as Cond[];
  }

  return Array.isArray(status?.conditions) ? (status?.conditions as Cond[]) : [];
}

function checkErrors(obj: KubeObject, conditions: Cond[], s: Summary): Summary {
  const mapping = obj.apiVersion === 'v1' && obj.kind === 'Node' ? NODE_ERROR_CONDITIONS : FALLBACK_ERROR_CONDITIONS;

  for (const c of conditions) {
    const statuses = mapping[c.type];

    if (statuses && statuses.includes(c.status)) {
      s.error = true;
      s.message.push(c.message ?? '');
      if (s.state === 'active' || s.state === '') s.state = 'error';
    }
  }

  return s;
}

function checkTransitioning(conditions: Cond[], s: Summary): Summary {
  for (const c of conditions) {
    const newState = TRANSITIONING_UNKNOWN[c.type];

    if (newState === undefined) continue;
    if (c.status === 'False') {
      s.error = true;
      s.state = newState;
      s.message.push(c.message ?? '');
    } else if (c.status === 'Unknown' && s.state === '') {
      s.transitioning = true;
      s.state = newState;
      s.message.push(c.message ?? '');
    }
  }
  for (const c of conditions) {
    if (s.state !== '') break;
    const newState = TRANSITIONING_TRUE[c.type];

    if (newState !== undefined && c.status === 'True') {
      s.transitioning = true;
      s.state = newState;
      s.message.push(c.message ?? '');
    }
  }
  let ready = true;
  let readyMessage = '';

  for (const c of conditions) {
    if (s.state !== '') break;
    if (c.type === 'Ready' && c.status === 'False') {
      ready = false;
      readyMessage = c.message ?? '';
      continue;
    }
    let newState = TRANSITIONING_FALSE[c.type];

    if (newState === undefined) continue;
    if (newState === REASON) newState = c.reason ?? '';
    if (c.status === 'False') {
      s.transitioning = true;
      s.state = newState;
      s.message.push(c.message ?? '');
    } else if (c.status === 'Unknown') {
      s.error = true;
      s.state = newState;
      s.message.push(c.message ?? '');
    }
  }
  if (s.state === '' && !ready) {
    s.transitioning = true;
    s.state = 'unavailable';
    s.message.push(readyMessage);
  }

  return s;
}

const ALWAYS_READY_KINDS = new Set(['Secret', 'ConfigMap', 'ServiceAccount', 'Namespace']);

/** What kstatus (sigs.k8s.io/cli-utils) reports for the types used here. */
function checkStandard(obj: KubeObject, conditions: Cond[], s: Summary): Summary {
  if (s.state !== '') return s;
  if (obj.metadata.deletionTimestamp) {
    s.state = 'removing';
    s.transitioning = true;
    s.message.push('Resource scheduled for deletion');

    return s;
  }
  if (conditions.some((c) => c.type === 'Stalled' && c.status === 'True')) {
    s.state = 'failed';
    s.error = true;
    s.message.push(conditions.find((c) => c.type === 'Stalled')?.message ?? '');

    return s;
  }
  if (conditions.some((c) => c.type === 'Reconciling' && c.status === 'True')) {
    s.state = 'in-progress';
    s.transitioning = true;
    s.message.push(conditions.find((c) => c.type === 'Reconciling')?.message ?? '');

    return s;
  }
  s.state = 'active';
  if (obj.apiVersion === 'v1' && ALWAYS_READY_KINDS.has(obj.kind)) {
    s.message.push('Resource is always ready');
  } else if (conditions.some((c) => c.type === 'Ready' && c.status === 'True')) {
    s.message.push('Resource is Ready');
  } else {
    s.message.push('Resource is current');
  }

  return s;
}

/** metadata.state for an object, as Steve computes it. */
export function summarize(obj: KubeObject): SteveState {
  const conditions = summaryConditions(obj);
  let s: Summary = {
    state: '', error: false, transitioning: false, message: []
  };

  s = checkErrors(obj, conditions, s);
  s = checkTransitioning(conditions, s);
  const active = record(obj.spec)?.active;

  if (s.state === '' && (active === true || active === 'true')) s.state = 'active';
  if (s.state === '' && (active === false || active === 'false')) s.state = 'inactive';
  const phase = record(obj.status)?.phase;

  if (typeof phase === 'string') {
    if (phase === 'Succeeded') {
      s.state = 'succeeded';
      s.transitioning = false;
    } else if (phase === 'Bound') {
      s.state = 'bound';
      s.transitioning = false;
    } else if (phase !== '' && s.state === '') {
      s.state = phase;
    }
  }
  s = checkStandard(obj, conditions, s);
  if (s.state === '') s.state = 'active';

  const seen = new Set<string>();
  const messages: string[] = [];

  for (const m of s.message) {
    const t = m.trim();

    if (t && !seen.has(t)) {
      seen.add(t);
      messages.push(t);
    }
  }

  return {
    name: s.state.toLowerCase(), error: s.error, transitioning: s.transitioning, message: messages.join(':')
  };
}

/** Adds error/transitioning/lastUpdateTime to each status.conditions entry (wrangler NormalizeConditions). */
function normalizeConditions(obj: KubeObject): void {
  const status = record(obj.status);

  if (!status || !Array.isArray(status.conditions)) return;
  const cattle = obj.apiVersion.includes('cattle.io/');

  status.conditions = (status.conditions as Record<string, unknown>[]).map((raw) => {
    const c = raw as unknown as Cond & Record<string, unknown>;
    let s: Summary = {
      state: '', error: false, transitioning: false, message: []
    };

    s = checkErrors(obj, [c], s);
    s = checkTransitioning([c], s);
    if (cattle && c.type === 'Ready' && c.status === 'False' && c.message) s.error = true;
    const out: Record<string, unknown> = {
      ...raw, error: s.error, transitioning: s.transitioning
    };

    if (!out.lastUpdateTime) out.lastUpdateTime = raw.lastTransitionTime ?? '';

    return out;
  });
}

/* ------------------------------------------------------------------------------------------------ */
/* fields (table columns), links, include / exclude                                                  */
/* ------------------------------------------------------------------------------------------------ */

function humanAge(fromRfc: string, nowRfc?: string): string {
  const seconds = Math.max(0, Math.round(((nowRfc ? parseTime(nowRfc) : parseTime(fromRfc)) - parseTime(fromRfc)) / 1000));

  if (seconds < 120) return `${ seconds }s`;
  const minutes = Math.floor(seconds / 60);

  if (minutes < 10) return `${ minutes }m${ seconds % 60 ? `${ seconds % 60 }s` : '' }`;
  if (minutes < 180) return `${ minutes }m`;
  const hours = Math.floor(minutes / 60);

  if (hours < 8) return `${ hours }h${ minutes % 60 ? `${ minutes % 60 }m` : '' }`;
  if (hours < 48) return `${ hours }h`;
  const days = Math.floor(hours / 24);

  if (days < 8) return `${ days }d${ hours % 24 ? `${ hours % 24 }h` : '' }`;
  if (days < 365 * 2) return `${ days }d`;

  return `${ Math.floor(days / 365) }y`;
}

function fieldsFor(obj: KubeObject, now?: string): unknown[] {
  const m = obj.metadata;
  const age = humanAge(m.creationTimestamp, now);
  const spec = record(obj.spec) ?? {};
  const status = record(obj.status) ?? {};

  if (obj.kind === 'Machine') {
    const nodeRef = record(status.nodeRef);

    return [m.name, spec.clusterName ?? '', nodeRef?.name ?? '', spec.providerID ?? '', status.phase ?? '', age, spec.version ?? ''];
  }
  if (obj.apiVersion === 'v1' && obj.kind === 'Secret') {
    return [m.name, obj.type ?? '', Object.keys(record(obj.data) ?? {}).length, age];
  }
  if (obj.apiVersion === 'v1' && obj.kind === 'Node') {
    const conditions = (status.conditions ?? []) as Cond[];
    const ready = conditions.find((c) => c.type === 'Ready');
    let state = ready?.status === 'True' ? 'Ready' : 'NotReady';

    if (spec.unschedulable) state += ',SchedulingDisabled';
    const roles = Object.keys(m.labels ?? {}).filter((l) => l.startsWith('node-role.kubernetes.io/')).map((l) => l.slice('node-role.kubernetes.io/'.length)).sort();
    const addresses = (status.addresses ?? []) as { type: string; address: string }[];
    const info = record(status.nodeInfo) ?? {};

    return [
      m.name, state, roles.length ? roles.join(',') : '<none>', age, info.kubeletVersion ?? '',
      addresses.find((a) => a.type === 'InternalIP')?.address ?? '<none>',
      addresses.find((a) => a.type === 'ExternalIP')?.address ?? '<none>',
      info.osImage ?? '', info.kernelVersion ?? '', info.containerRuntimeVersion ?? '',
    ];
  }
  if (obj.apiVersion.startsWith('provisioning.cattle.io/') && obj.kind === 'Cluster') {
    return [m.name, spec.kubernetesVersion ?? '', status.clusterName ?? '', m.creationTimestamp, null, null];
  }

  return [m.name, age];
}

function steveLinks(obj: KubeObject, o: SteveOptions): Record<string, string> {
  const base = (o.baseUrl ?? DEFAULT_STEVE_BASE_URL).replace(/\/$/, '');
  const prefix = o.clusterId ? `${ base }/k8s/clusters/${ o.clusterId }` : base;
  const type = steveType(obj);
  const id = steveId(obj);
  const self = `${ prefix }/v1/${ type }s/${ id }`;
  const { group, version } = groupVersion(obj.apiVersion);
  const plural = resourceName(obj.kind);
  const ns = obj.metadata.namespace;
  let view: string;

  if (group === 'management.cattle.io' && version === 'v3') {
    view = `${ prefix }/v1/${ group }.${ plural }${ ns ? `/${ ns }` : '' }/${ obj.metadata.name }`;
  } else {
    const root = group ? `/apis/${ group }/${ version }` : '/api/v1';

    view = `${ prefix }${ root }${ ns ? `/namespaces/${ ns }` : '' }/${ plural }/${ obj.metadata.name }`;
  }
  const perms = {
    update: true, remove: true, patch: true, ...(o.permissions ?? {})
  };
  const links: Record<string, string> = {};

  if (perms.patch) links.patch = self;
  if (perms.remove) links.remove = self;
  links.self = self;
  if (perms.update) links.update = self;
  links.view = view;

  return links;
}

function getPath(obj: Record<string, unknown>, parts: string[]): unknown {
  let cur: unknown = obj;

  for (const p of parts) {
    const r = record(cur);

    if (!r || !(p in r)) return undefined;
    cur = r[p];
  }

  return cur;
}

function putPath(obj: Record<string, unknown>, parts: string[], value: unknown): void {
  let cur = obj;

  for (let i = 0; i < parts.length - 1; i++) {
    const next = record(cur[parts[i]]);

    if (next) {
      cur = next;
    } else {
      const created: Record<string, unknown> = {};

      cur[parts[i]] = created;
      cur = created;
    }
  }
  cur[parts[parts.length - 1]] = value;
}

function removePath(obj: Record<string, unknown>, parts: string[]): void {
  const parent = record(getPath(obj, parts.slice(0, -1)));

  if (parent) delete parent[parts[parts.length - 1]];
}

/* ------------------------------------------------------------------------------------------------ */
/* envelope                                                                                          */
/* ------------------------------------------------------------------------------------------------ */

/** One object as Steve returns it. The input is not modified. */
export function toSteve(obj: KubeObject, options: SteveOptions = {}): SteveResource {
  const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
  const state = summarize(copy);

  normalizeConditions(copy);
  copy.metadata = {
    ...copy.metadata,
    fields:        fieldsFor(copy, options.now),
    // Steve writes null for an object it found no relationships for (real payloads of Rancher 2.12-2.14 carry it).
    relationships: null,
    state,
  } as KubeObject['metadata'];

  let body: Record<string, unknown> = copy;

  if (options.include && options.include.length) {
    const kept: Record<string, unknown> = {};

    for (const path of options.include) {
      const parts = path.split('.');
      const value = getPath(copy, parts);

      if (value !== undefined) putPath(kept, parts, value);
    }
    body = kept;
  }
  for (const path of options.exclude ?? []) {
    removePath(body, path.split('.'));
  }

  const resource: Record<string, unknown> = {
    id:    steveId(obj),
    type:  steveType(obj),
    links: steveLinks(obj, options),
  };

  for (const [k, v] of Object.entries(body)) {
    if (k === 'type') {
      resource._type = v;
    } else {
      resource[k] = v;
    }
  }

  return resource as SteveResource;
}

export interface SteveCollection {
  type: 'collection';
  links: Record<string, string>;
  createTypes: Record<string, string>;
  actions: Record<string, string>;
  resourceType: string;
  revision: string;
  count: number;
  data: SteveResource[];
}

/** A `/v1/<type>s` list response for objects of one type. */
export function toSteveCollection(objects: KubeObject[], options: SteveOptions & { resourceType?: string } = {}): SteveCollection {
  const resourceType = options.resourceType ?? (objects[0] ? steveType(objects[0]) : 'unknown');
  const base = (options.baseUrl ?? DEFAULT_STEVE_BASE_URL).replace(/\/$/, '');
  const prefix = options.clusterId ? `${ base }/k8s/clusters/${ options.clusterId }` : base;
  const collection = `${ prefix }/v1/${ resourceType }s`;
  const revision = objects.reduce((max, o) => Math.max(max, Number(o.metadata.resourceVersion) || 0), 0);

  return {
    type:        'collection',
    links:       { self: collection },
    createTypes: { [resourceType]: collection },
    actions:     {},
    resourceType,
    revision:    String(revision),
    count:       objects.length,
    data:        objects.map((o) => toSteve(o, options)),
  };
}
