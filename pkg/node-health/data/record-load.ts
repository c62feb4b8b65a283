/**
 * One record's load, for the record tab on a Machine's or a Node's page: on the cluster's loader core (load-core.ts),
 * the same reads, judgements and access reviews as the cluster's tab, but every list narrowed to what this record's
 * diagnosis needs (record-requests.ts), so that opening one Machine of a 10,000-node cluster reads a few dozen
 * objects, not 10,000 of each kind:
 * - the record's chain: the Machine by name (for a Node, the Machine its `cluster.x-k8s.io/machine` annotation
 *   names, on the Node or on Rancher's copy of it), its plan secret by `rke.cattle.io/machine-name`, its
 *   RKEBootstrap and infrastructure machine by the names in its refs, its Node by name (status.nodeRef) and by the
 *   machine's uid label, Rancher's copy of that Node by its node-name label;
 * - the cluster's context: its etcd and control-plane machines with their plan secrets and Nodes (by role label),
 *   whether it has a worker machine at all (the first one, its name only),
 *   the machines of the record's own pool (by pool label) with their Nodes (by machine uid), and Cluster API's small
 *   lists whole (the CAPI Cluster, MachineDeployments, MachineSets, MachineHealthChecks) as the cluster's tab reads them.
 * What the scoped lists cannot tell (another machine waiting for the same Node, a Node elsewhere at this host's
 * address) the engine says in a note on the record instead of guessing (engine/scoped.ts).
 */
import {
  ANNOTATIONS, LABELS, asObject, bootstrapRef, infrastructureRef, label, nameOf, nodeRefName, statusOf
} from '../engine';
import type { InputName, KubeObject, RecordScope } from '../engine';
import {
  capiClustersRequest, infraKindsOf, machineDeploymentsRequest, machineHealthChecksRequest, machineSetsRequest
} from './requests';
import type { ListForm, PlannedRequest } from './requests';
import {
  keptOf, leaseRequests, matchesSelector, roleContextRequests, scopedBootstrap, scopedInfraMachine, scopedMachines, scopedMgmtNodes, scopedNodes, scopedPlanSecrets, workerProbe
} from './record-requests';
import type { ScopedRequest } from './record-requests';
import type { AccessReviews } from './access';
import { fetchMgmtCluster } from './mgmt-cluster';
import { ListReads, fetchCollection, settle } from './load-core';
import type { ListCache, Settled } from './load-core';
import type { RecordSubject } from './record-target';
import type { ClusterTarget, Dispatch, LoadResult } from './types';

/** A pool whose Nodes would take more requests' worth of names than this is not compared here (the cluster's tab does). */
export const POOL_PEERS_MAX = 50;

export interface RecordLoadOptions {
  now?: () => number;
  form?: ListForm;
  reviews?: AccessReviews;
  cache?: ListCache<PlannedRequest>;
  /** the management cluster, when the store holds it */
  mgmtCluster?: KubeObject[];
}

/** A record's load: the cluster's LoadResult of the scoped lists, and what the engine needs to know of the scope. */
export interface RecordLoadResult extends LoadResult {
  scope: RecordScope;
}

type Read = { request: ScopedRequest | PlannedRequest; result: Settled<KubeObject[]>; mayListAll: boolean };

function keyOf(obj: KubeObject): string {
  return String(obj.id ?? `${ obj.metadata?.namespace ?? '' }/${ obj.metadata?.name ?? '' }`);
}

function unique(items: KubeObject[]): KubeObject[] {
  const seen = new Map<string, KubeObject>();

  for (const o of items) {
    seen.set(keyOf(o), seen.get(keyOf(o)) ?? o);
  }

  return [...seen.values()];
}

/** The Machine a Node names: its own annotation, else Rancher's copy's. */
function machineNamedBy(node: KubeObject | undefined, mgmtNode: KubeObject | undefined): string | null {
  const own = node?.metadata?.annotations?.[ANNOTATIONS.capiMachine];
  const copied = mgmtNode ? statusOf(mgmtNode).nodeAnnotations?.[ANNOTATIONS.capiMachine] : undefined;

  return typeof own === 'string' && own ? own : (typeof copied === 'string' && copied ? copied : null);
}

/** A machine's pool label: Rancher's machine pool, else Cluster API's MachineDeployment. */
function poolLabel(machine: KubeObject): [string, string] | null {
  for (const key of [LABELS.machinePoolName, LABELS.deploymentName]) {
    const value = label(machine, key);

    if (value) {
      return [key, value];
    }
  }

  return null;
}

/** The host name a Machine reports among its addresses. */
function hostnameOf(machine: KubeObject): string | null {
  const addresses = statusOf(machine).addresses;
  const found = Array.isArray(addresses) ? addresses.find((a) => a?.type === 'Hostname' && typeof a.address === 'string' && a.address) : null;

  return found ? found.address : null;
}

/**
 * A Machine's own chain (its RKEBootstrap and infrastructure machine by name, its Node by name and by its uid label,
 * Rancher's copy of that Node), the machines that claim the same Node name (rke.cattle.io/node-name), and its pool.
 */
function chainRequests(target: ClusterTarget, form: ListForm, machine: KubeObject): ScopedRequest[] {
  const out: ScopedRequest[] = [];
  const bootstrap = bootstrapRef(machine);
  const infra = infraKindsOf([machine])[0];
  const infraName = infrastructureRef(machine)?.name;
  const nodeName = nodeRefName(machine);
  const claimed = label(machine, LABELS.nodeName) ?? nodeName;
  const uid = machine.metadata?.uid;
  const pool = poolLabel(machine);
  const mgmtId = target.mgmtId;

  if (bootstrap?.kind === 'RKEBootstrap' && bootstrap.name) {
    out.push(scopedBootstrap(target, form, bootstrap.name));
  }
  if (infra && infraName) {
    out.push(scopedInfraMachine(target, form, infra, infraName));
  }
  if (mgmtId && nodeName) {
    out.push(scopedNodes(mgmtId, form, { name: nodeName }), scopedMgmtNodes(mgmtId, form, nodeName));
  }
  if (mgmtId && typeof uid === 'string' && uid) {
    out.push(scopedNodes(mgmtId, form, { labels: [[LABELS.machineUid, uid]] }));
  }
  if (claimed) {
    out.push(scopedMachines(target, form, { labels: [[LABELS.nodeName, claimed]] }));
  }
  // The Node a machine without its link is expected to register as (Nodes are named in lower case): its node-name
  // label, the host name it reports, or the name in an RKE2 or K3s provider id (rke2://<node>).
  const fromProviderId = /^(?:rke2|k3s):\/\/([^/]+)$/.exec(String(machine.spec?.providerID ?? ''))?.[1];
  const expected = [claimed, hostnameOf(machine), fromProviderId].map((n) => n?.toLowerCase()).filter((n): n is string => !!n && n !== nodeName);

  for (const name of mgmtId ? [...new Set(expected)] : []) {
    out.push(scopedNodes(mgmtId as string, form, { name }));
  }
  if (pool) {
    out.push(scopedMachines(target, form, { labels: [pool] }));
  }

  return out;
}

/** The name of the cluster's machine with this uid, from a list of the machines' names and uids only. */
async function machineNameByUid(dispatch: Dispatch, target: ClusterTarget, form: ListForm, uid: string, log: { input: InputName; url: string }[]): Promise<string | null> {
  const request = scopedMachines(target, form, {});
  const url = request.url.replace(/[?&]include=[^&]*/g, '').replace(/[?&]exclude=[^&]*/g, '');
  const light = `${ url }${ url.includes('?') ? '&' : '?' }include=metadata.name&include=metadata.uid&include=metadata.labels`;
  const found = await settle(fetchCollection(dispatch, { input: 'machines' as InputName, url: light }, log));

  return found.ok ? nameOf(found.value.find((m) => m.metadata?.uid === uid && matchesSelector(m, request.selector)) ?? {}) : null;
}

/**
 * Whether the cluster has a worker machine: the probe's first page (one object) only, never the list; from an
 * earlier load while the watch says machines did not change. Undefined when it could not be told.
 */
async function hasWorker(dispatch: Dispatch, probe: ScopedRequest, log: LoadResult['requests'], cache?: ListCache<PlannedRequest>): Promise<boolean | undefined> {
  const cached = cache?.get(probe);

  if (cached) {
    log.push({
      input: probe.input, url: probe.url, reused: true
    });

    return cached.some((m) => matchesSelector(m, probe.selector));
  }
  cache?.reading(probe);
  log.push({ input: probe.input, url: probe.url });
  const answer = await settle(dispatch('management/request', { url: probe.url, redirectUnauthorized: false }));
  const data = answer.ok ? asObject(answer.value).data : undefined;

  if (!Array.isArray(data)) {
    return undefined;
  }
  const revision = asObject(answer.ok ? answer.value : null).revision;

  cache?.set(probe, data, typeof revision === 'string' ? revision : '');

  return data.some((m) => matchesSelector(m, probe.selector));
}

export async function loadRecordData(dispatch: Dispatch, target: ClusterTarget, subject: RecordSubject, options: RecordLoadOptions = {}): Promise<RecordLoadResult> {
  const now = options.now ?? Date.now;
  const form = options.form ?? 'selectors';
  const reads = new ListReads<InputName, PlannedRequest>(dispatch, { cache: options.cache });
  const reviews = options.reviews;
  const asked = new Set<string>();
  const read = (request: ScopedRequest | PlannedRequest): Promise<Read | null> => {
    if (asked.has(request.url)) {
      return Promise.resolve(null);
    }
    asked.add(request.url);

    return Promise.all([reads.read(request), reviews ? reviews(request.access) : Promise.resolve(true)]).then(([result, mayListAll]) => ({
      request, result, mayListAll
    }));
  };
  const take = (settled: (Read | null)[]): void => {
    for (const s of settled) {
      if (s) {
        reads.take(s.request, s.result, s.mayListAll, keptOf(s.request));
      }
    }
  };
  const round = async(requests: (ScopedRequest | PlannedRequest)[]) => take(await Promise.all(requests.map(read)));
  const managed = target.machineManaged;
  const mgmtId = target.mgmtId;
  const workersFetch = managed ? hasWorker(dispatch, workerProbe(target, form), reads.requests, options.cache) : null;
  const mgmtClusterFetch = options.mgmtCluster ? Promise.resolve(options.mgmtCluster) : (mgmtId ? fetchMgmtCluster(dispatch, mgmtId, reads.requests) : Promise.resolve([]));

  // First round: the subject itself and the cluster's context, all at once.
  const first: (ScopedRequest | PlannedRequest)[] = [];

  if (managed) {
    first.push(
      capiClustersRequest(target, form), machineDeploymentsRequest(target, form), machineSetsRequest(target, form), machineHealthChecksRequest(target, form),
      ...roleContextRequests(target, form),
    );
  }
  if (subject.kind === 'machine' && managed) {
    first.push(scopedMachines(target, form, { name: subject.name }), scopedPlanSecrets(target, form, [LABELS.machineName, subject.name]));
  }
  if (subject.kind === 'node' && mgmtId) {
    first.push(scopedNodes(mgmtId, form, { name: subject.name }), scopedMgmtNodes(mgmtId, form, subject.name));
  }
  await round(first);

  // A Node's page: the Machines that name the Node (its annotation, Rancher's copy's, a machine's node-name label),
  // else the one whose uid the Node's label carries.
  let names = subject.kind === 'machine' ? [subject.name] : [];

  if (subject.kind === 'node' && managed) {
    const node = reads.list('nodes').find((n) => nameOf(n) === subject.name);
    const copy = reads.list('mgmtNodes').find((n) => label(n, LABELS.mgmtNodeName) === subject.name);
    const named = machineNamedBy(node, copy);

    await round([scopedMachines(target, form, { labels: [[LABELS.nodeName, subject.name]] }), ...(named ? [scopedMachines(target, form, { name: named })] : [])]);
    const uid = node ? label(node, LABELS.machineUid) : null;
    let claiming = reads.list('machines').filter((m) => nameOf(m) === named || label(m, LABELS.nodeName) === subject.name || (!!uid && m.metadata?.uid === uid));

    if (uid && !claiming.some((m) => m.metadata?.uid === uid)) {
      // No selector reaches a machine by uid: its name is looked up in the machines' names and uids alone.
      const byUid = await machineNameByUid(dispatch, target, form, uid, reads.requests);

      if (byUid) {
        await round([scopedMachines(target, form, { name: byUid })]);
        claiming = reads.list('machines').filter((m) => nameOf(m) === byUid || claiming.includes(m));
      }
    }
    names = unique(claiming).map((m) => nameOf(m) as string);
  }
  const chained = unique(reads.list('machines')).filter((m) => names.includes(nameOf(m) ?? ''));
  let poolRead = chained.length === 0;

  if (subject.kind === 'node') {
    await round(names.map((name) => scopedPlanSecrets(target, form, [LABELS.machineName, name])));
  }
  // Each Machine's chain, the other machines that claim its Node's name, and its pool.
  await round(chained.flatMap((m) => chainRequests(target, form, m)));
  // The machines that the Nodes read name, where not read yet: a Node registered under the name this machine expects
  // may be another machine's (duplicate-node-name).
  const held = new Set(reads.list('machines').map((m) => nameOf(m)));
  const others = [...new Set(reads.list('nodes').map((n) => machineNamedBy(n, undefined)).filter((n): n is string => !!n && !held.has(n)))];

  await round(managed ? others.map((name) => scopedMachines(target, form, { name })) : []);
  for (const machine of chained.slice(0, 1)) {
    const pool = poolLabel(machine);

    // A custom host's pool is the machines of its roles: complete when they are the etcd or control-plane ones read above.
    poolRead = !pool && [LABELS.etcdRole, LABELS.controlPlaneRole].some((role) => label(machine, role) === 'true');
    if (pool) {
      const peers = reads.list('machines').filter((m) => label(m, pool[0]) === pool[1]);
      const uids = [...new Set(peers.map((m) => m.metadata?.uid).filter((u): u is string => typeof u === 'string' && !!u))].sort();

      if (mgmtId && uids.length <= POOL_PEERS_MAX) {
        await round(uids.length ? [scopedNodes(mgmtId, form, { labelIn: { key: LABELS.machineUid, values: uids } })] : []);
        poolRead = true;
      }
    }
  }
  const nodes = unique(reads.list('nodes'));

  // The Leases of the Nodes read whose status is overdue (as the cluster's load reads them): one by name each, the
  // namespace's list where they are many.
  if (mgmtId) {
    await round(leaseRequests(mgmtId, form, nodes, now()));
  }
  const mgmtCluster = await mgmtClusterFetch;
  const workers = workersFetch ? await workersFetch : undefined;
  const machines = unique(reads.list('machines'));
  const planSecrets = unique(reads.list('planSecrets'));
  const usesRkeBootstrap = machines.some((m) => bootstrapRef(m)?.kind === 'RKEBootstrap');

  // As the cluster's load: Steve answers a list the user may not read with an empty one.
  reads.hidden('planSecrets', usesRkeBootstrap, planSecrets.length);
  reads.hidden('nodes', machines.some((m) => !!nodeRefName(m)), nodes.length);
  reads.hidden('capiClusters', machines.length > 0, reads.list('capiClusters').length);

  return {
    objects: [
      ...mgmtCluster, ...reads.list('capiClusters'), ...reads.list('machineDeployments'), ...reads.list('machineSets'), ...reads.list('machineHealthChecks'),
      ...machines, ...planSecrets, ...unique(reads.list('bootstraps')), ...unique(reads.list('infraMachines')), ...unique(reads.list('mgmtNodes')), ...nodes,
      ...unique(reads.list('leases')),
    ],
    availability: reads.availability,
    issues:       reads.issues,
    requests:     reads.requests,
    loadedAt:     now(),
    scope:        { poolRead, ...(workers === undefined ? {} : { workers }) },
  };
}
