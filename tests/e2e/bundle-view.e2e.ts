/**
 * The bundle view: the embedded Rancher API serves a diagnostics bundle (made from a scenario, as the tab's export
 * makes one) as a cluster, and the real dashboard shows it as a view: the bundle's banner on the tab and the
 * cluster's other pages, ages as they were when it was made, no refresh, every write and the registration
 * command disabled with the reason.
 */
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { createBundle } from '../../pkg/node-health/export';
import type { NodeHealthBundle } from '../../pkg/node-health/export';
import { sayDurationMs } from '../../pkg/node-health/report/durations';
import { cliTranslator } from '../../cli/l10n';
import { buildScenario, GHOST_MACHINE } from '../../scenarios/catalog';
import { OUTPUT_DIR } from './harness';
import {
  dashboardTime, gotoCluster, machineRow, NH, openNodeHealthTab, SHELL, waitForShell
} from './dashboard';
import type { E2eTest } from './runner';

const NS = 'fleet-default';
const CLUSTER = 'dev-k3s';
const en = cliTranslator('en-us');
const READ_ONLY = en('nodeHealth.bundleView.readOnly');

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

/** The ghost etcd cluster's bundle, made at the scenario's own time (weeks or months before the test runs). */
function ghostBundle(): NodeHealthBundle {
  const s = buildScenario('ghost-etcd');

  return createBundle({
    objects: [...s.objects, ...Object.values(s.downstream).flat()], now: s.now, t: en, rancherVersion: 'v2.11.3', extensionVersion: '0.1.0'
  });
}

let bundle: NodeHealthBundle | null = null;

export const BUNDLE_VIEW_TESTS: E2eTest[] = [
  {
    name:      'bundle view: the banner, ages at the bundle\'s creation, no refresh, every write disabled with its reason',
    scenarios: [],
    timeoutMs: 240000,
    bundle() {
      const dir = join(OUTPUT_DIR, 'bundle-view');

      bundle = ghostBundle();
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${ CLUSTER }-bundle.json`), JSON.stringify(bundle, null, 2));

      return join(dir, `${ CLUSTER }-bundle.json`);
    },
    async run(t) {
      assert(bundle, 'the bundle was not made');
      const made = bundle;
      const madeAtMs = Date.parse(made.createdAt);

      assert(Date.now() - madeAtMs > 86400000, 'the bundle must be older than a day for its ages to tell');
      const { page } = await t.session();

      await gotoCluster(page, t.dev.url, NS, CLUSTER, 'node-health');
      await openNodeHealthTab(page);

      // The banner says whose bundle it is, when and by what it was made, and that it is read-only.
      const banner = page.locator('[data-testid="node-health-bundle-banner"]');
      const headline = await banner.locator('[data-testid="node-health-bundle-headline"]').innerText();

      assert(headline === en('nodeHealth.bundleView.banner', {
        cluster: CLUSTER, madeAt: dashboardTime(made.createdAt), madeBy: en('nodeHealth.bundleView.madeBy', { version: '0.1.0' })
      }), `the banner says ${ headline }`);
      assert((await banner.innerText()).includes('Rancher v2.11.3'), 'the banner does not name the Rancher version');
      // On the tab only the tab's own banner, not the cluster page's as well.
      assert(await page.locator('[data-testid="node-health-bundle-panel"]').count() === 0, 'the banner shows twice on the tab');

      // No refresh, no registration command: disabled, with the reason.
      for (const id of ['node-health-refresh', 'node-health-registration']) {
        const button = page.locator(`[data-testid="${ id }"]`);

        assert(await button.isDisabled(), `${ id } is not disabled`);
        assert(await button.getAttribute('title') === READ_ONLY, `${ id } does not say why`);
      }
      // The banner says it once: the header neither repeats it nor shows a load time.
      assert((await page.locator('[data-testid="node-health-tab"] .node-health__status').innerText()).trim() === '', 'the header repeats the banner');
      await banner.scrollIntoViewIfNeeded();
      await t.shot(page, 'banner');

      // Ages as they were when the bundle was made; absolute times the bundle's own.
      const record = made.records.find((r) => r.machine === GHOST_MACHINE);

      assert(record?.statusSince, 'the bundle has no record of the ghost machine');
      const row = machineRow(page, NS, GHOST_MACHINE).locator('xpath=ancestor::tr[1]');
      const since = (await row.locator('td').last().innerText()).trim();
      const atMade = sayDurationMs(madeAtMs - Date.parse(record.statusSince), en);
      const atNow = sayDurationMs(Date.now() - Date.parse(record.statusSince), en);

      assert(since === atMade, `the ghost's age reads ${ since }, not ${ atMade } as when the bundle was made (now it would be ${ atNow })`);

      // Every write, and the registration command for the node, disabled with the reason.
      await machineRow(page, NS, GHOST_MACHINE).click();
      const detail = page.locator(NH.detail);

      await detail.waitFor({ state: 'visible', timeout: 30000 });
      const denied = detail.locator('[data-testid^="node-health-action-denied-"]');

      await denied.first().waitFor({ state: 'visible', timeout: 30000 });
      const reasons = await denied.evaluateAll((els) => els.map((e) => [e.getAttribute('data-testid'), (e.textContent || '').trim()]));
      const offered = new Set(record.findings.flatMap((f) => f.actions));

      assert(offered.has('remove-finalizers') && offered.has('re-register'), `the ghost's findings offer ${ [...offered].join(', ') }`);
      for (const id of offered) {
        const reason = reasons.find(([testid]) => testid === `node-health-action-denied-${ id }`);

        assert(reason?.[1]?.endsWith(READ_ONLY), `${ id } is not refused with the reason: ${ JSON.stringify(reasons) }`);
      }
      assert(await detail.locator('button[data-testid^="node-health-action-"]').count() === 0, 'an action button is offered');
      const created = record.created ?? '';

      await detail.locator('[data-testid="node-health-timeline"]').waitFor({ state: 'visible', timeout: 30000 });
      assert((await detail.locator('[data-testid="node-health-timeline"]').innerText()).includes(dashboardTime(created)),
        `the timeline does not show the machine's own creation time ${ created }`);
      await t.shot(page, 'tab');

      // Nothing is read again by itself: past the 15 s a live cluster's tab waits between loads, no list was asked for.
      const machineLists = () => t.mock.requests().filter((r) => r.path.includes('cluster.x-k8s.io.machines') && r.path.includes('include=')).length;
      const before = machineLists();

      assert(before > 0, 'the tab\'s load was not seen');
      await page.waitForTimeout(17000);
      assert(machineLists() === before, `the tab read the machines again (${ machineLists() - before } times)`);

      // The cluster's other pages: its Machines tab shows the banner through the masthead panel, and its Node
      // Health column the machines as judged when the bundle was made.
      await page.locator(SHELL.machinesTabButton).click();
      await page.locator('[data-testid="node-health-bundle-panel"]').first().waitFor({ state: 'visible', timeout: 30000 });
      assert((await page.locator('[data-testid="node-health-bundle-panel"]').first().innerText()).includes(headline), 'the Machines tab shows another banner');
      const ghostMachine = page.locator(`${ SHELL.machinesTab } tbody tr.main-row`).filter({ has: page.getByText(GHOST_MACHINE, { exact: true }) });

      await ghostMachine.locator('[data-testid="node-health-machine-cell"]').waitFor({ state: 'visible', timeout: 60000 });
      assert((await ghostMachine.locator('[data-testid="node-health-machine-cell"]').innerText()).includes('Error'), 'the Machines tab does not show the ghost in error');
      await t.shot(page, 'machines tab');

      // Rancher's own writes (the Machines tab's Delete, …) cannot be disabled by an extension: the API refuses them.
      const refused = await page.evaluate(async(path) => {
        const res = await fetch(path, { method: 'DELETE', headers: { 'x-api-csrf': (document.cookie.match(/CSRF=([^;]+)/) || [])[1] || '' } });

        return res.status;
      }, `/v1/cluster.x-k8s.io.machines/${ NS }/${ GHOST_MACHINE }`);

      assert(refused === 403, `deleting the bundle's machine answered ${ refused }`);

      // The machine's own page: its Node Health tab is as read-only as the cluster's, under the masthead's banner.
      await page.goto(`${ t.dev.url }/c/_/manager/cluster.x-k8s.io.machine/${ NS }/${ GHOST_MACHINE }`, { waitUntil: 'domcontentloaded', timeout: 180000 });
      await waitForShell(page);
      await page.locator(NH.tabButton).click();
      const recordTab = page.locator('[data-testid="node-health-record-tab"]');

      await recordTab.locator('[data-testid="node-health-plan"]').waitFor({ state: 'visible', timeout: 60000 });
      // On the tab, the tab's own banner stands in for the masthead's panel, as on the cluster's page.
      assert(await recordTab.locator('[data-testid="node-health-bundle-headline"]').innerText() === headline, 'the machine\'s tab shows no banner');
      assert(await page.locator('[data-testid="node-health-bundle-panel"]').count() === 0, 'the banner shows twice on the machine\'s tab');
      assert(await recordTab.locator('[data-testid="node-health-record-refresh"]').count() === 0, 'the machine\'s tab offers a refresh');
      assert(await recordTab.locator('button[data-testid^="node-health-action-"]').count() === 0, 'the machine\'s tab offers an action');
      const recordDenied = await recordTab.locator('[data-testid^="node-health-action-denied-"]').allInnerTexts();

      assert(recordDenied.length > 0 && recordDenied.every((text) => text.trim().endsWith(READ_ONLY)), `the machine's tab does not say why: ${ JSON.stringify(recordDenied) }`);
      await t.shot(page, 'machine page');
    },
  },
];
