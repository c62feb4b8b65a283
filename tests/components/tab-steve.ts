/**
 * A Steve stand-in for the Node Health tab's tests: answers `management/request` from a scenario the way
 * Rancher does: label and field selectors (or not, like Steve's SQL cache), include/exclude, pagination
 * through `pagination.next`, an empty list for objects the user may not read, and the shell's error shapes.
 */
import type { InputName } from '@pkg/node-health/engine';
import type { KubeObject, Scenario } from '../../scenarios/types';
import { steveType, toSteve } from '../../scenarios/steve';
import { matchesLabels, parseLabelSelector } from '../../mock-rancher/query';

export const STEVE_BASE = 'https://rancher.example.com';

export type Failure = { status: number; message?: string } | { network: true };

export interface FakeSteveOptions {
  pageSize?: number;
  /** Steve's SQL cache ignores labelSelector and fieldSelector */
  ignoreSelectors?: boolean;
  /** Steve with its SQL cache: the ui-sql-cache feature is on, `filter=metadata.labels[k]=v` and `_type` are read, selectors ignored */
  sqlCache?: boolean;
  /** inputs the user may not list in full: access reviews say no (the lists themselves are as given) */
  partial?: InputName[];
  /** Steve drops links.update from objects the user may not change */
  canUpdate?: boolean;
  /** Rancher's management objects carry links.update "blocked" instead */
  blockedUpdate?: boolean;
  /** what Steve does for a namespace the user may not list: an empty list */
  hidden?: InputName[];
  /** a proxy on the way that drops include/exclude: Steve sends whole objects */
  dropFieldParams?: boolean;
  fail?: Partial<Record<SteveInput, Failure>>;
  /** requests to URLs that match fail so (checked before `fail`) */
  failUrl?: (url: string) => Failure | undefined;
  /** what the user may read: Steve leaves everything else out of its lists (RBAC per object) */
  visible?: (obj: KubeObject) => boolean;
}

/** What a request reads: one of the engine's inputs, or the management cluster. */
export type SteveInput = InputName | 'mgmtCluster';

export interface FakeSteve {
  dispatch: (type: string, payload?: any) => Promise<any>;
  /** every requested URL, in order (access reviews apart) */
  urls: string[];
  /** every SelfSubjectAccessReview, as its resource attributes */
  reviews: Record<string, string>[];
  /** every answer as it reached the browser */
  responses: { url: string; body: unknown }[];
  /** every dispatched action with its payload (promptModal included) */
  actions: { type: string; payload: any }[];
  local: KubeObject[];
  downstream: Record<string, KubeObject[]>;
  options: FakeSteveOptions;
}

const INPUT_OF_RESOURCE: Record<string, SteveInput> = {
  'cluster.x-k8s.io.machines':            'machines',
  secrets:                                'planSecrets',
  'rke.cattle.io.rkebootstraps':          'bootstraps',
  'management.cattle.io.nodes':           'mgmtNodes',
  nodes:                                  'nodes',
  'coordination.k8s.io.leases':           'leases',
  'management.cattle.io.clusters':        'mgmtCluster',
  'cluster.x-k8s.io.clusters':            'capiClusters',
  'cluster.x-k8s.io.machinedeployments':  'machineDeployments',
  'cluster.x-k8s.io.machinesets':         'machineSets',
  'cluster.x-k8s.io.machinehealthchecks': 'machineHealthChecks',
};

export function inputOfUrl(url: string): SteveInput {
  const path = new URL(url, STEVE_BASE).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const resource = path[0] === 'k8s' ? path[4] : path[1];

  return INPUT_OF_RESOURCE[resource] ?? 'infraMachines';
}

function matchesSelector(obj: KubeObject, selector: string | null): boolean {
  // Kubernetes' grammar, set-based terms (`key in (a,b)`) included, as the embedded Rancher API reads it.
  return !selector || matchesLabels(obj.metadata.labels, parseLabelSelector(selector));
}

function matchesFields(obj: KubeObject, selector: string | null): boolean {
  if (!selector) {
    return true;
  }

  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');

    return key === 'type' ? obj.type === value : key === 'metadata.name' ? obj.metadata.name === value : true;
  });
}

/** The SQL cache's `filter` over labels, names and a secret's `_type`, each term exact. */
function matchesSqlFilters(obj: KubeObject, filters: string[]): boolean {
  // Parameters are ANDed, a parameter's comma-separated terms ORed.
  return filters.every((f) => f.split(',').some((term) => {
    const label = /^metadata\.labels\[([^\]]+)\]=(.*)$/.exec(term);

    if (label) {
      return obj.metadata.labels?.[label[1]] === label[2];
    }
    const name = /^metadata\.name=(.*)$/.exec(term);

    if (name) {
      return obj.metadata.name === name[1];
    }
    const type = /^_type=(.*)$/.exec(term);

    return type ? obj.type === type[1] : true;
  }));
}

function errorBody(status: number, message: string): Record<string, unknown> {
  const body = {
    type: 'error', status, code: status === 403 ? 'Forbidden' : 'Error', message
  };

  // The shell rejects with the body and keeps the HTTP status out of sight (plugins/steve/actions.js).
  Object.defineProperty(body, '_status', { value: status });

  return body;
}

export function fakeSteve(scenario: Scenario, options: FakeSteveOptions = {}): FakeSteve {
  const local: KubeObject[] = JSON.parse(JSON.stringify(scenario.objects));
  const downstream: Record<string, KubeObject[]> = JSON.parse(JSON.stringify(scenario.downstream));
  const urls: string[] = [];
  const responses: { url: string; body: unknown }[] = [];
  const actions: { type: string; payload: any }[] = [];
  const reviews: Record<string, string>[] = [];
  const steve: FakeSteve = {
    urls, reviews, responses, actions, local, downstream, options, dispatch: null as any
  };

  const answer = (url: string) => {
    const u = new URL(url, STEVE_BASE);
    const path = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const downstreamId = path[0] === 'k8s' ? path[2] : null;
    const [resource, namespace] = downstreamId ? [path[4], path[5]] : [path[1], path[2]];
    const input = inputOfUrl(url);
    const failure = steve.options.failUrl?.(url) ?? steve.options.fail?.[input];

    if (failure) {
      if ('network' in failure) {
        return Promise.reject(Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK', isAxiosError: true }));
      }

      return Promise.reject(errorBody(failure.status, failure.message ?? `request failed with ${ failure.status }`));
    }
    const source = downstreamId ? steve.downstream[downstreamId] ?? [] : steve.local;
    // /v1/<type>/<name> of a cluster-scoped object: the object itself, as Steve answers it.
    const single = !downstreamId && namespace ? source.find((o) => `${ steveType(o) }s` === resource && !o.metadata.namespace && o.metadata.name === namespace) : undefined;

    if (single) {
      const body = JSON.parse(JSON.stringify(toSteve(single, {
        baseUrl: STEVE_BASE, include: u.searchParams.getAll('include'), exclude: u.searchParams.getAll('exclude'), now: scenario.now
      })));

      responses.push({ url, body });

      return Promise.resolve(body);
    }
    if (!downstreamId && namespace && resource === 'management.cattle.io.clusters') {
      return Promise.reject(errorBody(404, `clusters.management.cattle.io "${ namespace }" not found`));
    }
    const ignore = !!steve.options.ignoreSelectors || !!steve.options.sqlCache;
    const hidden = steve.options.hidden?.includes(input as InputName);
    const visible = steve.options.visible ?? (() => true);
    const matching = hidden ? [] : source.filter((o) => `${ steveType(o) }s` === resource && visible(o) &&
      (!namespace || o.metadata.namespace === namespace) &&
      (ignore || matchesSelector(o, u.searchParams.get('labelSelector'))) &&
      (ignore || matchesFields(o, u.searchParams.get('fieldSelector'))) &&
      (!steve.options.sqlCache || matchesSqlFilters(o, u.searchParams.getAll('filter'))));
    const offset = Number(u.searchParams.get('continue') ?? 0);
    // A request's own page size (Kubernetes' limit, the SQL cache's pagesize) before the stand-in's.
    const asked = Number(u.searchParams.get('limit') ?? u.searchParams.get('pagesize') ?? 0);
    const size = asked || (steve.options.pageSize ?? (matching.length || 1));
    const page = matching.slice(offset, offset + size);
    // The stand-in's toSteve keeps paths before renaming type to _type; Steve renames first (ToAPI).
    const dropped = !!steve.options.dropFieldParams;
    const include = dropped ? [] : u.searchParams.getAll('include').map((p) => (p === '_type' ? 'type' : p));
    const data = page.map((o) => toSteve(o, {
      baseUrl:     STEVE_BASE,
      clusterId:   downstreamId ?? undefined,
      include,
      exclude:     dropped ? [] : u.searchParams.getAll('exclude'),
      permissions: { update: steve.options.canUpdate ?? true },
      now:         scenario.now,
    }));

    if (steve.options.blockedUpdate) {
      data.forEach((o) => {
        o.links = { ...o.links, update: 'blocked' };
      });
    }
    let next: string | undefined;

    if (offset + size < matching.length) {
      const nu = new URL(u.toString());

      nu.searchParams.set('continue', String(offset + size));
      next = nu.toString();
    }

    // The envelope as rancher/apiserver writes it: no count for an empty list, pagination only on a partial answer.
    const body = JSON.parse(JSON.stringify({
      type:         'collection',
      links:        { self: url },
      actions:      {},
      resourceType: resource,
      ...(next ? {
        pagination: {
          first: url, next, partial: true
        },
        continue: String(offset + size)
      } : {}),
      ...(matching.length ? { count: matching.length } : {}),
      data,
    }));

    // The loader never writes into an answer, so the log can keep the very object it received.
    responses.push({ url, body });

    return Promise.resolve(body);
  };

  steve.dispatch = (type: string, payload?: any) => {
    if (type === 'management/request' && String(payload?.url).includes('selfsubjectaccessreviews')) {
      const attributes = payload.data?.spec?.resourceAttributes ?? {};
      const input = INPUT_OF_RESOURCE[attributes.group ? `${ attributes.group }.${ attributes.resource }` : attributes.resource] ?? 'infraMachines';

      reviews.push(attributes);

      return Promise.resolve({ kind: 'SelfSubjectAccessReview', status: { allowed: !steve.options.partial?.includes(input as InputName) } });
    }
    actions.push({ type, payload });
    if (type === 'management/request') {
      urls.push(payload.url);

      return answer(payload.url);
    }

    return Promise.resolve();
  };

  return steve;
}

/** The management clusters as the dashboard store holds them from login, by id. */
export function mgmtClustersById(scenario: Scenario): Record<string, Record<string, unknown>> {
  const byId: Record<string, unknown> = {};

  for (const o of scenario.objects) {
    if (o.kind === 'Cluster' && o.apiVersion.startsWith('management.cattle.io/')) {
      byId[o.metadata.name] = toSteve(o, { baseUrl: STEVE_BASE, now: scenario.now });
    }
  }

  return { 'management.cattle.io.cluster': byId };
}

/** The provisioning cluster as the shell hands it to the tab (Steve shape). */
export function clusterResource(scenario: Scenario, name = scenario.clusters[0].name): Record<string, any> {
  const cluster = scenario.objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning.cattle.io/') && o.metadata.name === name);

  if (!cluster) {
    throw new Error(`no provisioning cluster ${ name } in ${ scenario.name }`);
  }

  return toSteve(cluster, { baseUrl: STEVE_BASE, now: scenario.now });
}

/**
 * The URLs of the tab's own loads: without what an opened row reads for its timeline (the Events, jobs, pods and
 * pod logs of that one record, read when it opens and again at each refresh while it is open).
 */
export function loadUrls(urls: string[]): string[] {
  return urls.filter((u) => !/\/events[/?]|\/batch\.jobs\/|\/pods\/|\/log\?/.test(u));
}
