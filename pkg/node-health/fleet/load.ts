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
import { PLAN_SECRET_TYPE, namespaceOf } from '../engine';
import type { Availability, InputName, KubeObject } from '../engine';
import { fetchCollection, judgeAnswer, settle, worse } from '../data/load';
import type { Settled } from '../data/load';
import type { AccessReviews } from '../data/access';
import { trimMgmtCluster } from '../data/mgmt-cluster';
import type { ListForm } from '../data/requests';
import { sanitizePlanSecret } from '../data/sanitize';
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
  const requests: FleetRequestRecord[] = [];
  const issues: FleetIssue[] = [];
  // Downstream Nodes are never asked for: their copies stand in, and the rules that need the Node itself wait
  // for the cluster's tab (see fleet/diagnosis.ts).
  const availability = {
    machines:            'absent',
    planSecrets:         'absent',
    bootstraps:          'absent',
    infraMachines:       'absent',
    mgmtNodes:           'absent',
    nodes:               'absent',
    capiClusters:        'absent',
    machineHealthChecks: 'absent',
    machineDeployments:  'absent',
    machineSets:         'absent',
  } as Record<InputName, Availability>;
  const byInput = new Map<FleetRequest['input'], KubeObject[]>();

  const run = (request: FleetRequest): Promise<Settled<KubeObject[]>> => {
    const stored = options.fromStore?.[request.input as keyof FleetStoreLists];

    if (stored) {
      return Promise.resolve({ ok: true, value: stored });
    }
    const transform = request.input === 'planSecrets' ? sanitizePlanSecret : undefined;

    return settle(fetchCollection(dispatch, request, requests, transform));
  };
  const initial = fleetInitialRequests(options.form).map((request) => ({ request, result: run(request) }));
  const clustersAnswer = initial.find((f) => f.request.input === 'clusters')?.result;
  const workspaces: Promise<string[]> = clustersAnswer ? clustersAnswer.then((r) => (r.ok ? [...new Set(r.value.map(namespaceOf).filter((ns): ns is string => !!ns))] : [])) : Promise.resolve([]);
  const mayListAll = async(request: FleetRequest): Promise<boolean> => {
    const reviews = options.reviews;

    if (!reviews || await reviews(request.access)) {
      return true;
    }
    const namespaces = IN_WORKSPACES.has(request.input) ? await workspaces : [];

    return namespaces.length > 0 && (await Promise.all(namespaces.map((namespace) => reviews({ ...request.access, namespace })))).every(Boolean);
  };
  // Reviews are asked alongside the lists, not after them.
  const reviewed = initial.map((f) => (isNodeInput(f.request.input) ? mayListAll(f.request) : Promise.resolve(true)));
  const settled = await Promise.all(initial.map(async(f, i) => ({
    request: f.request, result: await f.result, complete: await reviewed[i]
  })));

  for (const { request, result, complete } of settled) {
    const { outcome, issue } = judgeAnswer(request, result, complete);

    if (result.ok) {
      byInput.set(request.input, request.input === 'mgmtClusters' ? trimmedMgmtClusters(result.value) : result.value);
    }
    if (isNodeInput(request.input)) {
      availability[request.input] = outcome;
    }
    if (issue) {
      issues.push(issue);
    }
  }

  const clusters = byInput.get('clusters') ?? [];
  const targets = clusters.map((c) => clusterTarget(c)).filter((t): t is ClusterTarget => !!t);
  const machines = byInput.get('machines') ?? [];
  const machinesRead = availability.machines === 'ok' || availability.machines === 'partial';

  // Infrastructure machines: one request per kind the machines use (or their clusters' pools expect), across the fleet.
  const kinds = machinesRead ? fleetInfraKinds(machines, targets) : [];
  const infra = await Promise.all(kinds.map(async(kind) => {
    const request = fleetInfraMachinesRequest(kind);
    const [result, complete] = await Promise.all([run(request), mayListAll(request)]);

    return {
      request, result, complete
    };
  }));
  const infraMachines: KubeObject[] = [];

  for (const { request, result, complete } of infra) {
    const { outcome, issue } = judgeAnswer(request, result, complete);

    if (result.ok) {
      infraMachines.push(...result.value);
    }
    if (issue) {
      issues.push(issue);
    }
    // One unreadable kind makes the whole input unreadable to the engine.
    availability.infraMachines = worse(availability.infraMachines, outcome);
  }
  if (kinds.length === 0 && machinesRead) {
    availability.infraMachines = availability.machines;
  }

  const planSecrets = (byInput.get('planSecrets') ?? []).filter((s) => s._type === PLAN_SECRET_TYPE);
  const mgmtNodes = byInput.get('mgmtNodes') ?? [];

  // Steve answers a list the user may not read with an empty list. Machines that use RKE bootstraps have a plan
  // secret and a bootstrap each: none at all means they are hidden, not missing.
  const usesRkeBootstrap = machines.some((m) => m?.spec?.bootstrap?.configRef?.kind === 'RKEBootstrap');

  for (const input of ['planSecrets', 'bootstraps'] as const) {
    const found = input === 'planSecrets' ? planSecrets.length : (byInput.get('bootstraps') ?? []).length;

    if ((availability[input] === 'ok' || availability[input] === 'partial') && usesRkeBootstrap && found === 0) {
      availability[input] = 'forbidden';
      issues.push({
        input, kind: 'hidden', status: null, message: null
      });
    }
  }
  const mgmtClusters = byInput.get('mgmtClusters') ?? [];

  return {
    clusters,
    targets,
    mgmtClusters,
    objects: [
      ...clusters, ...mgmtClusters, ...CAPI_INPUTS.flatMap((input) => byInput.get(input) ?? []), ...machines, ...planSecrets, ...(byInput.get('bootstraps') ?? []), ...infraMachines, ...mgmtNodes, ...nodeCopies(mgmtNodes),
    ],
    availability,
    issues,
    requests,
    loadedAt: now(),
  };
}
