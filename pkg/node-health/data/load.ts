/**
 * Loads everything the diagnosis needs for one cluster: a fixed set of Steve collections read in
 * parallel through the store's `management/request` (raw JSON, nothing is cached in the store), each
 * followed through its pages, apart from the lists the caller already has from the store (store-lists.ts).
 * Says per input whether it could be read, so the engine keeps quiet where it cannot judge and the tab
 * can say what is missing and why.
 */
import {
  LABELS, PLAN_SECRET_TYPE, asObject, bootstrapRef, classify, label, nameOf, nodeRefName, specOf
} from '../engine';
import type { Availability, InputName, KubeObject } from '../engine';
import { describeFailure } from './errors';
import type { RequestFailure } from './errors';
import {
  expectedInfraKinds, infraKindsOf, infraMachinesRequest, initialRequests, infraType
} from './requests';
import type { InfraKind, ListForm, PlannedRequest } from './requests';
import type { AccessReviews } from './access';
import { sanitizePlanSecret } from './sanitize';
import { fetchMgmtCluster } from './mgmt-cluster';
import type { StoreLists } from './store-lists';
import type {
  ClusterTarget, Dispatch, LoadIssue, LoadResult, RequestRecord
} from './types';

/** A runaway `pagination.next` chain stops here rather than loop forever. */
const MAX_PAGES = 500;

const ALL_INPUTS: InputName[] = [
  'machines', 'planSecrets', 'bootstraps', 'infraMachines', 'mgmtNodes', 'nodes', 'capiClusters', 'machineHealthChecks', 'machineDeployments', 'machineSets',
];

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
export interface ListCache {
  /** The objects last read for this request, when nothing of them can have changed since. */
  get(request: PlannedRequest): KubeObject[] | undefined;
  /** The request is about to be sent. */
  reading(request: PlannedRequest): void;
  /** Its answer, every page of it. */
  set(request: PlannedRequest, items: KubeObject[]): void;
}

class UnexpectedAnswer extends Error {}

export type Settled<T> = { ok: true; value: T } | { ok: false; failure: RequestFailure };

export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (err) {
    return { ok: false, failure: describeFailure(err) };
  }
}

/** Every page of one collection, through the store's raw request; rejects with the first failure. */
export async function fetchCollection<I extends string = RequestRecord['input']>(
  dispatch: Dispatch, request: { input: I; url: string }, log: { input: I; url: string }[], transform?: (item: unknown) => KubeObject
): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  const visited = new Set<string>();
  let url: string | null = request.url;

  while (url && !visited.has(url) && visited.size < MAX_PAGES) {
    visited.add(url);
    log.push({ input: request.input, url });
    const answer = await dispatch('management/request', { url, redirectUnauthorized: false });
    const data = asObject(answer).data;

    if (!Array.isArray(data)) {
      throw new UnexpectedAnswer(`not a collection: ${ url }`);
    }
    for (const item of data) {
      items.push(transform ? transform(item) : item);
    }
    const next = asObject(asObject(answer).pagination).next;

    url = typeof next === 'string' && next ? next : null;
  }

  return items;
}

function belongsToCluster(obj: unknown, target: ClusterTarget, labelKey: string): boolean {
  return label(obj, labelKey) === target.name || specOf(obj).clusterName === target.name;
}

export function availabilityOf(kind: LoadIssue['kind']): Availability {
  return kind === 'forbidden' || kind === 'hidden' ? 'forbidden' : 'error';
}

const AVAILABILITY_RANK: Record<Availability, number> = {
  absent: 0, ok: 1, partial: 2, forbidden: 3, error: 4
};

export function worse(a: Availability, b: Availability): Availability {
  return AVAILABILITY_RANK[b] > AVAILABILITY_RANK[a] ? b : a;
}

/**
 * What one answer makes of its input. A list the user may not read in full holds only what they may see; a 404
 * for it is the type's schema hidden.
 */
export function judgeAnswer<I extends string>(
  request: { input: I; infra?: InfraKind }, result: Settled<unknown>, mayListAll: boolean
): { outcome: Availability, issue?: Omit<LoadIssue, 'input'> & { input: I } } {
  const subject = request.infra ? { subject: infraType(request.infra) } : {};

  if (!result.ok) {
    const kind = result.failure.kind === 'not-found' && !mayListAll ? 'hidden' : result.failure.kind;

    return {
      outcome: availabilityOf(kind),
      issue:   {
        input: request.input, ...result.failure, kind, ...subject
      }
    };
  }
  if (!mayListAll) {
    return {
      outcome: 'partial',
      issue:   {
        input: request.input, kind: 'partial', status: null, message: null, ...subject
      }
    };
  }

  return { outcome: 'ok' };
}

export async function loadClusterData(dispatch: Dispatch, target: ClusterTarget, options: LoadOptions = {}): Promise<LoadResult> {
  const now = options.now ?? Date.now;
  const requests: RequestRecord[] = [];
  const issues: LoadIssue[] = [];
  const availability = Object.fromEntries(ALL_INPUTS.map((i) => [i, 'absent'])) as LoadResult['availability'];
  const byInput = new Map<InputName, KubeObject[]>();

  const form = options.form ?? 'selectors';
  const reviews = options.reviews;
  const planned = initialRequests(target, form);
  const complete = (request: PlannedRequest): Promise<boolean> => (reviews ? reviews(request.access) : Promise.resolve(true));
  const completeness = new Map<PlannedRequest, Promise<boolean>>(planned.map((request) => [request, complete(request)]));
  // A list of an earlier load that cannot have changed is used as it is; any other is read, and kept.
  const fetchList = async(request: PlannedRequest, transform?: (item: unknown) => KubeObject): Promise<KubeObject[]> => {
    const cache = options.cache;
    const cached = cache?.get(request);

    if (cached) {
      requests.push({
        input: request.input, url: request.url, reused: true
      });

      return cached;
    }
    cache?.reading(request);
    const items = await fetchCollection(dispatch, request, requests, transform);

    cache?.set(request, items);

    return items;
  };
  const fetches = planned.map((request) => {
    const stored = options.fromStore?.[request.input as keyof StoreLists];

    if (stored) {
      return { request, result: Promise.resolve<Settled<KubeObject[]>>({ ok: true, value: stored }) };
    }
    const transform = request.input === 'planSecrets' ? sanitizePlanSecret : undefined;

    return { request, result: settle(fetchList(request, transform)) };
  });
  const machinesFetch = fetches.find((f) => f.request.input === 'machines');
  const fetchInfra = (kind: InfraKind) => {
    const request = infraMachinesRequest(target, kind, form);

    completeness.set(request, complete(request));

    return settle(fetchList(request)).then((result) => ({ request, result }));
  };
  // The kinds the cluster's spec says its machines use are asked for at once, alongside the machines:
  // waiting for the machines first put a second round trip on every load.
  const early = new Map(machinesFetch ? expectedInfraKinds(target).map((kind) => [infraType(kind), fetchInfra(kind)]) : []);

  // Infrastructure machines: one request per kind the machines use. An early answer for a kind no machine
  // uses is left out, as if it had not been asked for.
  const infraFetch = machinesFetch ? machinesFetch.result.then(async(machines) => {
    if (!machines.ok) {
      return [];
    }
    const kinds = infraKindsOf(machines.value.filter((m) => belongsToCluster(m, target, LABELS.capiClusterName)));

    return Promise.all(kinds.map((kind) => early.get(infraType(kind)) ?? fetchInfra(kind)));
  }) : Promise.resolve([]);

  const mgmtClusterFetch = options.fromStore?.mgmtCluster ? Promise.resolve(options.fromStore.mgmtCluster) : (target.mgmtId ? fetchMgmtCluster(dispatch, target.mgmtId, requests) : Promise.resolve([]));
  const settled = await Promise.all(fetches.map(async(f) => ({ request: f.request, result: await f.result })));
  const infraSettled = await infraFetch;
  const mgmtCluster = await mgmtClusterFetch;
  const mayListAll = new Map<PlannedRequest, boolean>();

  for (const [request, answer] of completeness) {
    mayListAll.set(request, await answer);
  }
  const judged = (request: PlannedRequest, result: Settled<KubeObject[]>) => judgeAnswer(request, result, !!mayListAll.get(request));

  for (const { request, result } of settled) {
    const { outcome, issue } = judged(request, result);

    availability[request.input] = outcome;
    if (result.ok) {
      byInput.set(request.input, result.value);
    }
    if (issue) {
      issues.push(issue);
    }
  }

  const machines = (byInput.get('machines') ?? []).filter((m) => belongsToCluster(m, target, LABELS.capiClusterName));
  const planSecrets = (byInput.get('planSecrets') ?? []).filter((s) => s._type === PLAN_SECRET_TYPE && label(s, LABELS.rkeClusterName) === target.name);
  const bootstraps = (byInput.get('bootstraps') ?? []).filter((b) => belongsToCluster(b, target, LABELS.capiClusterName));
  const capiClusters = (byInput.get('capiClusters') ?? []).filter((c) => nameOf(c) === target.name);
  const pools = (['machineDeployments', 'machineSets', 'machineHealthChecks'] as const)
    .flatMap((input) => (byInput.get(input) ?? []).filter((o) => belongsToCluster(o, target, LABELS.capiClusterName)));
  const infraMachines: KubeObject[] = [];

  for (const { request, result } of infraSettled) {
    const subject = request.infra ? infraType(request.infra) : request.url;
    let { outcome, issue } = judged(request, result);

    if (result.ok) {
      const ofCluster = result.value.filter((i) => belongsToCluster(i, target, LABELS.capiClusterName));

      infraMachines.push(...ofCluster);
      if (ofCluster.length === 0) {
        outcome = 'forbidden';
        issue = {
          input: 'infraMachines', kind: 'hidden', status: null, message: null, subject
        };
      }
    }
    if (issue) {
      issues.push(issue);
    }
    // One unreadable kind makes the whole input unreadable to the engine.
    availability.infraMachines = worse(availability.infraMachines, outcome);
  }

  // Steve answers a list the user may not read with an empty list, not a 403. Where objects must exist
  // for what was found elsewhere, an empty answer means "hidden", and claiming "missing" would be wrong.
  const hidden = (input: InputName, expected: boolean, found: number) => {
    if ((availability[input] === 'ok' || availability[input] === 'partial') && expected && found === 0) {
      availability[input] = 'forbidden';
      issues.push({
        input, kind: 'hidden', status: null, message: null
      });
    }
  };
  const usesRkeBootstrap = machines.some((m) => bootstrapRef(m)?.kind === 'RKEBootstrap');
  const nodes = byInput.get('nodes') ?? [];
  const mgmtNodes = byInput.get('mgmtNodes') ?? [];

  hidden('planSecrets', usesRkeBootstrap, planSecrets.length);
  hidden('bootstraps', usesRkeBootstrap, bootstraps.length);
  hidden('nodes', machines.some((m) => !!nodeRefName(m)), nodes.length);
  hidden('mgmtNodes', nodes.length > 0, mgmtNodes.length);
  // Every machine belongs to a CAPI Cluster, and a pool's machines to its MachineDeployment and MachineSet.
  hidden('capiClusters', machines.length > 0, capiClusters.length);
  hidden('machineDeployments', machines.some((m) => !!label(m, LABELS.deploymentName)), pools.filter((o) => classify(o) === 'machineDeployment').length);
  hidden('machineSets', machines.some((m) => !!label(m, LABELS.machineSetName)), pools.filter((o) => classify(o) === 'machineSet').length);

  return {
    objects:  [...mgmtCluster, ...capiClusters, ...pools, ...machines, ...planSecrets, ...bootstraps, ...infraMachines, ...mgmtNodes, ...nodes],
    availability,
    issues,
    requests,
    loadedAt: now(),
  };
}
