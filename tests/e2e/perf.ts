/**
 * `yarn -s e2e:perf`: Rancher's own Machines tab against the Node Health tab on the 2,000-node cluster,
 * in one browser session of the real dashboard per Steve mode: with its SQL cache (ui-sql-cache on, the
 * default from Rancher 2.12) and without. Each try navigates inside the app (no reload) from Home
 * to the cluster's page opened on one tab, and times from that navigation to the tab's first table row
 * being on screen; tries alternate between the two tabs, and the median of each is reported, one line per mode:
 *   ui-perf mode=<sql-cache|no-sql-cache> nodes=2000 node_health_ms=<median> machines_tab_ms=<median> ratio=<node_health/machines_tab>
 * Then Rancher's own cluster list against the Node Health fleet page on a fleet of 200 clusters of 50 nodes,
 * with Steve's SQL cache (the default from Rancher 2.12), one line:
 *   fleet-perf clusters=200 nodes=10000 fleet_ms=<median> cluster_list_ms=<median> ratio=<fleet/cluster_list>
 * For the fleet the embedded API is restarted to serve the fleet alone, and every try starts from a newly loaded
 * Home page: both views load their data from Rancher, none is left in the page from the try before.
 * Progress goes to stderr, with a breakdown: when the cluster page had drawn its tabs (Rancher draws all of
 * them at once, after loading its own data), and how much of the Node Health time came after that.
 * E2E_DEV_URL / E2E_MOCK_PORT reuse a running dev server as in run.ts;
 * E2E_PERF_TRIES sets the number of tries per tab (default 5); E2E_PERF_MODES the modes (default sql-cache,no-sql-cache;
 * `none` for the fleet's line alone).
 * The embedded API is restarted on the same port for each mode; the dashboard reloads, reading the feature again.
 */
import type { Browser, Page } from 'playwright-core';
import { startMockRancher } from '../../mock-rancher/server';
import type { MockRancher } from '../../mock-rancher/server';
import { clusterPath, gotoHome, waitForShell } from './dashboard';
import {
  launchBrowser, log, openContext, openPage, screenshot, startDevServer
} from './harness';

const NODES = 2000;
const FLEET = { clusters: 200, nodesPerCluster: 50 };
const FLEET_ROW = {
  'cluster-list': '[data-testid="cluster-list"] tbody tr.main-row',
  fleet:          '[data-testid="node-health-fleet"] tbody tr.main-row',
};
const FLEET_PATH = { 'cluster-list': '/c/_/manager/provisioning.cattle.io.cluster', fleet: '/c/_/manager/node-health' };

type FleetView = keyof typeof FLEET_ROW;
const CLUSTER = { namespace: 'fleet-default', name: 'big-rke2' };
/** The cluster page has drawn its tabs: every tab's panel is in the page, shown or not. */
const PAGE_DRAWN = 'section#machine-pools';
const ROW = {
  'machine-pools': 'section#machine-pools [data-testid$="-row"]',
  'node-health':   '[data-testid="node-health-tab"] [data-testid^="node-health-table-"][data-testid$="-row"]',
};

type TabName = keyof typeof ROW;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);

  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Milliseconds from an in-app navigation to the first visible element matching `selector`, and to the cluster
 * page having drawn its tabs, measured in the page. Plain source text: tsx would wrap named functions in a
 * helper that does not exist in the page.
 */
async function timeNavigation(page: Page, path: string, selector: string): Promise<{ rows: number, pageDrawn: number }> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const selector = ${ JSON.stringify(selector) };
    const started = performance.now();
    const deadline = started + 180000;
    let pageDrawn = null;
    function tick() {
      const el = document.querySelector(selector);
      if (pageDrawn === null && document.querySelector(${ JSON.stringify(PAGE_DRAWN) })) {
        pageDrawn = performance.now() - started;
      }
      if (el && el.offsetParent !== null && el.getBoundingClientRect().height > 0) {
        resolve({ rows: performance.now() - started, pageDrawn: pageDrawn ?? performance.now() - started });
      } else if (performance.now() > deadline) {
        reject(new Error('nothing matched ' + selector + ' within 180 s'));
      } else {
        requestAnimationFrame(tick);
      }
    }
    window.$globalApp.$router.push(${ JSON.stringify(path) });
    requestAnimationFrame(tick);
  })`) as Promise<{ rows: number, pageDrawn: number }>;
}

const MODES = { 'sql-cache': true, 'no-sql-cache': false } as const;

type Mode = keyof typeof MODES;

/** One mode's tries in a fresh browser context (the dashboard reads ui-sql-cache when it loads). */
async function measure(browser: Browser, devUrl: string, mode: Mode, tries: number): Promise<void> {
  const { page } = await openPage(await openContext(browser, devUrl));

  try {
    const times: Record<TabName, number[]> = { 'machine-pools': [], 'node-health': [] };
    const pageDrawn: Record<TabName, number[]> = { 'machine-pools': [], 'node-health': [] };

    await gotoHome(page, devUrl);
    for (let i = 0; i < tries; i++) {
      for (const tab of ['machine-pools', 'node-health'] as TabName[]) {
        await page.evaluate(() => (window as any).$globalApp.$router.push('/home'));
        await waitForShell(page);
        await page.waitForTimeout(1000);
        const timed = await timeNavigation(page, `${ clusterPath(CLUSTER.namespace, CLUSTER.name) }#${ tab }`, ROW[tab]).catch(async(e) => {
          await screenshot(page, `perf-${ mode }-${ tab }-FAILED`).catch(() => undefined);
          throw e;
        });

        times[tab].push(timed.rows);
        pageDrawn[tab].push(timed.pageDrawn);
        log(`${ mode } try ${ i + 1 }/${ tries }: ${ tab } rows after ${ Math.round(timed.rows) } ms (page drawn after ${ Math.round(timed.pageDrawn) } ms)`);
        if (i === 0) {
          await screenshot(page, `perf-${ mode }-${ tab }`);
        }
      }
    }
    const nodeHealth = Math.round(median(times['node-health']));
    const machines = Math.round(median(times['machine-pools']));

    const nhPage = Math.round(median(pageDrawn['node-health']));

    log(`${ mode } breakdown: in the Node Health tries the cluster page had drawn its tabs after ${ nhPage } ms (median); ` +
      `the tab's own load, diagnosis and first rows took ${ nodeHealth - nhPage } ms after that`);
    process.stdout.write(`ui-perf mode=${ mode } nodes=${ NODES } node_health_ms=${ nodeHealth } machines_tab_ms=${ machines } ratio=${ (nodeHealth / machines).toFixed(2) }\n`);
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
        const timed = await timeNavigation(page, FLEET_PATH[view], FLEET_ROW[view]).catch(async(e) => {
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

async function main(): Promise<void> {
  const tries = Number(process.env.E2E_PERF_TRIES || 5);
  // `none`: only the fleet's line.
  const modes = (process.env.E2E_PERF_MODES || Object.keys(MODES).join(',')).split(',').map((m) => m.trim()).filter((m) => m && m !== 'none') as Mode[];
  const unknown = modes.filter((m) => !(m in MODES));

  if (unknown.length) {
    throw new Error(`unknown E2E_PERF_MODES ${ unknown.join(', ') } (modes: ${ Object.keys(MODES).join(', ') })`);
  }
  let port = process.env.E2E_MOCK_PORT ? Number(process.env.E2E_MOCK_PORT) : 0;
  let mock: MockRancher | undefined;
  let dev: Awaited<ReturnType<typeof startDevServer>> | undefined;
  let browser: Browser | undefined;

  try {
    for (const mode of modes) {
      await mock?.close();
      mock = await startMockRancher({
        scenarios: [`large-${ NODES }`], port, log, logRequests: 'problems', sqlCache: MODES[mode]
      });
      port = mock.port;
      dev ??= process.env.E2E_DEV_URL ? undefined : await startDevServer(mock.url);
      browser ??= await launchBrowser();
      await measure(browser, process.env.E2E_DEV_URL || (dev?.url as string), mode, tries);
    }
    await mock?.close();
    mock = await startMockRancher({
      scenarios: [`fleet-${ FLEET.clusters }x${ FLEET.nodesPerCluster }`], port, log, logRequests: 'problems', sqlCache: true
    });
    port = mock.port;
    dev ??= process.env.E2E_DEV_URL ? undefined : await startDevServer(mock.url);
    browser ??= await launchBrowser();
    await measureFleet(browser, process.env.E2E_DEV_URL || (dev?.url as string), tries);
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
