/**
 * The fleet in the real dashboard: the Node Health column on Cluster Management's cluster list and Machines tab,
 * the fleet page from the side navigation, and a click through to a record in its cluster's tab.
 */
import type { Page } from 'playwright-core';
import { GHOST_MACHINE } from '../../scenarios/catalog';
import {
  clusterPath, contrasts, gotoHome, routerPush, SHELL
} from './dashboard';
import type { E2eTest } from './runner';

const NS = 'fleet-default';
const GHOST_KEY = `machine:${ NS }/${ GHOST_MACHINE }`;

export const FLEET = {
  clusterCell:  '[data-testid="node-health-cluster-cell"]',
  machineCell:  '[data-testid="node-health-machine-cell"]',
  page:         '[data-testid="node-health-fleet"]',
  rows:         '[data-testid="node-health-fleet"] tbody tr.main-row',
  summary:      '[data-testid="node-health-fleet-summary"]',
  search:       '[data-testid="node-health-fleet-search"]',
  link:         (key: string) => `[data-testid="node-health-fleet-link-${ key }"]`,
  clusterList:  '/c/_/manager/provisioning.cattle.io.cluster',
  detailRow:    (key: string) => `[data-testid="node-health-detail-row-${ key }"]`,
};

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

/** The cluster list's row of a cluster. */
function clusterListRow(page: Page, name: string) {
  return page.locator('tbody tr.main-row').filter({ has: page.getByText(name, { exact: true }) });
}

export const FLEET_TESTS: E2eTest[] = [
  {
    name:      'fleet: the cluster list shows each cluster\'s unhealthy nodes in a Node Health column',
    timeoutMs: 300000,
    async run(t) {
      const { page, problems } = await t.session();

      await gotoHome(page, t.dev.url);
      await routerPush(page, FLEET.clusterList);
      const ghost = clusterListRow(page, 'dev-k3s');

      await ghost.locator(FLEET.clusterCell).waitFor({ state: 'visible', timeout: 120000 });
      assert(await ghost.locator('[data-testid="node-health-cluster-error"]').count() === 1, 'dev-k3s: no error count');
      assert(await clusterListRow(page, 'demo-rke2').locator(FLEET.clusterCell).count() === 0, 'the healthy cluster shows counts');
      assert(await page.locator('thead th').filter({ hasText: 'Node Health' }).count() === 1, 'no Node Health column header');
      await t.shot(page, 'cluster-list');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name:      'fleet: the cluster list shows what concerns a whole cluster, edge-k3s\'s disconnected agent',
    timeoutMs: 300000,
    async run(t) {
      const { page, problems } = await t.session();

      await gotoHome(page, t.dev.url);
      await routerPush(page, FLEET.clusterList);
      const edge = clusterListRow(page, 'edge-k3s');
      const agent = edge.locator('[data-testid="node-health-cluster-level-cluster-agent-disconnected"]');

      // Its nodes look healthy in what Rancher last heard: the cell must still not read as healthy.
      await agent.waitFor({ state: 'visible', timeout: 120000 });
      assert((await agent.innerText()).trim() === 'Cluster agent disconnected', `edge-k3s's cell says: ${ await edge.locator(FLEET.clusterCell).innerText() }`);
      assert(await edge.locator('[data-testid="node-health-cluster-error"], [data-testid="node-health-cluster-warning"]').count() === 0, 'edge-k3s shows unhealthy nodes');
      // q-rke2: one etcd member of three down, quorum at risk; nw-rke2: no worker machine.
      assert(await clusterListRow(page, 'q-rke2').locator('[data-testid="node-health-cluster-level-etcd-quorum"]').count() === 1, 'q-rke2: its etcd quorum at risk is not shown');
      assert(await clusterListRow(page, 'nw-rke2').locator('[data-testid="node-health-cluster-level-role-missing"]').count() === 1, 'nw-rke2: its missing worker role is not shown');
      await edge.scrollIntoViewIfNeeded();
      await t.shot(page, 'cluster-list-edge-k3s');
      await edge.locator(FLEET.clusterCell).click();
      await page.waitForURL((url) => url.pathname === clusterPath(NS, 'edge-k3s') && url.hash === '#node-health', { timeout: 60000 });
      await page.locator('[data-testid="node-health-cluster-finding-cluster-agent-disconnected"]').waitFor({ state: 'visible', timeout: 120000 });
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name:      'fleet: the fleet page lists the unhealthy nodes and opens a record in its cluster\'s tab',
    timeoutMs: 300000,
    async run(t) {
      const { page, problems } = await t.session();

      await gotoHome(page, t.dev.url);
      await routerPush(page, FLEET.clusterList);
      // From Cluster Management's side navigation.
      await page.locator('nav a, .side-nav a').filter({ hasText: 'Node Health' }).first().click();
      await page.locator(FLEET.rows).first().waitFor({ state: 'visible', timeout: 120000 });
      await page.locator(FLEET.summary).waitFor({ state: 'visible' });
      await page.locator('[data-testid="node-health-fleet-blocked-fleet-default/dev-k3s"]').waitFor({ state: 'visible' });
      // What concerns a whole cluster: edge-k3s's agent is not connected.
      await page.locator('[data-testid="node-health-fleet-cluster-finding-fleet-default/edge-k3s-cluster-agent-disconnected"]').waitFor({ state: 'visible' });
      await t.shot(page, 'fleet-page');
      // The severity before each cluster's finding is text: the warnings' too must reach WCAG AA contrast.
      const severities = await contrasts(page, `${ FLEET.summary } [data-severity]`);
      const low = severities.filter((s) => s.ratio < 4.5);

      assert(severities.some((s) => /warning/i.test(s.text)), `no warning among the cluster findings: ${ severities.map((s) => s.text).join('; ') }`);
      assert(low.length === 0, `severities below 4.5:1: ${ low.map((s) => `${ s.text } (${ s.ratio }:1)`).join('; ') }`);

      await page.locator(FLEET.search).fill(GHOST_MACHINE);
      await page.locator(FLEET.link(GHOST_KEY)).click();
      await page.waitForURL((url) => url.pathname === clusterPath(NS, 'dev-k3s') && url.hash === '#node-health', { timeout: 60000 });
      await page.locator(FLEET.detailRow(GHOST_KEY)).waitFor({ state: 'visible', timeout: 120000 });
      await t.shot(page, 'record-in-tab');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name:      'fleet: the cluster\'s Machines tab shows each machine\'s status and top finding',
    timeoutMs: 300000,
    async run(t) {
      const { page } = await t.session();

      await gotoHome(page, t.dev.url);
      await routerPush(page, `${ clusterPath(NS, 'dev-k3s') }#machine-pools`);
      const cells = page.locator(`${ SHELL.machinesTab } ${ FLEET.machineCell }`);

      await cells.first().waitFor({ state: 'visible', timeout: 120000 });
      const ghostRow = page.locator(`${ SHELL.machinesTab } tbody tr.main-row`).filter({ has: page.getByText(GHOST_MACHINE, { exact: true }) });

      assert((await ghostRow.locator(FLEET.machineCell).innerText()).includes('Error'), 'the ghost machine is not shown in error');
      await t.shot(page, 'machines-tab');
    },
  },
];
