/**
 * `yarn -s e2e:perf`: Rancher's own Machines tab against the Node Health tab on the 2,000-node cluster and the
 * 10,000-node one (huge-10000), in one browser session of the real dashboard per cluster and Steve mode: with
 * its SQL cache (ui-sql-cache on, the default from Rancher 2.12) and, at 2,000 nodes, without. Each try
 * navigates inside the app (no reload) from Home to the cluster's page opened on one tab, and times from that
 * navigation to the tab's first table row being on screen; tries alternate between the two tabs, and the
 * median of each is reported. Then, on the open Node Health tab, five refreshes with nothing changed and one
 * after a Machine changed. Lines on stdout (the mode only where it is not the default, sql-cache):
 *   ui-perf [mode=no-sql-cache] nodes=<n> node_health_ms=<median> machines_tab_ms=<median> ratio=<node_health/machines_tab> bytes=<first load>
 *     bytes_sent=<the same as sent> verdicts_ms=<median> [heap_after_tries_mb=<the page's JS heap after all the tries>]
 *   ui-open [mode=no-sql-cache] nodes=<n> first_rows_ms=<median> machines_tab_ms=<median> ratio=… blocked_open_ms=<median long-task time from
 *     the page having drawn its tabs until a second after the verdicts> blocked_open_machines_tab_ms=<the same from the page
 *     having drawn its tabs until a second after the Machines tab's rows: what the cluster page blocks there itself>
 *     blocked_open_own_ms=<of the long-task time of one more, traced, opening of the Node Health tab (on a page of its
 *     own, after a first visit), the share whose CPU samples were in the extension's code (tests/e2e/trace.ts); the rest is
 *     the cluster page's, Vue's, the store's and the collector's; -1 where the trace lacks its marks>
 *     heap_mb=<page JS heap after one visit of the Node Health tab>
 *     heap_machines_tab_mb=<after one visit of Rancher's Machines tab> heap_after_tries_mb=<after all the tries> bytes=<first load>
 *     bytes_sent=<the same as sent> verdicts_ms=<median>
 * The tab's first rows may be the Machines the page holds, each still checking; `verdicts_ms` is the time to the
 * diagnosed rows (the counts strip on screen), and the first load's bytes and blocked time run until then.
 *   ui-refresh [mode=no-sql-cache] nodes=<n> blocked_ms=<median long-task time of a refresh with nothing changed>
 *     blocked_changed_ms=<the refresh after one Machine changed> spikes_max_ms=<the worst unchanged refresh>
 *     bytes_changed=<after one Machine changed> bytes_changed_sent=<the same as sent> bytes_unchanged=<nothing changed>
 * Bytes are what the embedded API sent, uncompressed (`bytes…`) and as sent (`…sent`: gzip-compressed, as Rancher's
 * API writer compresses every answer for a browser, which always accepts gzip): the bodies of the tab's list requests (they alone ask
 * for `include` fields) and every websocket frame in the window (the dashboard's own socket too: an upper bound).
 * The heap (after a garbage collection) is in ui-open at every size, and in ui-perf at 10,000 nodes as before. Rancher's
 * cluster page leaves 60-140 MB behind on every visit, so the tries' page holds several visits' worth: `heap_mb` and
 * `heap_machines_tab_mb` are each taken on a page of its own, loaded at Home and opened once on that tab (a second
 * after its rows, or the verdicts, and two more for what lands late); `heap_after_tries_mb` is the tries' page.
 * Then Rancher's own cluster list against the Node Health fleet page on a fleet of 200 clusters of 50 nodes,
 * with Steve's SQL cache (the default from Rancher 2.12), one line:
 *   fleet-perf clusters=200 nodes=10000 fleet_ms=<median> cluster_list_ms=<median> ratio=<fleet/cluster_list>
 * For the fleet the embedded API is restarted to serve the fleet alone, and every try starts from a newly loaded
 * Home page: both views load their data from Rancher, none is left in the page from the try before.
 * Progress goes to stderr, with a breakdown: when the cluster page had drawn its tabs (Rancher draws all of
 * them at once, after loading its own data), and how much of the Node Health time came after that.
 * E2E_DEV_URL / E2E_MOCK_PORT reuse a running dev server as in run.ts; E2E_PERF_TRIES sets the number of tries
 * per tab (default 5, 3 at 10,000 nodes); E2E_PERF_RUNS the runs (default
 * 2000:sql-cache,2000:no-sql-cache,10000:sql-cache; `none` for the fleet's line alone); E2E_PERF_FLEET=off leaves the fleet's line out.
 * The embedded API is restarted on the same port for each run; the dashboard reloads, reading the feature again.
 */
import type { Browser, Page } from 'playwright-core';
import { startMockRancher } from '../../mock-rancher/server';
import type { MockRancher } from '../../mock-rancher/server';
import type { TrafficEntry } from '../../mock-rancher/traffic';
import { HUGE_CLUSTER, HUGE_SCENARIO, LARGE_CLUSTER } from '../../scenarios/catalog';
import { OPENING, clusterPath, gotoHome, waitForShell } from './dashboard';
import { attribute, attributionText, startTrace, timeOpening } from './trace';
import {
  launchBrowser, log, openContext, openPage, screenshot, startDevServer
} from './harness';

const FLEET = { clusters: 200, nodesPerCluster: 50 };
const FLEET_ROW = {
  'cluster-list': '[data-testid="cluster-list"] tbody tr.main-row',
  fleet:          '[data-testid="node-health-fleet"] tbody tr.main-row',
};
const FLEET_PATH = { 'cluster-list': '/c/_/manager/provisioning.cattle.io.cluster', fleet: '/c/_/manager/node-health' };

type FleetView = keyof typeof FLEET_ROW;
const NAMESPACE = 'fleet-default';
const ROW = OPENING.rows;
const VERDICTS = OPENING.verdicts;
const REFRESH_BUTTON = '[data-testid="node-health-refresh"]';
const REFRESHES = 5;

type TabName = keyof typeof ROW;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);

  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

interface Bytes {
  /** uncompressed */
  bytes: number;
  /** as sent (gzip, as Steve sends a browser its answers) */
  sent: number;
}

/** Bytes of the tab's own requests (its lists ask for `include` fields) and of every websocket frame. */
function tabBytes(entries: TrafficEntry[]): Bytes {
  const tab = entries.filter((e) => e.kind === 'ws' || e.path.includes('include='));

  return { bytes: tab.reduce((sum, e) => sum + e.bytes, 0), sent: tab.reduce((sum, e) => sum + e.sentBytes, 0) };
}

/**
 * One refresh by the tab's button: the long-task time on the page's main thread from the click until the tab
 * is idle again (plus half a second for what the update draws), and the bytes the API sent meanwhile.
 */
async function timeRefresh(page: Page, mock: MockRancher): Promise<{ blockedMs: number, bytes: Bytes }> {
  mock.traffic.take();
  await page.evaluate(`(() => {
    window.__nhLongTasks = [];
    window.__nhLongTaskObserver?.disconnect();
    window.__nhLongTaskObserver = new PerformanceObserver((list) => window.__nhLongTasks.push(...list.getEntries().map((e) => e.duration)));
    window.__nhLongTaskObserver.observe({ type: 'longtask' });
  })()`);
  await page.locator(REFRESH_BUTTON).click();
  await page.waitForFunction(`(() => { const b = document.querySelector(${ JSON.stringify(REFRESH_BUTTON) }); return b && !b.disabled; })()`,
    undefined, { timeout: 300000, polling: 50 });
  await page.waitForTimeout(500);
  const blockedMs = await page.evaluate(`(() => {
    window.__nhLongTaskObserver.disconnect();
    return window.__nhLongTasks.reduce((a, b) => a + b, 0);
  })()`) as number;

  return { blockedMs, bytes: tabBytes(mock.traffic.take()) };
}

/** The page's JS heap after a garbage collection, in MB. */
async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);

  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');

    return Math.round(usedSize / 1048576);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The page's JS heap after one visit of the cluster page on `tab`: a newly loaded Home page, the in-app navigation
 * to the tab, its rows (the Node Health tab's verdicts), then two seconds for the lists that land late.
 */
async function oneVisitHeap(browser: Browser, devUrl: string, cluster: string, tab: TabName): Promise<number> {
  const { page } = await openPage(await openContext(browser, devUrl));

  try {
    await page.goto(`${ devUrl }/home`, { waitUntil: 'domcontentloaded', timeout: 300000 });
    await waitForShell(page, 300000);
    await page.waitForTimeout(1000);
    const home = await heapMb(page);

    await timeOpening(page, `${ clusterPath(NAMESPACE, cluster) }#${ tab }`, ROW[tab], tab === 'node-health' ? VERDICTS : undefined);
    await page.waitForTimeout(2000);
    const heap = await heapMb(page);

    log(`one visit of ${ tab }: heap ${ home } MB at Home, ${ heap } MB after the visit`);

    return heap;
  } finally {
    await page.context().close().catch(() => undefined);
  }
}

/**
 * Of the long tasks of opening the Node Health tab, the ms whose CPU samples were in the extension's code (trace.ts),
 * on a page of its own: loaded at Home, one visit first (the dashboard's scripts and the tab's chunks are loaded then,
 * as in the tries after the first), and the second, from Home again, traced; -1 where the trace lacks its marks.
 */
async function ownBlockedOnOpening(browser: Browser, devUrl: string, cluster: string, label: string): Promise<number> {
  const { page } = await openPage(await openContext(browser, devUrl));
  const path = `${ clusterPath(NAMESPACE, cluster) }#node-health`;

  try {
    await page.goto(`${ devUrl }/home`, { waitUntil: 'domcontentloaded', timeout: 300000 });
    await waitForShell(page, 300000);
    await timeOpening(page, path, ROW['node-health'], VERDICTS);
    await page.evaluate(() => (window as any).$globalApp.$router.push('/home'));
    await waitForShell(page);
    await page.waitForTimeout(2000);
    const stop = await startTrace(page);

    await timeOpening(page, path, ROW['node-health'], VERDICTS);
    const traced = await attribute(await stop());

    log(`${ label } traced opening: ${ traced ? `${ Math.round(traced.blocked) } ms blocked after the page was drawn, ${ Object.entries(traced.totals).map(([k, v]) => `${ k } ${ Math.round(v) }`).join(', ') }` : 'marks missing' }`);
    if (traced) {
      process.stderr.write(attributionText(traced));
    }

    return traced ? Math.round(traced.totals.ours ?? 0) : -1;
  } finally {
    await page.context().close().catch(() => undefined);
  }
}

/** A controller's status write to one Machine of the cluster: the only change of the next refresh. */
function changeOneMachine(mock: MockRancher, cluster: string): void {
  const scope = mock.store.scope('local');
  const info = scope?.types.fromSteveName('cluster.x-k8s.io.machine');
  const machine = info ? mock.store.list('local', info.id, NAMESPACE).find((m) => m.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === cluster) : undefined;

  if (!info || !machine) {
    throw new Error('no Machine to change');
  }
  mock.store.touch('local', info, NAMESPACE, machine.metadata.name);
}

const MODES = { 'sql-cache': true, 'no-sql-cache': false } as const;

type Mode = keyof typeof MODES;

interface Run {
  nodes: number;
  mode: Mode;
}

function scenarioOf(nodes: number): { scenario: string, cluster: string } {
  return nodes === 10000 ? { scenario: HUGE_SCENARIO, cluster: HUGE_CLUSTER.name } : { scenario: `large-${ nodes }`, cluster: LARGE_CLUSTER.name };
}

/** One run's tries in a fresh browser context (the dashboard reads ui-sql-cache when it loads). */
async function measure(browser: Browser, devUrl: string, mock: MockRancher, run: Run, tries: number): Promise<void> {
  const { page } = await openPage(await openContext(browser, devUrl));
  const label = `${ run.mode } nodes=${ run.nodes }`;
  const modeField = run.mode === 'sql-cache' ? '' : `mode=${ run.mode } `;
  const { cluster } = scenarioOf(run.nodes);

  try {
    const times: Record<TabName, number[]> = { 'machine-pools': [], 'node-health': [] };
    const pageDrawn: Record<TabName, number[]> = { 'machine-pools': [], 'node-health': [] };
    const verdicts: number[] = [];
    const blockedOpen: number[] = [];
    // The same window on Rancher's Machines tab (from its page being drawn until a second after its rows): what
    // the cluster page itself blocks there, for comparison.
    const blockedOpenMachines: number[] = [];
    let firstLoad: Bytes = { bytes: 0, sent: 0 };

    await page.goto(`${ devUrl }/home`, { waitUntil: 'domcontentloaded', timeout: 300000 });
    await waitForShell(page, 300000);
    for (let i = 0; i < tries; i++) {
      for (const tab of ['machine-pools', 'node-health'] as TabName[]) {
        await page.evaluate(() => (window as any).$globalApp.$router.push('/home'));
        await waitForShell(page);
        await page.waitForTimeout(1000);
        mock.traffic.take();
        const timed = await timeOpening(page, `${ clusterPath(NAMESPACE, cluster) }#${ tab }`, ROW[tab], tab === 'node-health' ? VERDICTS : undefined).catch(async(e) => {
          await screenshot(page, `perf-${ run.mode }-${ run.nodes }-${ tab }-FAILED`).catch(() => undefined);
          throw e;
        });

        if (tab === 'node-health') {
          const load = tabBytes(mock.traffic.take());

          firstLoad = load.bytes > firstLoad.bytes ? load : firstLoad;
        }
        times[tab].push(timed.rows);
        if (tab === 'node-health') {
          blockedOpen.push(timed.blockedAfterDrawn);
          verdicts.push(timed.done);
        } else {
          blockedOpenMachines.push(timed.blockedAfterDrawn);
        }
        pageDrawn[tab].push(timed.pageDrawn);
        log(`${ label } try ${ i + 1 }/${ tries }: ${ tab } rows after ${ Math.round(timed.rows) } ms` +
          `${ tab === 'node-health' ? `, verdicts after ${ Math.round(timed.done) } ms` : '' }, ${ Math.round(timed.blockedAfterDrawn) } ms blocked after the page was drawn` +
          ` (page drawn after ${ Math.round(timed.pageDrawn) } ms)`);
        if (i === 0) {
          await screenshot(page, `perf-${ run.mode }-${ run.nodes }-${ tab }`);
        }
      }
    }
    const nodeHealth = Math.round(median(times['node-health']));
    const machines = Math.round(median(times['machine-pools']));
    const nhPage = Math.round(median(pageDrawn['node-health']));
    const nhVerdicts = Math.round(median(verdicts));

    log(`${ label } breakdown: in the Node Health tries the cluster page had drawn its tabs after ${ nhPage } ms (median); ` +
      `the tab's first rows came ${ nodeHealth - nhPage } ms after that, its own load, diagnosis and verdicts ${ nhVerdicts - nhPage } ms after that`);
    // The tries' page, on the Node Health tab now: what every visit left, and what the tab keeps after a load.
    const heapAfterTries = await heapMb(page);
    // One visit each, on pages of their own.
    const heapMachines = await oneVisitHeap(browser, devUrl, cluster, 'machine-pools');
    const heap = await oneVisitHeap(browser, devUrl, cluster, 'node-health');
    const ownBlocked = await ownBlockedOnOpening(browser, devUrl, cluster, label);
    const ratio = (nodeHealth / machines).toFixed(2);

    process.stdout.write(`ui-perf ${ modeField }nodes=${ run.nodes } node_health_ms=${ nodeHealth } machines_tab_ms=${ machines } ` +
      `ratio=${ ratio } bytes=${ firstLoad.bytes } bytes_sent=${ firstLoad.sent } verdicts_ms=${ nhVerdicts }${ run.nodes >= 10000 ? ` heap_after_tries_mb=${ heapAfterTries }` : '' }\n`);
    process.stdout.write(`ui-open ${ modeField }nodes=${ run.nodes } first_rows_ms=${ nodeHealth } machines_tab_ms=${ machines } ratio=${ ratio } ` +
      `blocked_open_ms=${ Math.round(median(blockedOpen)) } blocked_open_machines_tab_ms=${ Math.round(median(blockedOpenMachines)) } blocked_open_own_ms=${ ownBlocked } heap_mb=${ heap } heap_machines_tab_mb=${ heapMachines } heap_after_tries_mb=${ heapAfterTries } bytes=${ firstLoad.bytes } bytes_sent=${ firstLoad.sent } verdicts_ms=${ nhVerdicts }\n`);

    // Refreshes: the tab has loaded; let the dashboard settle first.
    await page.waitForTimeout(2000);
    const blocked: number[] = [];
    const unchanged: number[] = [];

    for (let i = 0; i < REFRESHES; i++) {
      const timed = await timeRefresh(page, mock);

      blocked.push(timed.blockedMs);
      unchanged.push(timed.bytes.bytes);
      log(`${ label } refresh ${ i + 1 }/${ REFRESHES }: blocked ${ Math.round(timed.blockedMs) } ms, ${ timed.bytes.bytes } bytes`);
    }
    changeOneMachine(mock, cluster);
    await page.waitForTimeout(1500);
    const changed = await timeRefresh(page, mock);

    log(`${ label } refresh after one Machine changed: blocked ${ Math.round(changed.blockedMs) } ms, ${ changed.bytes.bytes } bytes (${ changed.bytes.sent } sent)`);
    process.stdout.write(`ui-refresh ${ modeField }nodes=${ run.nodes } blocked_ms=${ Math.round(median(blocked)) } ` +
      `blocked_changed_ms=${ Math.round(changed.blockedMs) } spikes_max_ms=${ Math.round(Math.max(...blocked)) } ` +
      `bytes_changed=${ changed.bytes.bytes } bytes_changed_sent=${ changed.bytes.sent } bytes_unchanged=${ Math.round(median(unchanged)) }\n`);
  } finally {
    await page.context().close().catch(() => undefined);
  }
}

/** The fleet page against Rancher's cluster list, alternating, each try from a newly loaded Home page. */
async function measureFleet(browser: Browser, devUrl: string, tries: number): Promise<void> {
  const { page } = await openPage(await openContext(browser, devUrl));

  try {
    const fleetTimes: Record<FleetView, number[]> = { 'cluster-list': [], fleet: [] };

    for (let i = 0; i < tries; i++) {
      for (const view of ['cluster-list', 'fleet'] as FleetView[]) {
        // A fresh page each time: neither finds the other's lists in the store, nor the fleet its last diagnosis.
        // Chromium may give up on a reload while the last page's large lists are still arriving: once more then.
        await gotoHome(page, devUrl).catch(async(e) => {
          log(`fleet try ${ i + 1 }: reloading Home failed (${ String(e?.message ?? e).split('\n')[0] }), once more`);
          await page.waitForTimeout(2000);
          await gotoHome(page, devUrl);
        });
        await page.waitForTimeout(1000);
        const timed = await timeOpening(page, FLEET_PATH[view], FLEET_ROW[view]).catch(async(e) => {
          await screenshot(page, `perf-${ view }-FAILED`).catch(() => undefined);
          throw e;
        });

        fleetTimes[view].push(timed.rows);
        log(`fleet try ${ i + 1 }/${ tries }: ${ view } rows after ${ Math.round(timed.rows) } ms`);
        if (i === 0) {
          // A page still busy with its data may not answer in time: the figure matters, the picture does not.
          await screenshot(page, `perf-${ view }`).catch((e) => log(`no screenshot of ${ view }: ${ String(e?.message ?? e).split('\n')[0] }`));
        }
      }
    }
    const fleetMs = Math.round(median(fleetTimes.fleet));
    const listMs = Math.round(median(fleetTimes['cluster-list']));

    process.stdout.write(`fleet-perf clusters=${ FLEET.clusters } nodes=${ FLEET.clusters * FLEET.nodesPerCluster } fleet_ms=${ fleetMs } cluster_list_ms=${ listMs } ratio=${ (fleetMs / listMs).toFixed(2) }\n`);
  } finally {
    await page.context().close().catch(() => undefined);
  }
}

function parseRuns(spec: string): Run[] {
  // `none`: only the fleet's line.
  return spec.split(',').filter((part) => part.trim() && part.trim() !== 'none').map((part) => {
    const [nodes, mode = 'sql-cache'] = part.trim().split(':');

    if (!/^\d+$/.test(nodes) || !(mode in MODES)) {
      throw new Error(`bad E2E_PERF_RUNS entry ${ part } (nodes:mode, modes: ${ Object.keys(MODES).join(', ') })`);
    }

    return { nodes: Number(nodes), mode: mode as Mode };
  });
}

async function main(): Promise<void> {
  const runs = parseRuns(process.env.E2E_PERF_RUNS || '2000:sql-cache,2000:no-sql-cache,10000:sql-cache');
  let port = process.env.E2E_MOCK_PORT ? Number(process.env.E2E_MOCK_PORT) : 0;
  let mock: MockRancher | undefined;
  let dev: Awaited<ReturnType<typeof startDevServer>> | undefined;
  let browser: Browser | undefined;

  try {
    for (const run of runs) {
      await mock?.close();
      mock = undefined;
      const started = await startMockRancher({
        scenarios: [scenarioOf(run.nodes).scenario], port, log, logRequests: 'problems', sqlCache: MODES[run.mode], kubelets: false
      });

      mock = started;
      port = started.port;
      dev ??= process.env.E2E_DEV_URL ? undefined : await startDevServer(started.url);
      browser ??= await launchBrowser();
      const tries = Number(process.env.E2E_PERF_TRIES || (run.nodes >= 10000 ? 3 : 5));

      await measure(browser, process.env.E2E_DEV_URL || (dev?.url as string), started, run, tries);
    }
    if (process.env.E2E_PERF_FLEET === 'off') {
      return;
    }
    await mock?.close();
    mock = await startMockRancher({
      scenarios: [`fleet-${ FLEET.clusters }x${ FLEET.nodesPerCluster }`], port, log, logRequests: 'problems', sqlCache: true, kubelets: false
    });
    port = mock.port;
    dev ??= process.env.E2E_DEV_URL ? undefined : await startDevServer(mock.url);
    browser ??= await launchBrowser();
    await measureFleet(browser, process.env.E2E_DEV_URL || (dev?.url as string), Number(process.env.E2E_PERF_TRIES || 5));
  } finally {
    await browser?.close().catch(() => undefined);
    await dev?.stop().catch(() => undefined);
    await mock?.close().catch(() => undefined);
  }
}

main().catch((e) => {
  process.stderr.write(`e2e:perf: ${ e?.stack || e }\n`);
  process.exit(1);
});
