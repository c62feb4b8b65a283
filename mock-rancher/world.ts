/**
 * What the embedded Rancher holds: its own `local` cluster with the settings, features and
 * namespaces the dashboard needs to start, one cluster per scenario (scenarios/catalog.ts), and
 * optionally a customer's node-health-bundle/v1 file as one more cluster.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { buildScenario, scenarioObjects } from '../scenarios/catalog';
import { buildFleetScenario, isFleetScenario } from '../scenarios/fleet';
import { DEFAULT_SERVER_URL, managementCluster, provisioningCluster } from '../scenarios/builders';
import type { KubeObject, Scenario } from '../scenarios/types';
import { bundleAnnotations } from '../pkg/node-health/data/bundle-view';
import { LOCAL_SCOPE, ObjectStore } from './store';
import { readBundle } from '../pkg/node-health/export/bundle';
import type { BundleRead } from '../pkg/node-health/export/bundle';

export const RANCHER_VERSION = 'v2.12.2';
export const KUBERNETES_VERSION = 'v1.32.5+k3s1';

export const DEFAULT_SCENARIOS = [
  'ghost-etcd', 'windows-node-ref', 'orphan-node', 'etcd-hook', 'healthy', 'every-failure', 'imported', 'agent-disconnected', 'capi-v1beta2', 'join-keys',
  'node-signals', 'infra-delete-failed', 'etcd-quorum', 'control-plane-down', 'nodes-frozen', 'no-worker', 'reconciliation-paused', 'health-check-blocked', 'signal-catalogue', 'planner-files', 'capi-connection-down', 'pre-bootstrap-wait',
  'viable-init-node', 'node-not-linked', 'large-2000',
];

export interface WorldOptions {
  /** scenario names as scenarios/catalog.ts knows them (`large-<n>` for synthetic clusters) */
  scenarios: string[];
  /** node-health-bundle/v1 files to serve, each as one more cluster: a file, a comma-separated list, or a folder */
  bundlePath?: string;
  /** the server-url setting; registration commands use it */
  serverUrl?: string;
  /** Steve's SQL cache (feature ui-sql-cache): on unless false, as in current Rancher */
  sqlCache?: boolean;
  now?: Date;
}

export interface ServedCluster {
  /** where it came from: a scenario name or `bundle:<file>` */
  source: string;
  title: string;
  name: string;
  namespace: string;
  mgmtId: string;
  kind: string;
  machines: number;
  nodes: number;
  /** the marker carried by every secret value of a scenario (for leak checks) */
  secretMarker?: string;
  /** a bundle's cluster: when the bundle was made (its diagnosis time) */
  bundleMadeAt?: string;
}

export interface World {
  clusters: ServedCluster[];
  warnings: string[];
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function obj(apiVersion: string, kind: string, name: string, extra: Record<string, unknown> = {}, namespace?: string, createdAt = '2025-01-01T00:00:00Z'): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name, ...(namespace ? { namespace } : {}), uid: `mock-${ kind.toLowerCase() }-${ namespace || '' }-${ name }`, resourceVersion: '1', creationTimestamp: createdAt
    },
    ...extra,
  };
}

function namespace(name: string, labels: Record<string, string> = {}): KubeObject {
  const ns = obj('v1', 'Namespace', name, { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });

  ns.metadata.labels = { 'kubernetes.io/metadata.name': name, ...labels };

  return ns;
}

function setting(name: string, value: string, def = ''): KubeObject {
  return obj('management.cattle.io/v3', 'Setting', name, {
    value, default: def, customized: false, source: ''
  });
}

function feature(name: string, value: boolean | null, def: boolean, description: string): KubeObject {
  return obj('management.cattle.io/v3', 'Feature', name, {
    spec:   { value },
    status: {
      default: def, description, dynamic: false, lockedValue: null
    },
  });
}

function project(clusterId: string, id: string, displayName: string): KubeObject {
  return obj('management.cattle.io/v3', 'Project', id, { spec: { clusterName: clusterId, displayName }, status: {} }, clusterId);
}

/** Rancher's own objects: everything the dashboard reads at start besides the clusters. */
export function rancherObjects(serverUrl: string, now: Date, sqlCache = true): KubeObject[] {
  const created = rfc3339(new Date(now.getTime() - 400 * 86400000));
  const localMgmt = managementCluster({
    mgmtId: 'local', displayName: 'local', namespace: 'fleet-local', kind: 'imported', createdAt: created, kubernetesVersion: KUBERNETES_VERSION, nodeCount: 1, provisioningClusterName: 'local'
  });

  (localMgmt.spec as Record<string, unknown>).internal = true;

  return [
    ...['default', 'kube-system', 'cattle-system', 'cattle-global-data', 'cattle-fleet-system', 'cattle-fleet-local-system', 'local', 'p-local1']
      .map((n) => namespace(n)),
    namespace('fleet-default', { 'fleet.cattle.io/managed': 'true' }),
    namespace('fleet-local', { 'fleet.cattle.io/managed': 'true' }),
    setting('server-version', RANCHER_VERSION),
    setting('server-url', serverUrl),
    setting('first-login', 'false', 'true'),
    setting('eula-agreed', '2025-01-01T00:00:00.000Z'),
    setting('telemetry-opt', 'out', 'prompt'),
    setting('ui-pl', 'rancher', 'rancher'),
    setting('ui-brand', ''),
    setting('ui-offline-preferred', 'dynamic', 'dynamic'),
    setting('ui-index', ''),
    setting('ui-dashboard-index', ''),
    setting('ui-issues', ''),
    setting('ui-custom-links', ''),
    setting('ui-community-links', '', 'true'),
    setting('ui-default-landing', 'vue', 'vue'),
    setting('ui-banners', '{}', '{}'),
    setting('ui-performance', '', ''),
    setting('ui-feedback-form', ''),
    setting('ui-primary-color', ''),
    setting('ui-link-color', ''),
    setting('ui-favicon', ''),
    setting('ui-logo-light', ''),
    setting('ui-logo-dark', ''),
    setting('ui-kubernetes-default-version-range', '<=1.32.x', '<=1.32.x'),
    setting('auth-user-session-ttl-minutes', '960', '960'),
    setting('auth-token-max-ttl-minutes', '0', '0'),
    setting('system-namespaces', 'kube-system,cattle-system,cattle-global-data,fleet-default,fleet-local,local', ''),
    setting('cluster-template-enforcement', 'false', 'false'),
    setting('agent-tls-mode', 'strict', 'strict'),
    setting('k3s-based-upgrader-uninstall-concurrency', '5', '5'),
    setting('hide-local-cluster', 'false', 'false'),
    setting('rke2-default-version', 'v1.32.5+rke2r1', ''),
    setting('k3s-default-version', KUBERNETES_VERSION, ''),
    setting('cacerts', ''),
    feature('multi-cluster-management', null, true, 'Multi-cluster provisioning and management of Kubernetes clusters.'),
    feature('fleet', null, true, 'Install Fleet when starting Rancher'),
    feature('rke2', null, true, 'Enable RKE2 provisioning'),
    feature('provisioningv2', null, true, 'Enable cluster-api based provisioning framework'),
    feature('embedded-cluster-api', null, true, 'Enable a Rancher-managed instance of cluster-api core controller'),
    feature('harvester', null, false, 'Enable Harvester integration'),
    // On by default from Rancher 2.12; turned off, it is set to false explicitly as an admin would.
    feature('ui-sql-cache', sqlCache ? null : false, true, 'Enable SQLite-backed caching to improve performance and provide additional UI sorting/filtering features.'),
    feature('uiextension', null, true, 'Enable UI Extensions when starting Rancher'),
    obj('management.cattle.io/v3', 'FleetWorkspace', 'fleet-default', { status: {} }),
    obj('management.cattle.io/v3', 'FleetWorkspace', 'fleet-local', { status: {} }),
    localMgmt,
    provisioningCluster({
      name: 'local', namespace: 'fleet-local', mgmtId: 'local', kind: 'imported', createdAt: created
    }),
    project('local', 'p-local1', 'Default'),
    project('local', 'p-local2', 'System'),
  ];
}

function downstreamBase(): KubeObject[] {
  return ['default', 'kube-system', 'kube-public', 'cattle-system', 'cattle-fleet-system'].map((n) => namespace(n));
}

function countOf(objects: KubeObject[], kind: string): number {
  return objects.filter((o) => o.kind === kind).length;
}

/** Loads one scenario's clusters; skips it (with a warning) when a name or id is already taken. */
function loadScenario(store: ObjectStore, world: World, scenario: Scenario): void {
  for (const c of scenario.clusters) {
    const clash = world.clusters.find((w) => w.mgmtId === c.mgmtId || (w.name === c.name && w.namespace === c.namespace));

    if (clash) {
      world.warnings.push(`scenario ${ scenario.name }: cluster ${ c.namespace }/${ c.name } (${ c.mgmtId }) clashes with ${ clash.source }; not served`);

      return;
    }
  }
  const mgmtNamespaces = scenario.clusters.map((c) => namespace(c.mgmtId));

  [...mgmtNamespaces, ...scenario.clusters.map((c) => project(c.mgmtId, `p-${ c.mgmtId.slice(4) }`, 'Default'))]
    .forEach((o) => store.seed(LOCAL_SCOPE, o));
  for (const { cluster, object } of scenarioObjects(scenario)) {
    store.seed(cluster, object);
  }
  for (const [key, text] of Object.entries(scenario.podLogs ?? {})) {
    const [ns, pod] = key.split('/');

    store.setPodLog(LOCAL_SCOPE, ns, pod, text);
  }
  for (const c of scenario.clusters) {
    downstreamBase().forEach((o) => store.seed(c.mgmtId, o));
    const downstream = scenario.downstream[c.mgmtId] || [];

    world.clusters.push({
      source:       scenario.name,
      title:        scenario.title,
      name:         c.name,
      namespace:    c.namespace,
      mgmtId:       c.mgmtId,
      kind:         c.kind,
      machines:     scenario.objects.filter((o) => o.kind === 'Machine' && o.metadata.namespace === c.namespace &&
        o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === c.name).length,
      nodes:        countOf(downstream, 'Node'),
      secretMarker: scenario.secretMarker,
    });
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* node-health-bundle/v1                                                                             */
/* ------------------------------------------------------------------------------------------------ */

/** A Steve-shaped object back to the kubectl shape (the bundle may hold either). */
export function fromSteve(raw: Record<string, unknown>): KubeObject | undefined {
  if (!raw || typeof raw !== 'object' || typeof raw.apiVersion !== 'string' || typeof raw.kind !== 'string' || !raw.metadata) {
    return undefined;
  }
  const out: Record<string, unknown> = { ...raw };

  if ('links' in out && 'id' in out) {
    delete out.id;
    delete out.links;
    delete out.actions;
    delete out.type;
    if ('_type' in out) {
      out.type = out._type;
      delete out._type;
    }
  }
  const metadata = { ...(out.metadata as Record<string, unknown>) };

  delete metadata.state;
  delete metadata.fields;
  delete metadata.relationships;
  out.metadata = metadata;

  return out as unknown as KubeObject;
}

/** The management cluster id a downstream Node came from, when its Steve links say so. */
function downstreamClusterOf(raw: Record<string, unknown>): string | undefined {
  const self = (raw.links as Record<string, string> | undefined)?.self || '';
  const m = /\/k8s\/clusters\/([^/]+)\//.exec(self);

  return m?.[1];
}

/**
 * Serves a bundle's objects: local ones in Rancher's scope, Nodes (and their Leases) in the downstream scope of their
 * cluster, with their own timestamps (as in the customer's logs). Its provisioning and management clusters
 * say that they are a bundle's, with Node Health's own annotations (pkg/node-health/data/bundle-view.ts): the
 * tab judges them at the moment the bundle was made, does not refresh them and offers no write. The API refuses
 * every change to them (403), Rancher's own buttons' too.
 */
export function loadBundle(store: ObjectStore, world: World, path: string): void {
  let bundle: BundleRead;

  try {
    bundle = readBundle(JSON.parse(readFileSync(path, 'utf8')));
  } catch (e) {
    throw new Error(`${ path }: ${ e instanceof Error ? e.message : String(e) }`);
  }
  const madeAt = bundle.createdAt && Number.isFinite(Date.parse(bundle.createdAt)) ? bundle.createdAt : null;

  if (!madeAt) {
    throw new Error(`${ path }: the bundle does not say when it was made ("createdAt"), so there is no moment to judge it at`);
  }
  const raws = bundle.objects as Record<string, unknown>[];
  const objects = raws.map((raw) => ({ raw, object: fromSteve(raw) })).filter((x): x is { raw: Record<string, unknown>, object: KubeObject } => !!x.object);
  const provClusters = objects.filter((x) => x.object.apiVersion.startsWith('provisioning.cattle.io/') && x.object.kind === 'Cluster');

  if (!provClusters.length) {
    throw new Error(`${ path }: the bundle holds no provisioning.cattle.io Cluster, so there is no cluster to open`);
  }
  const clusters = provClusters.map(({ object }) => ({
    name:      object.metadata.name,
    namespace: object.metadata.namespace || 'fleet-default',
    mgmtId:    String((object.status as Record<string, unknown> | undefined)?.clusterName || `c-m-bundle${ world.clusters.length }`),
    kind:      (object.spec as Record<string, unknown> | undefined)?.rkeConfig ? 'custom' : 'imported',
  }));

  for (const c of clusters) {
    const clash = world.clusters.find((w) => w.mgmtId === c.mgmtId || (w.name === c.name && w.namespace === c.namespace));

    if (clash) {
      throw new Error(`${ path }: cluster ${ c.namespace }/${ c.name } (${ c.mgmtId }) clashes with the scenario ${ clash.source }; start with --scenarios none`);
    }
  }
  const file = path.split('/').pop() || path;
  const marks = (cluster: string) => bundleAnnotations({
    cluster, madeAt, extensionVersion: bundle.extensionVersion, rancherVersion: bundle.rancherVersion, file
  });
  const byMgmtId = new Map(clusters.map((c) => [c.mgmtId, c]));

  // Each cluster, provisioning and management, says which bundle it is.
  for (const { object } of objects) {
    const cluster = object.kind === 'Cluster' && (object.apiVersion.startsWith('provisioning.cattle.io/') ? object.metadata.name : object.apiVersion.startsWith('management.cattle.io/') ? byMgmtId.get(object.metadata.name)?.name : null);

    if (cluster) {
      object.metadata = { ...object.metadata, annotations: { ...(object.metadata.annotations || {}), ...marks(cluster) } };
    }
  }
  const fallbackCluster = clusters[0].mgmtId;
  const hasMgmt = new Set(objects.filter((x) => x.object.kind === 'Cluster' && x.object.apiVersion.startsWith('management.cattle.io/')).map((x) => x.object.metadata.name));
  const nodeCounts: Record<string, number> = {};

  for (const { raw, object } of objects) {
    if (object.apiVersion === 'v1' && object.kind === 'Node') {
      const scope = downstreamClusterOf(raw) || fallbackCluster;

      store.seed(scope, object, true);
      nodeCounts[scope] = (nodeCounts[scope] || 0) + 1;
    } else if (object.apiVersion === 'coordination.k8s.io/v1' && object.kind === 'Lease') {
      // The kubelets' Leases live in the downstream cluster, with their Nodes.
      store.seed(downstreamClusterOf(raw) || fallbackCluster, object, true);
    } else {
      store.seed(LOCAL_SCOPE, object, true);
    }
  }
  for (const c of clusters) {
    store.seed(LOCAL_SCOPE, namespace(c.mgmtId));
    if (!store.peek(LOCAL_SCOPE, 'namespace', undefined, c.namespace)) {
      store.seed(LOCAL_SCOPE, namespace(c.namespace));
    }
    if (!hasMgmt.has(c.mgmtId)) {
      const mgmt = managementCluster({
        mgmtId: c.mgmtId, displayName: c.name, namespace: c.namespace, kind: c.kind as 'custom', createdAt: madeAt, nodeCount: nodeCounts[c.mgmtId] || 0, provisioningClusterName: c.name
      });

      mgmt.metadata.annotations = { ...(mgmt.metadata.annotations || {}), ...marks(c.name) };
      store.seed(LOCAL_SCOPE, mgmt, true);
    }
    store.ensureScope(c.mgmtId);
    downstreamBase().forEach((o) => store.seed(c.mgmtId, o));
    world.clusters.push({
      source:       `bundle:${ file }`,
      title:        `Bundle made ${ madeAt }`,
      bundleMadeAt: madeAt,
      name:         c.name,
      namespace:    c.namespace,
      mgmtId:       c.mgmtId,
      kind:         c.kind,
      machines:     objects.filter((x) => x.object.kind === 'Machine' && x.object.metadata.namespace === c.namespace).length,
      nodes:        nodeCounts[c.mgmtId] || 0,
    });
  }
}

/** The bundle files of --bundle / MOCK_RANCHER_BUNDLE: each of a comma-separated list, a folder's .json files in name order. */
export function bundleFiles(spec: string): string[] {
  return spec.split(',').map((p) => p.trim()).filter(Boolean).flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).filter((f) => f.endsWith('.json')).sort().map((f) => join(p, f)) : [p]));
}

/** Fills an empty store. Deterministic apart from the clock: scenarios are built around `now`. */
export function buildWorld(store: ObjectStore, options: WorldOptions): World {
  const now = options.now || new Date();
  const serverUrl = options.serverUrl || DEFAULT_SERVER_URL;
  const world: World = { clusters: [], warnings: [] };

  store.ensureScope(LOCAL_SCOPE);
  rancherObjects(serverUrl, now, options.sqlCache !== false).forEach((o) => store.seed(LOCAL_SCOPE, o));
  world.clusters.push({
    source: 'rancher', title: 'Rancher\'s own cluster', name: 'local', namespace: 'fleet-local', mgmtId: 'local', kind: 'imported', machines: 0, nodes: 0
  });
  for (const path of options.bundlePath ? bundleFiles(options.bundlePath) : []) {
    loadBundle(store, world, path);
  }
  for (const name of options.scenarios) {
    const build = isFleetScenario(name) ? buildFleetScenario : buildScenario;

    loadScenario(store, world, build(name, { now: rfc3339(now), serverUrl }));
  }

  return world;
}
