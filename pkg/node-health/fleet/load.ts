/**
 * Loads every cluster's node objects from the management cluster in one round of fixed requests (plus one per
 * infrastructure machine kind in use), through the same store request, paging and failure handling as one
 * cluster's load (../data/load.ts). Lists the dashboard store already holds complete are read from it.
 */
import { PLAN_SECRET_TYPE } from '../engine';
import type { Availability, InputName, KubeObject } from '../engine';
import { availabilityOf, fetchCollection, settle, worse } from '../data/load';
import type { Settled } from '../data/load';
import { infraType } from '../data/requests';
import type { InfraKind } from '../data/requests';
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
}

export async function loadFleetData(dispatch: Dispatch, options: FleetLoadOptions = {}): Promise<FleetLoad> {
  const now = options.now ?? Date.now;
  const requests: FleetRequestRecord[] = [];
  const issues: FleetIssue[] = [];
  // Downstream Nodes are never asked for: their copies stand in, and the rules that need the Node itself wait
  // for the cluster's tab (see fleet/diagnosis.ts).
  const availability = {
    machines: 'absent', planSecrets: 'absent', bootstraps: 'absent', infraMachines: 'absent', mgmtNodes: 'absent', nodes: 'absent'
  } as Record<InputName, Availability>;
  const byInput = new Map<FleetRequest['input'], KubeObject[]>();

  const run = (request: FleetRequest): Promise<Settled<KubeObject[]>> => {
    const stored = options.fromStore?.[request.input as keyof FleetStoreLists];

    if (stored) {
      return Promise.resolve({ ok: true, value: stored });
    }

    return settle(fetchCollection(dispatch, request, requests, request.input === 'planSecrets' ? sanitizePlanSecret : undefined));
  };
  const initial = fleetInitialRequests().map((request) => ({ request, result: run(request) }));
  const settled = await Promise.all(initial.map(async(f) => ({ request: f.request, result: await f.result })));

  for (const { request, result } of settled) {
    if (result.ok) {
      byInput.set(request.input, result.value);
      if (isNodeInput(request.input)) {
        availability[request.input] = 'ok';
      }
    } else {
      if (isNodeInput(request.input)) {
        availability[request.input] = availabilityOf(result.failure.kind);
      }
      issues.push({ input: request.input, ...result.failure });
    }
  }

  const clusters = byInput.get('clusters') ?? [];
  const targets = clusters.map((c) => clusterTarget(c)).filter((t): t is ClusterTarget => !!t);
  const machines = byInput.get('machines') ?? [];

  // Infrastructure machines: one request per kind the machines use (or their clusters' pools expect), across the fleet.
  const kinds: InfraKind[] = availability.machines === 'ok' ? fleetInfraKinds(machines, targets) : [];
  const infra = await Promise.all(kinds.map(async(kind) => {
    const request = fleetInfraMachinesRequest(kind);

    return { request, result: await run(request) };
  }));
  const infraMachines: KubeObject[] = [];

  for (const { request, result } of infra) {
    const subject = infraType(request.infra as InfraKind);

    if (result.ok) {
      infraMachines.push(...result.value);
      availability.infraMachines = worse(availability.infraMachines, 'ok');
    } else {
      availability.infraMachines = worse(availability.infraMachines, availabilityOf(result.failure.kind));
      issues.push({
        input: 'infraMachines', ...result.failure, subject
      });
    }
  }
  if (kinds.length === 0 && availability.machines === 'ok') {
    availability.infraMachines = 'ok';
  }

  const planSecrets = (byInput.get('planSecrets') ?? []).filter((s) => s._type === PLAN_SECRET_TYPE);
  const mgmtNodes = byInput.get('mgmtNodes') ?? [];

  // Steve answers a list the user may not read with an empty list. Machines that use RKE bootstraps have a plan
  // secret and a bootstrap each: none at all means they are hidden, not missing.
  const usesRkeBootstrap = machines.some((m) => m?.spec?.bootstrap?.configRef?.kind === 'RKEBootstrap');

  for (const input of ['planSecrets', 'bootstraps'] as const) {
    const found = input === 'planSecrets' ? planSecrets.length : (byInput.get('bootstraps') ?? []).length;

    if (availability[input] === 'ok' && usesRkeBootstrap && found === 0) {
      availability[input] = 'forbidden';
      issues.push({
        input, kind: 'hidden', status: null, message: null
      });
    }
  }

  return {
    clusters,
    targets,
    mgmtClusters: byInput.get('mgmtClusters') ?? [],
    objects:      [
      ...clusters, ...(byInput.get('mgmtClusters') ?? []), ...machines, ...planSecrets, ...(byInput.get('bootstraps') ?? []), ...infraMachines, ...mgmtNodes, ...nodeCopies(mgmtNodes),
    ],
    availability,
    issues,
    requests,
    loadedAt: now(),
  };
}
