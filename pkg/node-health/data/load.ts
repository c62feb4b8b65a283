/**
 * Loads everything the diagnosis needs for one cluster: a fixed set of Steve collections read in
 * parallel through the store's `management/request` (raw JSON, nothing is cached in the store), each
 * followed through its pages, apart from the lists the caller already has from the store (store-lists.ts).
 * Says per input whether it could be read, so the engine keeps quiet where it cannot judge and the tab
 * can say what is missing and why.
 */
import {
  LABELS, PLAN_SECRET_TYPE, bootstrapRef, classify, label, nameOf, nodeRefName, specOf
} from '../engine';
import type { InputName, KubeObject } from '../engine';
import {
  expectedInfraKinds, infraKindsOf, infraMachinesRequest, initialRequests, infraType
} from './requests';
import { keptOf, leaseRequests } from './record-requests';
import type { InfraKind, ListForm, PlannedRequest } from './requests';
import type { AccessReviews } from './access';
import { fetchMgmtCluster } from './mgmt-cluster';
import { ListReads } from './load-core';
import type { ListCache as CoreListCache, Settled } from './load-core';
import type { StoreLists } from './store-lists';
import type { ClusterTarget, Dispatch, LoadResult } from './types';

export {
  availabilityOf, fetchCollection, judgeAnswer, settle, worse
} from './load-core';
export type { Settled } from './load-core';

export interface LoadOptions {
  now?: () => number;
  /** complete lists the store holds (storeLists): these inputs are not requested */
  fromStore?: StoreLists;
  /** how to ask for lists: `filter` when Steve runs with its SQL cache (see requests.ts) */
  form?: ListForm;
  /** whether the user may list each input in full; without it every list counts as complete */
  reviews?: AccessReviews;
  /** lists read before that cannot have changed since (changes.ts): used instead of asking again */
  cache?: ListCache;
}

/** The lists of earlier loads, by request. */
export type ListCache = CoreListCache<PlannedRequest>;

function belongsToCluster(obj: unknown, target: ClusterTarget, labelKey: string): boolean {
  return label(obj, labelKey) === target.name || specOf(obj).clusterName === target.name;
}

export async function loadClusterData(dispatch: Dispatch, target: ClusterTarget, options: LoadOptions = {}): Promise<LoadResult> {
  const now = options.now ?? Date.now;
  const { mgmtCluster: storedMgmtCluster, ...storeInputs } = options.fromStore ?? {};
  const reads = new ListReads<InputName, PlannedRequest>(dispatch, { fromStore: storeInputs, cache: options.cache });
  const form = options.form ?? 'selectors';
  const reviews = options.reviews;
  const planned = initialRequests(target, form);
  const complete = (request: PlannedRequest): Promise<boolean> => (reviews ? reviews(request.access) : Promise.resolve(true));
  const read = (request: PlannedRequest) => Promise.all([reads.read(request), complete(request)]).then(([result, mayListAll]) => ({
    request, result, mayListAll
  }));
  const fetches = planned.map(read);
  const machinesFetch = fetches[planned.findIndex((r) => r.input === 'machines')] as ReturnType<typeof read> | undefined;
  const fetchInfra = (kind: InfraKind) => read(infraMachinesRequest(target, kind, form));
  // The kinds the cluster's spec says its machines use are asked for at once, alongside the machines:
  // waiting for the machines first put a second round trip on every load.
  const early = new Map(machinesFetch ? expectedInfraKinds(target).map((kind) => [infraType(kind), fetchInfra(kind)]) : []);
  const ofCluster = (items: KubeObject[]) => items.filter((m) => belongsToCluster(m, target, LABELS.capiClusterName));

  // Infrastructure machines: one request per kind the machines use. An early answer for a kind no machine
  // uses is left out, as if it had not been asked for.
  const infraFetch = machinesFetch ? machinesFetch.then(async({ result }: { result: Settled<KubeObject[]> }) => {
    if (!result.ok) {
      return [];
    }

    return Promise.all(infraKindsOf(ofCluster(result.value)).map((kind) => early.get(infraType(kind)) ?? fetchInfra(kind)));
  }) : Promise.resolve([]);
  // The Leases of the Nodes whose status is overdue only (their Lease tells whether their kubelet runs), asked for as
  // soon as the Nodes are in: a healthy cluster reads none.
  const nodesFetch = fetches[planned.findIndex((r) => r.input === 'nodes')] as ReturnType<typeof read> | undefined;
  const mgmtId = target.mgmtId;
  const leasesFetch = nodesFetch && mgmtId ? nodesFetch.then(({ result }: { result: Settled<KubeObject[]> }) => (
    result.ok ? Promise.all(leaseRequests(mgmtId, form, result.value, now()).map(read)) : []
  )) : Promise.resolve([]);
  const mgmtClusterFetch = storedMgmtCluster ? Promise.resolve(storedMgmtCluster) : (target.mgmtId ? fetchMgmtCluster(dispatch, target.mgmtId, reads.requests) : Promise.resolve([]));
  const settled = await Promise.all(fetches);
  const infraSettled = await infraFetch;
  const mgmtCluster = await mgmtClusterFetch;
  const byCluster: Partial<Record<InputName, (items: KubeObject[]) => KubeObject[]>> = {
    machines:            ofCluster,
    planSecrets:         (items) => items.filter((s) => s._type === PLAN_SECRET_TYPE && label(s, LABELS.rkeClusterName) === target.name),
    bootstraps:          ofCluster,
    capiClusters:        (items) => items.filter((c) => nameOf(c) === target.name),
    machineDeployments:  ofCluster,
    machineSets:         ofCluster,
    machineHealthChecks: ofCluster,
  };

  for (const { request, result, mayListAll } of settled) {
    reads.take(request, result, mayListAll, byCluster[request.input]);
  }
  for (const { request, result, mayListAll } of infraSettled) {
    // One unreadable kind makes the whole input unreadable to the engine.
    reads.take(request, result, mayListAll, ofCluster, true);
  }

  for (const { request, result, mayListAll } of await leasesFetch) {
    reads.take(request, result, mayListAll, keptOf(request));
  }
  const nodes = reads.list('nodes');
  const machines = reads.list('machines');
  const pools = (['machineDeployments', 'machineSets', 'machineHealthChecks'] as const).flatMap((input) => reads.list(input));
  const usesRkeBootstrap = machines.some((m) => bootstrapRef(m)?.kind === 'RKEBootstrap');

  reads.hidden('planSecrets', usesRkeBootstrap, reads.list('planSecrets').length);
  reads.hidden('bootstraps', usesRkeBootstrap, reads.list('bootstraps').length);
  reads.hidden('nodes', machines.some((m) => !!nodeRefName(m)), nodes.length);
  reads.hidden('mgmtNodes', nodes.length > 0, reads.list('mgmtNodes').length);
  // Every machine belongs to a CAPI Cluster, and a pool's machines to its MachineDeployment and MachineSet.
  reads.hidden('capiClusters', machines.length > 0, reads.list('capiClusters').length);
  reads.hidden('machineDeployments', machines.some((m) => !!label(m, LABELS.deploymentName)), pools.filter((o) => classify(o) === 'machineDeployment').length);
  reads.hidden('machineSets', machines.some((m) => !!label(m, LABELS.machineSetName)), pools.filter((o) => classify(o) === 'machineSet').length);

  return {
    objects: [
      ...mgmtCluster, ...reads.list('capiClusters'), ...pools, ...machines, ...reads.list('planSecrets'), ...reads.list('bootstraps'), ...reads.list('infraMachines'),
      ...reads.list('mgmtNodes'), ...nodes, ...reads.list('leases'),
    ],
    availability: reads.availability,
    issues:       reads.issues,
    requests:     reads.requests,
    loadedAt:     now(),
  };
}
