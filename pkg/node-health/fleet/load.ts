/**
 * Loads every cluster's node objects from the management cluster in one round of fixed requests (plus one per
 * infrastructure machine kind in use), through the same store request, paging, failure handling and access
 * judgement as one cluster's load (../data/load.ts). Lists the dashboard store already holds complete are read
 * from it.
 *
 * Whether a list is complete is asked as the tab asks it (a SelfSubjectAccessReview per resource): first for all
 * namespaces; when the user may not list all of them, for each fleet workspace their clusters live in (so the
 * number of reviews follows the workspaces, never the clusters). A list the user may see only part of is
 * `partial`: no finding rests on an object missing from it, as in the tab.
 */
import { PLAN_SECRET_TYPE, bootstrapRef, namespaceOf } from '../engine';
import type { Availability, InputName, KubeObject } from '../engine';
import { ListReads } from '../data/load-core';
import type { DiagnosisInput } from '../data/input';
import type { AccessReviews } from '../data/access';
import { trimMgmtCluster } from '../data/mgmt-cluster';
import type { ListForm } from '../data/requests';
import { clusterTarget } from '../data/target';
import type { ClusterTarget, Dispatch, LoadIssue, RequestRecord } from '../data/types';
import { nodeCopies } from './node-copies';
import { fleetInfraKinds, fleetInfraMachinesRequest, fleetInitialRequests } from './requests';
import type { FleetListName, FleetRequest } from './requests';
import type { FleetStoreLists } from './store-lists';

/** A failure of one of the fleet's requests: a node input, or the cluster lists themselves. */
export interface FleetIssue extends Omit<LoadIssue, 'input'> {
  input: InputName | FleetListName;
}

/** One request of a fleet load (or of one cluster's load, when the fleet view is scoped to a cluster). */
export interface FleetRequestRecord {
  input: FleetRequest['input'] | RequestRecord['input'];
  url: string;
}

function isNodeInput(input: FleetRequest['input']): input is InputName {
  return input !== 'clusters' && input !== 'mgmtClusters';
}

export interface FleetLoad {
  /** provisioning clusters the user may see */
  clusters: KubeObject[];
  /** their targets, as the tab would see each of them */
  targets: ClusterTarget[];
  mgmtClusters: KubeObject[];
  /** node objects of every cluster, downstream Nodes as their management Nodes' copies */
  objects: KubeObject[];
  availability: Record<InputName, Availability>;
  issues: FleetIssue[];
  requests: FleetRequestRecord[];
  loadedAt: number;
  /** what the fleet diagnoses: every cluster, these objects, the downstream Nodes left to each cluster's tab */
  input: DiagnosisInput;
}

export interface FleetLoadOptions {
  now?: () => number;
  fromStore?: FleetStoreLists;
  /** how to ask for lists: `filter` when Steve runs with its SQL cache (see ../data/requests.ts) */
  form?: ListForm;
  /** whether the user may list a resource in full; without it every list counts as complete */
  reviews?: AccessReviews;
}

function trimmedMgmtClusters(items: unknown[]): KubeObject[] {
  return items.map(trimMgmtCluster).filter((c): c is KubeObject => !!c);
}

/** Inputs whose objects live in the clusters' fleet workspaces (management Nodes live in one namespace per cluster). */
const IN_WORKSPACES = new Set<FleetRequest['input']>([
  'machines', 'planSecrets', 'bootstraps', 'infraMachines', 'capiClusters', 'machineDeployments', 'machineSets', 'machineHealthChecks',
]);
const CAPI_INPUTS = ['capiClusters', 'machineDeployments', 'machineSets', 'machineHealthChecks'] as const;

export async function loadFleetData(dispatch: Dispatch, options: FleetLoadOptions = {}): Promise<FleetLoad> {
  const now = options.now ?? Date.now;
  // Downstream Nodes are never asked for: their copies stand in, and the rules that need the Node itself wait
  // for the cluster's tab (engine/nodes-left-to-tab.ts).
  const reads = new ListReads<FleetRequest['input'], FleetRequest>(dispatch, { fromStore: options.fromStore });
  const initial = fleetInitialRequests(options.form).map((request) => ({ request, result: reads.read(request) }));
  const clustersAnswer = initial.find((f) => f.request.input === 'clusters')?.result;
  const workspaces: Promise<string[]> = clustersAnswer ? clustersAnswer.then((r) => (r.ok ? [...new Set(r.value.map(namespaceOf).filter((ns): ns is string => !!ns))] : [])) : Promise.resolve([]);
  const mayListAll = async(request: FleetRequest): Promise<boolean> => {
    const reviews = options.reviews;

    if (!reviews || !isNodeInput(request.input) || await reviews(request.access)) {
      return true;
    }
    const namespaces = IN_WORKSPACES.has(request.input) ? await workspaces : [];

    return namespaces.length > 0 && (await Promise.all(namespaces.map((namespace) => reviews({ ...request.access, namespace })))).every(Boolean);
  };
  // Reviews are asked alongside the lists, not after them.
  const reviewed = initial.map((f) => mayListAll(f.request));
  const settled = await Promise.all(initial.map(async(f, i) => ({
    request: f.request, result: await f.result, complete: await reviewed[i]
  })));

  for (const { request, result, complete } of settled) {
    reads.take(request, result, complete, request.input === 'mgmtClusters' ? trimmedMgmtClusters : undefined);
  }

  const clusters = reads.list('clusters');
  const targets = clusters.map((c) => clusterTarget(c)).filter((t): t is ClusterTarget => !!t);
  const machines = reads.list('machines');
  const machinesRead = reads.wasRead('machines');

  // Infrastructure machines: one request per kind the machines use (or their clusters' pools expect), across the fleet.
  const kinds = machinesRead ? fleetInfraKinds(machines, targets) : [];
  const infra = await Promise.all(kinds.map((kind) => {
    const request = fleetInfraMachinesRequest(kind);

    return Promise.all([reads.read(request), mayListAll(request)]).then(([result, complete]) => ({
      request, result, complete
    }));
  }));

  for (const { request, result, complete } of infra) {
    // One unreadable kind makes the whole input unreadable to the engine.
    reads.take(request, result, complete);
  }
  if (kinds.length === 0 && machinesRead) {
    reads.availability.infraMachines = reads.availability.machines;
  }

  const planSecrets = reads.list('planSecrets').filter((s) => s._type === PLAN_SECRET_TYPE);
  const mgmtNodes = reads.list('mgmtNodes');
  // Machines that use RKE bootstraps have a plan secret and a bootstrap each: none at all means they are hidden.
  const usesRkeBootstrap = machines.some((m) => bootstrapRef(m)?.kind === 'RKEBootstrap');

  reads.hidden('planSecrets', usesRkeBootstrap, planSecrets.length);
  reads.hidden('bootstraps', usesRkeBootstrap, reads.list('bootstraps').length);
  const mgmtClusters = reads.list('mgmtClusters');
  const objects = [
    ...clusters, ...mgmtClusters, ...CAPI_INPUTS.flatMap((input) => reads.list(input)), ...machines, ...planSecrets, ...reads.list('bootstraps'),
    ...reads.list('infraMachines'), ...mgmtNodes, ...nodeCopies(mgmtNodes),
  ];
  const loadedAt = now();

  return {
    clusters,
    targets,
    mgmtClusters,
    objects,
    availability: reads.availability,
    issues:       reads.issues,
    requests:     reads.requests,
    loadedAt,
    input:        {
      targets, objects, availability: reads.availability, now: loadedAt, nodesLeftToTab: true
    },
  };
}
