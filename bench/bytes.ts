/**
 * Bytes of the Node Health tab's loads, as the browser benchmark (tests/e2e/perf.ts) counts them, without a
 * browser: the embedded Rancher API serves the `large-2000` and `huge-10000` clusters, and the tab's own session
 * (data/session.ts: its loader, requests and change watch over Steve's websocket) loads them over HTTP, as the
 * command line's `--server` does. Counted are the uncompressed bodies of the tab's list requests (those asking
 * for `include` fields) and every websocket frame, from the embedded API's traffic meter. Bytes do not depend
 * on the machine, so one run says it. As in the dashboard, the Machines (which the cluster page loads before it
 * draws its tabs) and the management cluster come from the store (data/store-lists.ts, over fake getters holding
 * what the dashboard's own requests, without `include`, returned); `--no-store` asks Steve for every list, as the
 * command line does. One line per cluster size:
 *   bytes nodes=<n> first_load=<bytes> refresh_unchanged=<bytes, worst of the refreshes with nothing changed>
 *     refresh_changed=<bytes after one Machine changed> by_input=<input>:<bytes of the first load>,…
 *   yarn -s bench:bytes [--nodes 2000,10000] [--no-sql-cache] [--no-store] [--json]
 */
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { startMockRancher } from '../mock-rancher/server';
import type { MockRancher } from '../mock-rancher/server';
import type { TrafficEntry } from '../mock-rancher/traffic';
import { apiTokenFor } from '../mock-rancher/users';
import { HUGE_CLUSTER, HUGE_SCENARIO, LARGE_CLUSTER } from '../scenarios/catalog';
import { findCluster, listFormOfServer, rancherDispatch } from '../cli/rancher';
import { ChangeWatch } from '../pkg/node-health/data/changes';
import type { SocketLike } from '../pkg/node-health/data/changes';
import { TabSession } from '../pkg/node-health/data/session';
import { initialRequests } from '../pkg/node-health/data/requests';
import { storeChanges, storeLists } from '../pkg/node-health/data/store-lists';
import type { StoreLists } from '../pkg/node-health/data/store-lists';
import type { ClusterTarget, Dispatch } from '../pkg/node-health/data/types';
import { STEVE_TYPES } from '../pkg/node-health/engine';
import type { InputName } from '../pkg/node-health/engine';

const NAMESPACE = 'fleet-default';
/** Refreshes with nothing changed: the first one after the first load is where a watch that starts late shows. */
const UNCHANGED_REFRESHES = 3;

function scenarioOf(nodes: number): { scenario: string, cluster: string } {
  return nodes === 10000 ? { scenario: HUGE_SCENARIO, cluster: HUGE_CLUSTER.name } : { scenario: `large-${ nodes }`, cluster: LARGE_CLUSTER.name };
}

/** The tab's lists ask for `include` fields; websocket frames count whatever they carry (as in perf.ts). */
function isTabTraffic(e: TrafficEntry): boolean {
  return e.kind === 'ws' || e.path.includes('include=');
}

function total(entries: TrafficEntry[]): number {
  return entries.filter(isTabTraffic).reduce((sum, e) => sum + e.bytes, 0);
}

const pathOf = (url: string) => url.replace(/\?.*$/, '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same Machine written again by its controller: the only change of the next refresh. */
function changeOneMachine(mock: MockRancher, cluster: string): void {
  const info = mock.store.scope('local')?.types.fromSteveName('cluster.x-k8s.io.machine');
  const machine = info ? mock.store.list('local', info.id, NAMESPACE).find((m) => m.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === cluster) : undefined;

  if (!info || !machine) {
    throw new Error('no Machine to change');
  }
  mock.store.touch('local', info, NAMESPACE, machine.metadata.name);
}

/**
 * What the dashboard's store holds when the tab opens: every Machine (the cluster page's findAll) and the
 * management clusters (loaded at login), read with the dashboard's own requests, which ask for no `include`.
 */
async function dashboardStore(dispatch: Dispatch, target: ClusterTarget): Promise<StoreLists> {
  const machines = await dispatch('management/request', { url: `/v1/${ STEVE_TYPES.machine }s` });
  const mgmtCluster = target.mgmtId ? await dispatch('management/request', { url: `/v1/${ STEVE_TYPES.mgmtCluster }s/${ target.mgmtId }` }) : null;
  const getters = {
    'management/haveAll': (type: string) => type === STEVE_TYPES.machine,
    'management/all':     (type: string) => (type === STEVE_TYPES.machine ? machines.data : []),
    'management/byId':    (type: string, id: string) => (type === STEVE_TYPES.mgmtCluster && id === target.mgmtId ? mgmtCluster : null),
  };

  return storeLists(getters, target);
}

export interface BytesFigure {
  nodes: number;
  mode: 'sql-cache' | 'no-sql-cache';
  firstLoad: number;
  refreshUnchanged: number;
  refreshChanged: number;
  byInput: Partial<Record<InputName | 'ws', number>>;
}

async function measure(nodes: number, sqlCache: boolean, withStore: boolean): Promise<BytesFigure> {
  const { scenario, cluster } = scenarioOf(nodes);
  const mock = await startMockRancher({
    scenarios: [scenario], port: 0, logRequests: 'problems', sqlCache, log: () => undefined, kubelets: false
  });
  const token = apiTokenFor('admin');
  const dispatch = rancherDispatch({
    origin: mock.url, token, insecure: false
  });
  const watch = new ChangeWatch(mock.url, (url) => new WebSocket(url, { headers: { authorization: `Bearer ${ token }` } }) as unknown as SocketLike);
  const session = new TabSession(dispatch, watch);

  try {
    const target = await findCluster(dispatch, cluster, mock.url);
    const form = await listFormOfServer(dispatch);
    const storeSent = storeChanges();
    const refresh = async(): Promise<TrafficEntry[]> => {
      // The store as the dashboard's own watch keeps it, before the tab polls; its requests are not the tab's.
      const sent = storeSent.next(withStore ? await dashboardStore(dispatch, target) : {});

      mock.traffic.take();
      const view = await session.refresh({
        target, form, fromStore: sent.lists, storeUnchanged: sent.unchanged
      });

      if (view.fatal) {
        throw new Error(`the load failed: ${ view.fatal.kind } ${ view.fatal.message ?? '' }`);
      }
      // What the watch says about this load arrives within a moment: counted with it.
      await sleep(300);

      return mock.traffic.take();
    };
    const first = await refresh();
    const unchanged: number[] = [];

    for (let i = 0; i < UNCHANGED_REFRESHES; i++) {
      unchanged.push(total(await refresh()));
      process.stderr.write(`nodes=${ nodes } refresh ${ i + 1 } with nothing changed: ${ unchanged[i] } bytes\n`);
    }
    changeOneMachine(mock, cluster);
    await sleep(300);
    const changed = total(await refresh());
    // Pages after the first differ in their query only; any other list asking for fields is an infrastructure kind's.
    const inputOf = new Map(initialRequests(target, form).map((r) => [pathOf(r.url), r.input]));
    const byInput: BytesFigure['byInput'] = {};

    for (const e of first.filter(isTabTraffic)) {
      const input = e.kind === 'ws' ? 'ws' : (inputOf.get(pathOf(e.path)) ?? 'infraMachines');

      byInput[input] = (byInput[input] ?? 0) + e.bytes;
    }

    return {
      nodes, mode: sqlCache ? 'sql-cache' : 'no-sql-cache', firstLoad: total(first), refreshUnchanged: Math.max(...unchanged), refreshChanged: changed, byInput
    };
  } finally {
    session.close();
    await mock.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      nodes:          { type: 'string', default: '2000,10000' },
      'no-sql-cache': { type: 'boolean', default: false },
      'no-store':     { type: 'boolean', default: false },
      json:           { type: 'boolean', default: false },
    },
  });
  const sizes = String(values.nodes).split(',').map(Number);

  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error('--nodes takes a comma-separated list of positive integers');
  }
  for (const nodes of sizes) {
    const figure = await measure(nodes, !values['no-sql-cache'], !values['no-store']);
    const mode = figure.mode === 'sql-cache' ? '' : `mode=${ figure.mode } `;

    const json = {
      nodes, mode: figure.mode, first_load: figure.firstLoad, refresh_unchanged: figure.refreshUnchanged, refresh_changed: figure.refreshChanged, by_input: figure.byInput
    };

    process.stdout.write(values.json ? `${ JSON.stringify(json) }\n` : `bytes ${ mode }nodes=${ nodes } first_load=${ figure.firstLoad } ` +
      `refresh_unchanged=${ figure.refreshUnchanged } refresh_changed=${ figure.refreshChanged } ` +
      `by_input=${ Object.entries(figure.byInput).map(([k, v]) => `${ k }:${ v }`).join(',') }\n`);
  }
}

main().catch((e) => {
  process.stderr.write(`${ e instanceof Error ? e.stack : String(e) }\n`);
  process.exit(1);
});
