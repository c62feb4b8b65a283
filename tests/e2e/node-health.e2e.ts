/**
 * The Node Health tab as users meet it: the real dashboard shell with the extension, against the
 * embedded Rancher API, in headless Chromium. Run with scripts/e2e.sh (or `yarn e2e`).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import type { Page } from 'playwright-core';
import {
  buildScenario, CLUSTER_HEALTH_MACHINES, DELETE_FAILED_MACHINE, FROZEN_ETCD, GHOST_MACHINE, HUGE_CLUSTER, HUGE_SCENARIO, LEAVING_ETCD_MACHINE, NOT_LINKED_MACHINE, PRE_BOOTSTRAP_MACHINE, SIGNAL_MACHINES, VIABLE_INIT_MACHINE,
  WINDOWS_CASE_MACHINE, XSS_PAYLOAD
} from '../../scenarios/catalog';
import { registrationTokenValue } from '../../scenarios/builders';
import { ghostHostReport } from '../../scenarios/host-reports';
import { control, ROOT } from './harness';
import {
  chooseFilter, contrasts, DASHBOARD_TIME, dashboardTime, gotoCluster, gotoHome, NH, openFolds, openNodeHealthTab, switchLocale, waitForShell
} from './dashboard';
import type { E2eTest, TestContext } from './runner';

const NS = 'fleet-default';
const GHOST = { cluster: 'dev-k3s', mgmtId: 'c-m-4qj7x2vd' };
const WINDOWS = { cluster: 'vs-win', mgmtId: 'c-m-w8k2p5tz' };
const EVERY = { cluster: 'ef-rke2', mgmtId: 'c-m-ef4k8w2n' };
const V1BETA2 = { cluster: 'v2-rke2', mgmtId: 'c-m-v2b8t4qe' };
const XSS_MACHINE = 'custom-17f5c1d9a8e7';
const SECRET_MARKER = 'SECRET-VALUE';
const MACHINE_TYPE = 'cluster.x-k8s.io.machine';
const SECRET_TYPE = 'secret';
/** The Node Health tab's own root element. */
const SHELL_NODE_HEALTH_PANE = '[data-testid="node-health-tab"]';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

/** Opens a cluster's page on the Node Health tab, as a user would: page first, then the tab. */
async function openTab(t: TestContext, page: Page, cluster: string): Promise<void> {
  await gotoCluster(page, t.dev.url, NS, cluster);
  await openNodeHealthTab(page);
}

/** The row toggle whose record key ends with `/<name>` (machine:<ns>/<name> or node:<cluster>/<name>). */
function rowToggle(page: Page, name: string) {
  return page.locator(`[data-testid^="node-health-toggle-"][data-testid$="/${ name }"]`);
}

/** Narrows the table to one name (the table pages large clusters) and opens that row's detail. */
async function openRow(page: Page, name: string, expand = true): Promise<void> {
  await page.locator(NH.search).fill(name);
  const toggle = rowToggle(page, name).first();

  await toggle.waitFor({ state: 'visible', timeout: 30000 });
  if (await toggle.getAttribute('aria-expanded') !== 'true') {
    await toggle.click();
  }
  await page.locator(NH.detail).first().waitFor({ state: 'visible', timeout: 15000 });
  if (expand) {
    // The tests read the evidence too; an admin opens it per finding (it is folded by default).
    await page.locator(`${ NH.detail } details[data-testid="node-health-evidence"]`).evaluateAll((els) => els.forEach((el) => {
      (el as HTMLDetailsElement).open = true;
    }));
  }
}

/**
 * One row's detail as an admin reading Chinese sees it, in a session of its own (the language choice is kept in a
 * cookie): its text, once checked for literal HTML entities, and its screenshot.
 */
async function chineseRow(t: TestContext, cluster: string, name: string, shot: string): Promise<string> {
  const zh = (await t.session('admin', 'zh-CN')).page;

  await gotoCluster(zh, t.dev.url, NS, cluster);
  await switchLocale(zh, 'zh-hans');
  await openNodeHealthTab(zh);
  await openRow(zh, name);
  const detail = await zh.locator(NH.detail).first().innerText();

  assert(!/&#39;|&quot;|&amp;/.test(detail), `literal HTML entities: ${ detail.slice(0, 400) }`);
  await zh.locator(NH.detail).first().scrollIntoViewIfNeeded();
  await t.shot(zh, shot);

  return detail;
}

async function expectFindings(page: Page, name: string, rules: string[]): Promise<void> {
  await openRow(page, name);
  for (const rule of rules) {
    const finding = page.locator(`${ NH.detail } ${ NH.finding(rule) }`);

    assert(await finding.count() > 0, `${ name }: finding "${ rule }" not shown (shown: ${ await shownFindings(page) })`);
  }
}

async function shownFindings(page: Page): Promise<string> {
  const ids = await page.locator(`${ NH.detail } [data-testid^="node-health-finding-"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));

  return ids.map((id) => String(id).replace('node-health-finding-', '')).join(', ') || 'none';
}

async function machineExists(t: TestContext, name: string): Promise<any> {
  try {
    return await control(t.mock, 'GET', `objects?cluster=local&type=${ MACHINE_TYPE }&namespace=${ NS }&name=${ name }`);
  } catch (e) {
    if (/-> 404/.test(String((e as Error).message))) {
      return undefined;
    }
    throw e;
  }
}

/** Opens the finalizer dialog for a machine and types the confirmation; returns the dialog. */
async function startFinalizerRemoval(page: Page, machine: string) {
  await openRow(page, machine);
  await page.locator(NH.action('remove-finalizers')).first().click();
  const dialog = page.locator('[data-testid="nh-remove-finalizers"]');

  await dialog.waitFor({ state: 'visible', timeout: 15000 });
  const show = dialog.locator('[data-testid="nh-show-finalizers"]');

  if (await show.count()) {
    await show.click();
  }
  await dialog.locator('[data-testid="nh-confirm-input"]').fill(machine);

  return dialog;
}

/**
 * In the page: for each element, where the browser broke its text into lines, as [text before, text after]
 * around each break (the text's characters measured one by one).
 */
async function lineBreaks(page: Page, selector: string): Promise<{ text: string; breaks: [string, string][] }[]> {
  return page.locator(selector).evaluateAll((els) => els.map((el) => {
    const text = el.textContent ?? '';
    const range = document.createRange();
    const chars: { node: Text; offset: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);

    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      for (let i = 0; i < n.data.length; i++) {
        chars.push({ node: n, offset: i });
      }
    }
    const tops = chars.map(({ node, offset }) => {
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);

      return range.getClientRects()[0]?.top ?? NaN;
    });
    const breaks: [string, string][] = [];

    for (let i = 1; i < tops.length; i++) {
      if (tops[i] > tops[i - 1] + 2) {
        breaks.push([text.slice(0, i), text.slice(i)]);
      }
    }

    return { text, breaks };
  }));
}

/** Breaks inside a field name: a letter or digit on both sides. */
function midWord(found: { text: string; breaks: [string, string][] }[]): string[] {
  return found.flatMap(({ text, breaks }) => breaks
    .filter(([before, after]) => /[A-Za-z0-9]$/.test(before) && /^[A-Za-z0-9]/.test(after))
    .map(([before, after]) => `${ text }: "${ before.slice(-12) }|${ after.slice(0, 12) }"`));
}

function zhHans(key: string): string {
  const doc = load(readFileSync(join(ROOT, 'pkg/node-health/l10n/zh-hans.yaml'), 'utf8')) as Record<string, any>;

  return key.split('.').reduce((node, part) => node?.[part], doc) as unknown as string;
}

export const TESTS: E2eTest[] = [
  {
    name: 'the dashboard starts against the embedded API and lists its clusters',
    async run(t) {
      const { page, problems } = await t.session();

      await gotoHome(page, t.dev.url);
      for (const name of [GHOST.cluster, WINDOWS.cluster, EVERY.cluster, 'big-rke2']) {
        await page.getByText(name, { exact: true }).first().waitFor({ state: 'visible', timeout: 60000 });
      }
      await t.shot(page, 'home');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name: 'seed 1: the ghost etcd machine is named by the blocking banner and its row has the findings',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      const banner = page.locator(NH.blocking);

      await banner.waitFor({ state: 'visible', timeout: 30000 });
      assert((await banner.innerText()).includes(GHOST_MACHINE), `the blocking banner does not name ${ GHOST_MACHINE }: ${ await banner.innerText() }`);
      assert(await page.locator(NH.blockingOf(GHOST_MACHINE)).count() > 0, 'no link to the ghost machine in the banner');
      await t.shot(page, 'tab with blocking banner');
      const expected = buildScenario('ghost-etcd').expected;

      for (const [name, rules] of Object.entries(expected)) {
        await expectFindings(page, name, rules);
        await t.shot(page, `row ${ name }`);
      }
      const errors = Number((await page.locator(NH.count('error')).innerText()).replace(/\D+/g, '') || '0');

      assert(errors >= 1, `the summary counts ${ errors } errors, expected the ghost machine among them`);
    },
  },
  {
    name: 'the row detail leads with the plan: the root cause, then each step once, the evidence folded',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      await openRow(page, GHOST_MACHINE, false);
      const detail = page.locator(NH.detail).first();
      const first = await detail.locator('section').first().getAttribute('data-testid');

      assert(first === 'node-health-plan', `the detail's first section is ${ first }, not the plan`);
      const root = await detail.locator('[data-testid="node-health-plan-root"]').innerText();

      assert(root.trim() === 'Root cause: Agent never checked in', `the plan's root cause says: ${ root }`);
      const steps = await detail.locator('[data-testid="node-health-plan"] ol > li > span').allInnerTexts();

      assert(steps.length >= 5 && new Set(steps).size === steps.length, `the plan's steps repeat or are too few: ${ steps.join(' | ') }`);
      assert(!steps.some((x) => /delete the machine/i.test(x)), `the plan tells to delete a machine that is deleting: ${ steps.join(' | ') }`);
      assert(/registration command/.test(steps[steps.length - 1]), `re-registering is not the last step: ${ steps[steps.length - 1] }`);
      const firstFinding = await detail.locator('article[data-testid^="node-health-finding-"]').first().getAttribute('data-testid');

      assert(firstFinding === 'node-health-finding-agent-never-checked-in', `the first finding is ${ firstFinding }`);
      const folded = await detail.locator('details[data-testid="node-health-evidence"]').evaluateAll((els) => els.every((el) => !(el as HTMLDetailsElement).open));

      assert(folded, 'the evidence is not folded by default');
      await t.shot(page, 'plan leads the row detail');
      // Rancher makes its node from the cluster's Node: with no Node yet, both wait; the host's Node is shown, not linked.
      const chain = detail.locator('[data-testid="node-health-chain"]');

      await chain.scrollIntoViewIfNeeded();
      const mgmtNode = await chain.locator('[data-testid="node-health-chain-mgmtNode"] .badge-state').innerText();
      const node = await chain.locator('[data-testid="node-health-chain-node"] .badge-state').innerText();

      assert(mgmtNode.trim() === 'Waiting' && node.trim() === 'Not linked', `the chain says Rancher node ${ mgmtNode }, Kubernetes node ${ node }`);
      await t.shot(page, 'chain of the ghost machine');
    },
  },
  {
    name: 'seed 000 end to end: a report from the ghost machine\'s host confirms why its agent never checked in',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, GHOST.cluster);
      await page.locator('[data-testid="node-health-host-reports-toggle"]').click();
      await page.locator('[data-testid="node-health-host-reports-input"]').fill(JSON.stringify(ghostHostReport(buildScenario('ghost-etcd')), null, 2));
      await page.locator('[data-testid="node-health-host-reports-add"]').click();
      const joined = page.locator('[data-testid="node-health-host-report-joined"]');

      await joined.waitFor({ state: 'visible', timeout: 15000 });
      assert((await joined.innerText()).includes(GHOST_MACHINE), `the host report did not join ${ GHOST_MACHINE }: ${ await joined.innerText() }`);
      await t.shot(page, 'host report joined');
      await openRow(page, GHOST_MACHINE);
      const finding = page.locator(`${ NH.detail } ${ NH.finding('agent-never-checked-in') }`);

      await finding.locator('[data-testid="node-health-finding-confirmed"]').waitFor({ state: 'visible', timeout: 15000 });
      const confirmation = await finding.locator('[data-testid="node-health-finding-confirmation"]').innerText();

      assert(confirmation.includes('dev-k8s-node01') && confirmation.includes(dashboardTime('2026-01-15T08:04:03Z')), `the confirmation does not name the host and the log line's time: ${ confirmation }`);
      assert((await finding.innerText()).includes('Host dev-k8s-node01'), 'no evidence read on the host');
      // The finding's head (badge and what the host showed) at the top of the screen.
      await finding.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await t.shot(page, 'agent-never-checked-in confirmed by the host');
      const check = page.locator(`${ NH.detail } [data-testid="node-health-host-check"]`);

      await check.scrollIntoViewIfNeeded();
      assert((await check.innerText()).includes(GHOST_MACHINE), 'the host check does not name the machine shown');
      await t.shot(page, 'check this host');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name: 'seed 2: the Windows workers waiting for Node Ref show the vanished VM and the name mismatch',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, WINDOWS.cluster);
      const expected = buildScenario('windows-node-ref').expected;
      const allRows = await page.locator(NH.rows).count();

      // The status filter narrows the table to the rows in error, and back.
      await chooseFilter(page, 'status', 'Error');
      const statuses = await page.locator(`${ NH.rows } td:nth-child(2)`).allInnerTexts();

      assert(statuses.length > 0 && statuses.length < allRows && statuses.every((s) => s.trim() === 'Error'), `status filter Error shows: ${ statuses.join(', ') }`);
      await t.shot(page, 'status filter');
      await chooseFilter(page, 'status', 'All');
      assert(await page.locator(NH.rows).count() === allRows, 'choosing All again does not show every row');

      for (const [name, rules] of Object.entries(expected)) {
        await expectFindings(page, name, rules);
        await t.shot(page, `row ${ name }`);
      }
      const detail = await page.locator(NH.detail).first().innerText();

      assert(expected[WINDOWS_CASE_MACHINE] && /WIN-WORKER-01/i.test(detail), 'the Windows host name is not shown in the mismatch detail');
    },
  },
  {
    name: 'a disconnected cluster agent is said above the table, for the whole cluster',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, 'edge-k3s');
      const banner = page.locator(NH.clusterRule('cluster-agent-disconnected'));

      await banner.waitFor({ state: 'visible', timeout: 30000 });
      const text = await banner.innerText();

      assert(/Cluster agent disconnected/.test(text) && /may be stale/.test(text), `the cluster finding does not say so: ${ text }`);
      const bannerTop = (await banner.boundingBox())?.y ?? Infinity;
      const firstRowTop = (await page.locator(NH.rows).first().boundingBox())?.y ?? -Infinity;

      assert(bannerTop < firstRowTop, `the cluster finding (y=${ bannerTop }) is not above the table (y=${ firstRowTop })`);
      await t.shot(page, 'cluster agent disconnected');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name: "the planner waiting for Rancher's pre-bootstrap blames no machine and calls no agent disconnected",
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, 'pb-rke2');
      const finding = page.locator(NH.clusterRule('pre-bootstrap-pending'));

      await finding.waitFor({ state: 'visible', timeout: 30000 });
      await openFolds(finding);
      const text = await finding.innerText();

      assert(/not pre-bootstrapped/.test(text) && /sync-bootstrap/.test(text), `the finding does not say what the pre-bootstrap waits for: ${ text.slice(0, 500) }`);
      assert(await page.locator(NH.clusterRule('cluster-agent-disconnected')).count() === 0, 'the agent Rancher holds disconnected is called disconnected');
      const banner = page.locator(NH.blocking);

      await banner.waitFor({ state: 'visible', timeout: 30000 });
      const said = await banner.innerText();

      assert(/The cluster is waiting/.test(said) && !/waiting for (a|this) machine/.test(said) && /holds the cluster's provisioning/.test(said), `the banner blames a machine: ${ said }`);
      assert(await page.locator(NH.blockingOf(PRE_BOOTSTRAP_MACHINE)).count() === 0, 'the banner links the machine the planner names');
      assert(!/&#39;|&quot;|&amp;/.test(text + said), `literal HTML entities: ${ (text + said).slice(0, 400) }`);
      await banner.scrollIntoViewIfNeeded();
      await t.shot(page, 'pre-bootstrap wait');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name: 'the planner waiting for a viable init node names the etcd machine still being created, and the row points to it',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, 'test');
      const finding = page.locator(NH.clusterRule('init-node-not-viable'));

      await finding.waitFor({ state: 'visible', timeout: 30000 });
      await openFolds(finding);
      const text = await finding.innerText();

      assert(/No etcd machine can be the init node/.test(text) && new RegExp(`creating server \\[fleet-default/${ VIABLE_INIT_MACHINE }\\]`).test(text), `the finding does not name the server being created: ${ text.slice(0, 600) }`);
      assert(text.includes(`logs --tail=50 -- job/${ VIABLE_INIT_MACHINE }-machine-provision`), `the create job's log is not offered: ${ text.slice(0, 600) }`);
      assert(!/&#39;|&quot;|&amp;/.test(text), `literal HTML entities: ${ text.slice(0, 400) }`);
      await finding.scrollIntoViewIfNeeded();
      await t.shot(page, 'viable init node');
      // The machine's row says the same of itself, and does not send the reader back to the cluster's wait.
      await openRow(page, VIABLE_INIT_MACHINE, false);
      const detail = await page.locator(NH.detail).first().innerText();

      assert(/cannot become cluster test's init node: its infrastructure is not ready/.test(detail), `the row does not point to the cluster's finding: ${ detail.slice(0, 600) }`);
      assert(/Its infrastructure is not ready: creating server/.test(detail) && detail.includes(`job/${ VIABLE_INIT_MACHINE }-machine-provision`), `the row does not say its server is not ready: ${ detail.slice(0, 800) }`);
      assert(!/Settle what cluster test waits for first/.test(detail), 'the row sends the reader back to the cluster');
      // What happened: the create job still runs, and the driver's last line says what it waits for.
      const running = page.locator(NH.detail).first().getByText(/create job .* started and still runs/);

      await running.waitFor({ state: 'visible', timeout: 15000 });
      assert((await page.locator(NH.detail).first().innerText()).includes('Waiting for VMware Tools to come online...'), 'the create job\'s log is not shown');
      await page.locator(NH.detail).first().scrollIntoViewIfNeeded();
      await t.shot(page, 'viable init node row');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);

      // The same in Chinese, in a context of its own (the language choice is kept in a cookie).
      const zh = (await t.session('admin', 'zh-CN')).page;

      await gotoCluster(zh, t.dev.url, NS, 'test');
      await switchLocale(zh, 'zh-hans');
      await openNodeHealthTab(zh);
      const findingZh = zh.locator(NH.clusterRule('init-node-not-viable'));

      await findingZh.waitFor({ state: 'visible', timeout: 30000 });
      await openFolds(findingZh);
      const textZh = await findingZh.innerText();

      assert(textZh.includes(zhHans('nodeHealth.rules.initNodeNotViable.title')) && textZh.includes(`job/${ VIABLE_INIT_MACHINE }-machine-provision`), `the finding is not in Chinese: ${ textZh.slice(0, 400) }`);
      assert(!/&#39;|&quot;|&amp;/.test(textZh), `literal HTML entities: ${ textZh.slice(0, 400) }`);
      await findingZh.scrollIntoViewIfNeeded();
      await t.shot(zh, 'viable init node, zh-hans');
    },
  },
  {
    name: 'a Ready Node whose providerID never reached its machine says where it stopped, in both languages',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, 'mc-t-001');
      await expectFindings(page, NOT_LINKED_MACHINE, ['node-not-linked']);
      const detail = await page.locator(NH.detail).first().innerText();

      assert(/Root cause: Node is not linked to its machine/.test(detail), `the row does not lead with the link: ${ detail.slice(0, 600) }`);
      assert(detail.includes('has the providerID rke2://mc-t-001-node1') && /CustomMachine custom-6d52ad314026, and that has none/.test(detail), `the row does not say where the providerID stopped: ${ detail.slice(0, 800) }`);
      assert(detail.includes('grep -F rke.cattle.io/machine='), 'Rancher\'s log of its look-up is not offered');
      assert(!/see the providerID finding/.test(detail), 'the row points to a finding that is not there');
      assert(!/&#39;|&quot;|&amp;/.test(detail), `literal HTML entities: ${ detail.slice(0, 400) }`);
      await page.locator(NH.detail).first().scrollIntoViewIfNeeded();
      await t.shot(page, 'node not linked row');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);

      const detailZh = await chineseRow(t, 'mc-t-001', NOT_LINKED_MACHINE, 'node not linked row, zh-hans');

      assert(detailZh.includes(zhHans('nodeHealth.rules.nodeNotLinked.name')) && detailZh.includes('rke2://mc-t-001-node1'), `the row is not in Chinese: ${ detailZh.slice(0, 400) }`);
      // The story names Rancher's node as the chain does, in Chinese too.
      assert(detailZh.includes(`${ zhHans('nodeHealth.chain.kind.mgmtNode') } c-m-`) && !detailZh.includes('Rancher node'), `the story names Rancher's node in English: ${ detailZh.slice(0, 400) }`);
    },
  },
  {
    name: 'a machine added while its cluster is paused blames the pause for its missing plan secret, in both languages',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, 'pz-rke2');
      await expectFindings(page, CLUSTER_HEALTH_MACHINES.unplanned, ['plan-secret-missing']);
      const detail = await page.locator(NH.detail).first().innerText();

      assert(detail.includes('because CAPI Cluster pz-rke2 is paused') && detail.includes('follow the cluster\'s finding (Reconciliation paused)'), `the row does not blame the pause: ${ detail.slice(0, 800) }`);
      assert(!detail.includes('Check the machine\'s RKEBootstrap'), 'the row still sends the admin to the RKEBootstrap');
      assert(!/&#39;|&quot;|&amp;/.test(detail), `literal HTML entities: ${ detail.slice(0, 400) }`);
      await page.locator(NH.detail).first().scrollIntoViewIfNeeded();
      await t.shot(page, 'paused cluster row');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);

      const detailZh = await chineseRow(t, 'pz-rke2', CLUSTER_HEALTH_MACHINES.unplanned, 'paused cluster row, zh-hans');

      assert(detailZh.includes('因为 CAPI Cluster pz-rke2 已暂停') && detailZh.includes('集群 pz-rke2 恢复后'), `the row is not in Chinese: ${ detailZh.slice(0, 600) }`);
    },
  },
  {
    name: 'a wait Rancher has said for hours that no node explains is the cluster\'s finding, in both languages, never "all healthy"',
    async run(t) {
      // The healthy cluster, saying what harvester#1993's said for three hours: its nodes stay healthy.
      const at = {
        cluster: 'local', type: 'provisioning.cattle.io.cluster', namespace: NS, name: 'demo-rke2'
      };
      const before = await control(t.mock, 'GET', `objects?cluster=local&type=${ at.type }&namespace=${ NS }&name=${ at.name }`);
      const since = new Date(Date.now() - 3 * 3600 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const waiting = (before.status.conditions as any[]).filter((c) => c.type !== 'Updated').concat({
        type: 'Updated', status: 'Unknown', reason: 'Waiting', message: 'waiting for join url to be available on bootstrap node', lastUpdateTime: since
      });

      await control(t.mock, 'POST', 'objects', {
        ...at,
        jsonPatch: [{
          op: 'replace', path: '/status/conditions', value: waiting
        }]
      });
      try {
        const { page, problems } = await t.session();

        await openTab(t, page, 'demo-rke2');
        const finding = page.locator(NH.clusterRule('unexplained-cluster-wait'));

        await finding.waitFor({ state: 'visible', timeout: 30000 });
        await openFolds(finding);
        const text = await finding.innerText();

        assert(/Rancher says the cluster waits/.test(text) && /Rancher waits for the init node's join URL/.test(text) && text.includes('waiting for join url to be available on bootstrap node'), `the finding does not say Rancher's wait: ${ text.slice(0, 600) }`);
        assert(text.includes("grep -F '[planner] rkecluster fleet-default/demo-rke2:'"), `the planner's log lines are not offered: ${ text.slice(0, 800) }`);
        assert(!/&#39;|&quot;|&amp;/.test(text), `literal HTML entities: ${ text.slice(0, 400) }`);
        assert(await page.locator('[data-testid="node-health-all-healthy"]').count() === 0, 'the cluster is called all healthy while Rancher says it waits');
        await finding.scrollIntoViewIfNeeded();
        await t.shot(page, 'cluster wait nothing explains');
        assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);

        const zh = (await t.session('admin', 'zh-CN')).page;

        await gotoCluster(zh, t.dev.url, NS, 'demo-rke2');
        await switchLocale(zh, 'zh-hans');
        await openNodeHealthTab(zh);
        const findingZh = zh.locator(NH.clusterRule('unexplained-cluster-wait'));

        await findingZh.waitFor({ state: 'visible', timeout: 30000 });
        await openFolds(findingZh);
        const textZh = await findingZh.innerText();

        assert(textZh.includes(zhHans('nodeHealth.rules.unexplainedClusterWait.title')) && textZh.includes('rke.cattle.io/join-url'), `the finding is not in Chinese: ${ textZh.slice(0, 400) }`);
        assert(!/&#39;|&quot;|&amp;/.test(textZh), `literal HTML entities: ${ textZh.slice(0, 400) }`);
        await findingZh.scrollIntoViewIfNeeded();
        await t.shot(zh, 'cluster wait nothing explains, zh-hans');
      } finally {
        await control(t.mock, 'POST', 'objects', {
          ...at,
          jsonPatch: [{
            op: 'replace', path: '/status/conditions', value: before.status.conditions
          }]
        });
      }
    },
  },
  {
    name: 'a planner that stopped on an error, and Cluster API that cannot reach the cluster, are said for the whole cluster',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, 'ps-files');
      const stopped = page.locator(NH.clusterRule('planner-error'));

      await stopped.waitFor({ state: 'visible', timeout: 30000 });
      // Its evidence and steps are shown on demand.
      await openFolds(stopped);
      const text = await stopped.innerText();

      assert(/planner stopped on an error/i.test(text) && /not authorized to access secret fleet-default\/registry-ca/.test(text), `the planner's error is not said with its words: ${ text.slice(0, 400) }`);
      assert(/object-authorized-for-clusters/.test(text), `the step for the file's authorization is missing: ${ text.slice(0, 600) }`);
      assert(!/&#39;|&quot;|&amp;/.test(text), `literal HTML entities: ${ text.slice(0, 400) }`);
      await t.shot(page, 'planner stopped on an error');

      await openTab(t, page, 'cd-rke2');
      const down = page.locator(NH.clusterRule('capi-connection-down'));

      await down.waitFor({ state: 'visible', timeout: 30000 });
      assert(/Cluster API cannot reach the cluster/.test(await down.innerText()), 'the connection finding has no title');
      // One finding for the cluster: the machines are not each called not ready for Cluster API's connection.
      assert(await page.locator(NH.rows).count() === 5, 'the cluster\'s five machines are not listed');
      assert(!(await page.locator('[data-testid="node-health-tab"]').innerText()).includes('Rancher reports it not ready'), 'a machine is called not ready for the lost connection');
      await t.shot(page, 'cluster api cannot reach the cluster');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);

      // The same in Chinese, in a context of its own (the language choice is kept in a cookie).
      const zh = (await t.session('admin', 'zh-CN')).page;

      await gotoCluster(zh, t.dev.url, NS, 'ps-files');
      await switchLocale(zh, 'zh-hans');
      await openNodeHealthTab(zh);
      const stoppedZh = zh.locator(NH.clusterRule('planner-error'));

      await stoppedZh.waitFor({ state: 'visible', timeout: 30000 });
      await openFolds(stoppedZh);
      const textZh = await stoppedZh.innerText();

      assert(textZh.includes(zhHans('nodeHealth.rules.plannerError.title')) && textZh.includes('rke.cattle.io/object-authorized-for-clusters'), `the planner's error is not in Chinese: ${ textZh.slice(0, 400) }`);
      assert(!/&#39;|&quot;|&amp;/.test(textZh), `literal HTML entities: ${ textZh.slice(0, 400) }`);
      await t.shot(zh, 'planner stopped on an error, zh-hans');
    },
  },
  {
    name: 'what the kubelet, node-problem-detector and Cluster API report is named on its row',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, 'signals-rke2');
      await expectFindings(page, SIGNAL_MACHINES.diskPressure, ['node-condition']);
      const disk = await page.locator(NH.detail).first().innerText();

      assert(/Disk pressure/i.test(disk) && /kubelet has disk pressure/.test(disk), `the disk pressure finding does not name the signal: ${ disk.slice(0, 400) }`);
      assert(!/Rancher reports it not ready/i.test(disk), 'the row falls back to the safety net although the signal has a name');
      await t.shot(page, 'disk pressure');
      await expectFindings(page, SIGNAL_MACHINES.healthCheck, ['machine-signal']);
      const check = await page.locator(NH.detail).first().innerText();

      assert(/Condition Ready on node is reporting status Unknown for more than 5m0s/.test(check), `the health check's own words are not shown: ${ check.slice(0, 400) }`);
      await t.shot(page, 'machine health check');
      // Ready from a status nothing has written for 38 minutes: a warning, not a healthy row; the live Nodes beside it
      // stay live because the embedded API's kubelets write their status.
      await expectFindings(page, SIGNAL_MACHINES.staleStatus, ['node-status-stale']);
      const frozen = await page.locator(NH.detail).first().innerText();

      // Its kubelet renews its Lease (the tab reads the Leases while a Node's status is overdue): it runs, and only its
      // status writes fail.
      assert(/Kubelet renews its Lease but cannot write the Node's status/.test(frozen) && /nothing has written its status for 38/.test(frozen), `the stale status is not said: ${ frozen.slice(0, 400) }`);
      assert(/renewed its Lease \d+s ago/.test(frozen) && /Lease kube-node-lease\/sg-worker-06/.test(frozen), `the Lease read is not shown: ${ frozen.slice(0, 800) }`);
      assert(/Error updating node status, will retry/.test(frozen) && /nodes\/status/.test(frozen), `the steps do not lead to the kubelet's log and what rejects its writes: ${ frozen.slice(0, 800) }`);
      await t.shot(page, 'node status stale');
      assert(!problems.pageErrors.length, `page errors: ${ problems.pageErrors.join(' | ') }`);
    },
  },
  {
    name: 'a server the provider refuses to delete is not offered the finalizer removal, and says why',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, 'vs-del');
      await expectFindings(page, DELETE_FAILED_MACHINE, ['infrastructure-delete-failed']);
      const detail = page.locator(NH.detail).first();
      const text = await detail.innerText();

      assert(/Cannot complete login due to an incorrect user name or password/.test(text), `the provider's error is not shown: ${ text.slice(0, 400) }`);
      assert(/Force Delete/.test(text) && /not offered here/.test(text), 'the steps do not lead to Force Delete with the reason the finalizers are not offered');
      assert(await detail.locator(NH.action('remove-finalizers')).count() === 0, 'the finalizer removal is offered on a machine whose server may still run');
      assert(/provisioning\.cattle\.io\/force-machine-remove=true/.test(text), 'the Force Delete command is not shown');
      await t.shot(page, 'delete failed');
    },
  },
  {
    name: 'Force Delete on the failed server delete: its checks, the user\'s confirmation that the server is gone, the write and its Event',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, 'vs-del');
      await openRow(page, DELETE_FAILED_MACHINE);
      await page.locator(NH.action('force-delete')).first().click();
      const dialog = page.locator('[data-testid="nh-machine-action-force-delete"]');

      await dialog.waitFor({ state: 'visible', timeout: 15000 });
      assert(await dialog.locator('[data-testid="nh-preflight-check-deleteFailed"]').getAttribute('data-outcome') === 'passed', 'the failed delete is not seen');
      const run = dialog.locator('[data-testid="nh-run-async-button"]');

      assert(await run.isDisabled(), 'Force Delete can be run before the user confirmed the server is gone');
      assert(await dialog.locator('[data-testid="nh-confirm-input"]').count() === 0, 'the name can be typed before the server is confirmed gone');
      const text = await dialog.innerText();

      assert(/left running and billed/.test(text) && !/&#|&quot;/.test(text), `the risk is not said plainly: ${ text.slice(0, 600) }`);
      await t.shot(page, 'force delete checks');
      await dialog.locator('[data-testid="nh-confirm-check-serverGone"] .checkbox-custom').click();
      await dialog.locator('[data-testid="nh-confirm-input"]').fill(DELETE_FAILED_MACHINE);
      await t.shot(page, 'force delete confirmed');
      await run.click();
      await dialog.waitFor({ state: 'detached', timeout: 30000 });
      const infra = (await control(t.mock, 'GET', `objects?cluster=local&type=rke-machine.cattle.io.vmwarevspheremachine&namespace=${ NS }&name=${ DELETE_FAILED_MACHINE }`)) as any;

      assert(infra.metadata.annotations?.['provisioning.cattle.io/force-machine-remove'] === 'true', 'the infrastructure machine was not annotated');
      const list = (await (await fetch(`${ t.mock.url }/v1/events/${ NS }`, { headers: { 'x-mock-user': 'admin' } })).json()).data ?? [];

      assert(list.some((e: any) => e.reason === 'NodeHealthForceDelete' && e.involvedObject?.name === DELETE_FAILED_MACHINE && /^admin /.test(e.message)),
        `no audit Event on the infrastructure machine: ${ JSON.stringify(list).slice(0, 400) }`);
    },
  },
  {
    name: 'Delete on the Windows worker whose VM vanished: its pool named, then the machine deleting',
    async run(t) {
      const { page } = await t.session();
      const scenario = buildScenario('windows-node-ref');
      const vanished = scenario.objects.find((o: any) => o.kind === 'Machine' && (scenario.expected[o.metadata.name] ?? []).includes('infrastructure-missing')) as any;

      assert(vanished, 'the scenario has no machine whose VM vanished');
      await openTab(t, page, WINDOWS.cluster);
      await openRow(page, vanished.metadata.name);
      await page.locator(NH.action('delete-machine')).first().click();
      const dialog = page.locator('[data-testid="nh-machine-action-delete-machine"]');

      await dialog.waitFor({ state: 'visible', timeout: 15000 });
      const replacement = await dialog.locator('[data-testid="nh-preflight-check-replacement"]').innerText();

      assert(/pool .+ creates a new machine/.test(replacement), `the dialog does not say what replaces the machine: ${ replacement }`);
      await dialog.locator('[data-testid="nh-confirm-input"]').fill(vanished.metadata.name);
      await t.shot(page, 'delete machine confirmed');
      await dialog.locator('[data-testid="nh-run-async-button"]').click();
      await dialog.waitFor({ state: 'detached', timeout: 30000 });
      const after = await machineExists(t, vanished.metadata.name);

      assert(!after || after.metadata?.deletionTimestamp, 'the machine is neither gone nor deleting');
    },
  },
  {
    name: 'the row detail tells what happened: the failed delete job\'s log under the plan, newest first',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, 'vs-del');
      await openRow(page, DELETE_FAILED_MACHINE);
      const timeline = page.locator(`${ NH.detail } [data-testid="node-health-timeline"]`);

      await timeline.waitFor({ state: 'visible', timeout: 15000 });
      const log = timeline.locator('[data-testid="node-health-timeline-log-lines"]').first();

      await log.waitFor({ state: 'visible', timeout: 30000 });
      assert(/Cannot complete login due to an incorrect user name or password/.test(await log.innerText()), 'the delete job\'s log is not shown');
      const text = await timeline.innerText();

      assert(/delete job .+ failed: Job has reached the specified backoff limit/.test(text), `the failed job is not said: ${ text.slice(0, 600) }`);
      assert(/Deletion requested/.test(text) && /Machine created/.test(text), 'the machine\'s own history is missing');
      const plan = await page.locator(`${ NH.detail } [data-testid="node-health-plan"]`).boundingBox();
      const box = await timeline.boundingBox();

      assert(plan && box && box.y > plan.y, 'the timeline is not under the plan');
      await log.scrollIntoViewIfNeeded();
      await t.shot(page, 'timeline with job log');
    },
  },
  {
    name: 'the row detail hides the credential a provisioning job printed in its log, and each finding names the entry it started with',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, 'vs-del');
      await openRow(page, DELETE_FAILED_MACHINE);
      const log = page.locator(`${ NH.detail } [data-testid="node-health-timeline-log-lines"]`).first();

      await log.waitFor({ state: 'visible', timeout: 30000 });
      const text = await log.innerText();

      assert(text.includes('--vmwarevsphere-password [redacted]'), `the log line with the password is not shown redacted: ${ text }`);
      assert(!(await page.locator(NH.detail).innerText()).includes(SECRET_MARKER), 'the password the driver printed is on screen');
      const started = page.locator(`${ NH.detail } ${ NH.finding('infrastructure-delete-failed') } [data-testid="node-health-finding-started"]`);

      assert(new RegExp(`^Since ${ DASHBOARD_TIME.source }, when: `).test(await started.innerText()), `the finding does not say which entry it started with: ${ await started.innerText() }`);
      await started.scrollIntoViewIfNeeded();
      await t.shot(page, 'finding started with');
    },
  },
  {
    name: 'a user who may not read Events or pods sees the rest of the timeline, with a note for each',
    async run(t) {
      const { page } = await t.session('no-events');

      await openTab(t, page, 'vs-del');
      await openRow(page, DELETE_FAILED_MACHINE);
      const timeline = page.locator(`${ NH.detail } [data-testid="node-health-timeline"]`);
      const notes = timeline.locator('[data-testid="node-health-timeline-note"]');

      await notes.first().waitFor({ state: 'visible', timeout: 30000 });
      const said = (await notes.allInnerTexts()).join('\n');

      assert(/Events could not be read \(HTTP \d+\): you may not read them/.test(said), `no note on the Events: ${ said }`);
      assert(/logs could not be read \(HTTP \d+\): you may not read pods/.test(said), `no note on the job logs: ${ said }`);
      const text = await timeline.innerText();

      assert(/Deletion requested/.test(text) && /Machine created/.test(text), `the rest of the story is missing: ${ text.slice(0, 600) }`);
      assert(/delete job .+ failed/.test(text), 'the job itself (readable) is missing');
      // The job's own entry is there (its li is marked by its source, log); the block of its log lines is not.
      const logs = timeline.locator('[data-testid="node-health-timeline-log-lines"]');

      assert(await logs.count() === 0, `a log is shown to a user who may not read pods: ${ (await logs.allInnerTexts()).join('\n') }`);
      await timeline.scrollIntoViewIfNeeded();
      await t.shot(page, 'timeline without events');
    },
  },
  {
    name: 'record tab: the ghost etcd machine\'s own page in Cluster Management has the Node Health tab, with its plan and story',
    async run(t) {
      const { page } = await t.session();

      await page.goto(`${ t.dev.url }/c/_/manager/${ MACHINE_TYPE }/${ NS }/${ GHOST_MACHINE }`, { waitUntil: 'domcontentloaded', timeout: 180000 });
      await waitForShell(page);
      await page.locator(NH.tabButton).click();
      const tab = page.locator('[data-testid="node-health-record-tab"]');

      await tab.locator('[data-testid="node-health-plan"]').waitFor({ state: 'visible', timeout: 60000 });
      assert(/Root cause: Agent never checked in/.test(await tab.locator('[data-testid="node-health-plan"]').innerText()), 'the ghost\'s plan is not its own');
      assert(await tab.locator('[data-testid="node-health-record-status"]').innerText() === 'Error', 'its status is not said');
      await tab.locator(NH.finding('stuck-deleting')).waitFor({ state: 'visible', timeout: 15000 });
      const timeline = tab.locator('[data-testid="node-health-timeline"]');

      assert(/Deletion requested/.test(await timeline.innerText()) && /Rancher wrote the current plan/.test(await timeline.innerText()), 'the ghost\'s story is missing');
      await t.shot(page, 'machine page tab');
      const link = tab.locator('[data-testid="node-health-record-cluster-link"]');

      const href = decodeURIComponent(await link.getAttribute('href') ?? '');

      assert(href.includes(`/provisioning.cattle.io.cluster/${ NS }/${ GHOST.cluster }?nodeHealthRecord=machine:${ NS }/${ GHOST_MACHINE }#node-health`), `no link to the record in its cluster's tab: ${ href }`);

      // On the 2,000-node cluster, a worker's page reads that worker's objects by selector, never the cluster's Machines or Nodes.
      const big = buildScenario('large-2000');
      const worker = big.objects.find((o) => o.kind === 'Machine' && o.metadata.labels?.['rke.cattle.io/worker-role'] === 'true' && (o as { status?: { nodeRef?: unknown } }).status?.nodeRef);

      assert(worker, 'the large cluster has no worker');
      t.mock.traffic.take();
      await page.goto(`${ t.dev.url }/c/_/manager/${ MACHINE_TYPE }/${ NS }/${ worker.metadata.name }`, { waitUntil: 'domcontentloaded', timeout: 180000 });
      await waitForShell(page);
      await page.locator(NH.tabButton).click();
      await tab.locator('[data-testid="node-health-record-status"]').waitFor({ state: 'visible', timeout: 60000 });
      const lists = t.mock.traffic.take().filter((e) => e.kind === 'http' && e.path.includes('include='));
      // The cluster's tab's lists: Machines narrowed by nothing but the cluster's label, Nodes by nothing.
      const unscoped = (path: string) => {
        const u = new URL(path, 'https://x');
        const narrowing = [...u.searchParams.getAll('labelSelector').flatMap((v) => v.split(',')), ...u.searchParams.getAll('fieldSelector'),
          ...u.searchParams.getAll('filter')].filter((v) => !v.includes('cluster.x-k8s.io/cluster-name'));

        return /\/(cluster\.x-k8s\.io\.machines|nodes)(\/|$)/.test(u.pathname) && !u.pathname.includes('management.cattle.io') && narrowing.length === 0;
      };
      const whole = lists.filter((e) => unscoped(e.path));

      assert(lists.length > 0, 'the worker\'s tab read nothing');
      assert(whole.length === 0, `the worker's tab read the cluster's whole lists: ${ whole.map((e) => e.path).join('\n') }`);
      await t.shot(page, 'large cluster machine page tab');
    },
  },
  {
    name: 'record tab: a Node\'s page in the Explorer has the Node Health tab of the record that holds it',
    async run(t) {
      const { page } = await t.session();

      // The ghost's host: a Node no machine owns.
      await page.goto(`${ t.dev.url }/c/${ GHOST.mgmtId }/explorer/node/dev-k8s-node01`, { waitUntil: 'domcontentloaded', timeout: 180000 });
      await waitForShell(page);
      await page.locator(NH.tabButton).click();
      const tab = page.locator('[data-testid="node-health-record-tab"]');

      await tab.locator(NH.finding('orphan-node')).waitFor({ state: 'visible', timeout: 60000 });
      assert(/Root cause: Node without a machine/.test(await tab.locator('[data-testid="node-health-plan"]').innerText()), 'the Node\'s plan is missing');
      const timeline = tab.locator('[data-testid="node-health-timeline"]');

      assert(/Node registered in the cluster/.test(await timeline.innerText()), 'the Node\'s story is missing');
      assert(await tab.locator('[data-testid="node-health-record-status"]').innerText() === 'Warning', 'its status is not said');
      await t.shot(page, 'node page tab');
    },
  },
  {
    name: 'an etcd member down is said above the table as quorum at risk, and the member points to it',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, 'q-rke2');
      const banner = page.locator(NH.clusterRule('etcd-quorum'));

      await banner.waitFor({ state: 'visible', timeout: 30000 });
      const text = await banner.innerText();

      assert(/etcd quorum at risk/i.test(text) && /2 of/.test(text) && text.includes(CLUSTER_HEALTH_MACHINES.etcdDown), `the quorum finding does not say so: ${ text }`);
      await openRow(page, CLUSTER_HEALTH_MACHINES.etcdDown);
      const detail = await page.locator(NH.detail).first().innerText();

      assert(/one of the etcd members that are down/.test(detail), `the member does not point to the quorum finding: ${ detail.slice(0, 400) }`);
      await t.shot(page, 'quorum at risk');
    },
  },
  {
    name: 'a cluster whose Nodes nothing writes any more is said once above the table, and each row points to it',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, 'fz-rke2');
      const banner = page.locator(NH.clusterRule('nodes-status-frozen'));

      await banner.waitFor({ state: 'visible', timeout: 30000 });
      const text = await banner.innerText();

      assert(/Nothing writes the cluster's Nodes/.test(text) && /4 Nodes for 25/.test(text), `the cluster's finding does not say so: ${ text }`);
      // Its etcd members all say Ready, from statuses as old: the quorum is not called kept, and the tab says why.
      const notes = (await page.locator('[data-testid="node-health-cluster-note"]').allInnerTexts()).join('\n');

      assert(/etcd keeps its quorum is not judged: nothing has written the status of the Nodes of .*fz-etcd-0/.test(notes), `the quorum is not said to be unjudged: ${ notes }`);
      await openRow(page, FROZEN_ETCD.machine);
      const detail = await page.locator(NH.detail).first().innerText();

      // The tab read the Leases (every Node's status is overdue): not one was renewed either.
      assert(/Nothing is heard from this Node's kubelet/.test(detail) && /Its Lease has not been renewed for 2[45]m/.test(detail), `the row does not say its Lease stopped too: ${ detail.slice(0, 600) }`);
      assert(/see the cluster's finding before this host/.test(detail), `the row does not point to the cluster's finding: ${ detail.slice(0, 400) }`);
      assert(!/&#39;|&quot;|&amp;/.test(text + detail), 'literal HTML entities');
      await t.shot(page, 'nodes frozen');
    },
  },
  {
    name: 'removing a stuck machine\'s finalizers through the dialog deletes it',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      const dialog = await startFinalizerRemoval(page, GHOST_MACHINE);

      await t.shot(page, 'dialog confirmed');
      await dialog.locator('[data-testid="nh-remove-async-button"]').click();
      for (let i = 0; i < 60 && await machineExists(t, GHOST_MACHINE); i++) {
        await page.waitForTimeout(250);
      }
      assert(!await machineExists(t, GHOST_MACHINE), 'the machine still exists after the finalizers were removed');
      // A removal that went through closes the dialog by itself (and says so in a growl).
      await dialog.waitFor({ state: 'detached', timeout: 30000 });
      await page.locator(NH.search).fill(GHOST_MACHINE);
      await rowToggle(page, GHOST_MACHINE).waitFor({ state: 'detached', timeout: 30000 });
      await t.shot(page, 'machine gone');
    },
  },
  {
    name: 'the finalizer removal lists its checks: passed on the ghost, refused where the machine\'s own Node is alive, and says why',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      await openRow(page, GHOST_MACHINE);
      await page.locator(NH.action('remove-finalizers')).first().click();
      let dialog = page.locator('[data-testid="nh-remove-finalizers"]');

      await dialog.waitFor({ state: 'visible', timeout: 15000 });
      const host = dialog.locator('[data-testid="nh-preflight-check-hostGone"]');

      assert(await host.getAttribute('data-outcome') === 'passed', 'the host check did not pass on the ghost');
      assert((await host.innerText()).includes('dev-k8s-node01'), `the host check does not say why it passed: ${ await host.innerText() }`);
      assert(await dialog.locator('[data-testid="nh-confirm-input"]').count() === 1, 'the ghost cannot be confirmed');
      // A check's explanation longer than a line wraps under its title, never back under the check mark.
      const lines = await dialog.locator('[data-testid^="nh-preflight-check-"]').evaluateAll((items) => items.map((li) => {
        const mark = (li.querySelector('i') as Element).getBoundingClientRect();
        const text = li.querySelector('.preflight__text') as Element;
        const oneLine = (li.querySelector('.preflight__title') as Element).getBoundingClientRect().height;

        return {
          check:     li.getAttribute('data-testid'),
          lines:     Math.round(text.getBoundingClientRect().height / oneLine),
          left:      Math.min(...[...text.getClientRects()].map((b) => b.left)),
          markRight: mark.right,
        };
      }));

      assert(lines.some((l) => l.lines > 1), `no check's explanation takes two lines here: ${ JSON.stringify(lines) }`);
      assert(lines.every((l) => l.left >= l.markRight), `an explanation wraps under its check mark: ${ JSON.stringify(lines.filter((l) => l.left < l.markRight)) }`);
      await t.shot(page, 'preflight passed on the ghost');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 15000 }).catch(() => undefined);

      await openTab(t, page, 'prod-rke2');
      await openRow(page, LEAVING_ETCD_MACHINE);
      await page.locator(NH.action('remove-finalizers')).first().click();
      dialog = page.locator('[data-testid="nh-remove-finalizers"]');
      await dialog.waitFor({ state: 'visible', timeout: 15000 });
      const show = dialog.locator('[data-testid="nh-show-finalizers"]');

      if (await show.count()) {
        await show.click();
      }
      const alive = dialog.locator('[data-testid="nh-preflight-check-hostGone"]');

      assert(await alive.getAttribute('data-outcome') === 'failed', 'the host check passed on a machine whose Node is alive');
      const said = await alive.innerText();
      const why = await dialog.locator('[data-testid="nh-finalizers-reason"]').innerText();

      assert(/is Ready and its kubelet reported/.test(said), `the failed check does not say what it found: ${ said }`);
      // Said once: the reason names the check above rather than repeat its words.
      assert(/the check “The host is gone” above failed/.test(why) && !/kubelet reported/.test(why), `the refusal does not point to the check that failed: ${ why }`);
      // The etcd release may still be offered (its own checks pass): what must be gone is the removal's button.
      const remove = dialog.locator('[data-testid="nh-remove-async-button"]');

      assert(await remove.count() === 0 || await remove.isDisabled(), 'the finalizer removal can still be confirmed');
      // A short value (a finalizer, an address) keeps its line: the value column is not left the narrowest.
      const values = (await lineBreaks(page, '[data-testid="nh-remove-finalizers"] [data-testid="nh-evidence-row"] td:nth-child(3) code'))
        .filter((v) => v.text.length > 1 && v.text.length <= 24);

      assert(values.length >= 1, 'no short evidence values in the finalizer dialog');
      assert(values.every((v) => !v.breaks.length), `short values broken over lines in the finalizer dialog: ${ values.filter((v) => v.breaks.length).map((v) => v.text).join('; ') }`);
      await alive.scrollIntoViewIfNeeded();
      await t.shot(page, 'preflight refused: the host is alive');
    },
  },
  {
    name: 'a concurrent change makes the finalizer removal fail safely',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      const before = await machineExists(t, GHOST_MACHINE);
      const dialog = await startFinalizerRemoval(page, GHOST_MACHINE);

      // Someone else writes the machine in the moment between the dialog's reading it again and its write.
      await control(t.mock, 'POST', 'faults', {
        match:      { method: 'PATCH', name: GHOST_MACHINE },
        concurrent: { mergePatch: { metadata: { annotations: { 'example.com/touched-by': 'another-admin' } } } },
      });
      await dialog.locator('[data-testid="nh-remove-async-button"]').click();
      await dialog.locator('[data-testid="nh-failure"]').waitFor({ state: 'visible', timeout: 30000 });
      await t.shot(page, 'write refused');
      const after = await machineExists(t, GHOST_MACHINE);

      assert(after, 'the machine was deleted although it changed after the review');
      assert(JSON.stringify(after.metadata.finalizers) === JSON.stringify(before.metadata.finalizers), `finalizers changed: ${ JSON.stringify(after.metadata.finalizers) }`);
      assert(await dialog.locator('[data-testid="nh-review-again"]').count() > 0, 'the dialog does not offer to review again');
    },
  },
  {
    name: 'a machine gone after the review is read again at confirmation and the finalizer write is never sent',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      const dialog = await startFinalizerRemoval(page, GHOST_MACHINE);
      const { last } = await control(t.mock, 'GET', 'requests');

      // Its controller finishes the clean-up after the user reviewed the machine: the machine goes away.
      // (A machine being deleted cannot gain finalizers, so a removal is the change the cluster can make.)
      await control(t.mock, 'POST', 'objects', {
        cluster: 'local', type: MACHINE_TYPE, namespace: NS, name: GHOST_MACHINE, jsonPatch: [{ op: 'remove', path: '/metadata/finalizers' }]
      });
      assert(!await machineExists(t, GHOST_MACHINE), 'the mock kept the machine after its last finalizer went');
      await dialog.locator('[data-testid="nh-remove-async-button"]').click();
      await dialog.locator('[data-testid="nh-gone"]').waitFor({ state: 'visible', timeout: 30000 });
      await t.shot(page, 'gone before the write');
      const { requests } = await control(t.mock, 'GET', `requests?since=${ last }`);
      const toMachine = (requests as { method: string; path: string; status: number }[]).filter((r) => r.path.includes(`/${ GHOST_MACHINE }`) && !r.path.startsWith('/mock/'));

      assert(toMachine.some((r) => r.method === 'GET' && r.status === 404), `the dialog did not read the machine again: ${ JSON.stringify(toMachine) }`);
      assert(!toMachine.some((r) => r.method === 'PATCH'), `a write was sent to a machine that was gone: ${ JSON.stringify(toMachine) }`);
    },
  },
  {
    name: 'the registration command is copied to the clipboard with its token',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      await page.locator('[data-testid="node-health-registration"]').click();
      const dialog = page.locator('[data-testid="nh-registration"]');
      const command = dialog.locator('[data-testid="nh-command"]');

      await command.waitFor({ state: 'visible', timeout: 30000 });
      const token = registrationTokenValue(GHOST.mgmtId);
      const shown = await command.innerText();

      assert(!shown.includes(token), 'the token is shown on screen instead of masked');
      await dialog.locator('[data-testid="nh-copy"]').click();
      await page.waitForTimeout(300);
      const copied = await page.evaluate(() => navigator.clipboard.readText());

      await t.shot(page, 'registration copied');
      assert(copied.includes('system-agent-install.sh') && new RegExp(`--token '?${ token }'?( |$)`).test(copied), `the clipboard holds no usable command: ${ copied.slice(0, 300) }`);
    },
  },
  {
    name: 'the registration dialog lays out its fields and help texts without overlap, in English and Chinese',
    async run(t) {
      const { page } = await t.session('admin', 'zh-CN');

      await openTab(t, page, GHOST.cluster);
      for (const locale of ['en-us', 'zh-hans'] as const) {
        await switchLocale(page, locale);
        await page.locator('[data-testid="node-health-registration"]').click();
        const dialog = page.locator('[data-testid="nh-registration"]');

        await dialog.locator('[data-testid="nh-command"]').waitFor({ state: 'visible', timeout: 30000 });
        // The longest help texts wrap; the problems list appears under the proxy fields.
        await dialog.locator('input[data-testid="nh-no-proxy"]').fill('10.0.0.0/8, .cluster.local');
        await page.waitForTimeout(300);
        const body = dialog.locator('.dialog-body');

        await body.evaluate((el) => el.scrollTo(0, 0));
        await t.shot(page, `${ locale } top`);
        await body.evaluate((el) => el.scrollTo(0, el.scrollHeight / 3));
        await t.shot(page, `${ locale } middle`);
        await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await t.shot(page, `${ locale } bottom`);
        // Every field (an input with its label and its help below it, a checkbox, the OS choice) and every
        // paragraph or heading of the form, by the box the browser drew: no two may share any area.
        const overlaps = await body.evaluate((root) => {
          const blocks = Array.from(root.querySelectorAll('.labeled-input, .checkbox-outer-container, .radio-group, p, h5, ul'))
            .filter((el) => !el.parentElement?.closest('.labeled-input, .checkbox-outer-container, .radio-group, p, ul'))
            .map((el) => {
              const boxes = [el, ...Array.from(el.querySelectorAll('.sub-label'))].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);

              return {
                name:   `${ el.tagName.toLowerCase() }${ el.getAttribute('data-testid') ? `[${ el.getAttribute('data-testid') }]` : '' } "${ (el.textContent ?? '').trim().slice(0, 40) }"`,
                left:   Math.min(...boxes.map((r) => r.left)),
                top:    Math.min(...boxes.map((r) => r.top)),
                right:  Math.max(...boxes.map((r) => r.right)),
                bottom: Math.max(...boxes.map((r) => r.bottom)),
                el,
              };
            })
            .filter((b) => Number.isFinite(b.left));
          const found: string[] = [];

          for (let i = 0; i < blocks.length; i++) {
            for (let j = i + 1; j < blocks.length; j++) {
              const a = blocks[i];
              const b = blocks[j];
              const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
              const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);

              if (w > 1 && h > 1 && !a.el.contains(b.el) && !b.el.contains(a.el)) {
                found.push(`${ a.name } and ${ b.name } (${ Math.round(w) }x${ Math.round(h) } px)`);
              }
            }
          }

          return { count: blocks.length, found };
        });

        assert(overlaps.count >= 12, `${ locale }: only ${ overlaps.count } fields and texts found in the dialog`);
        assert(overlaps.found.length === 0, `${ locale }: overlapping in the registration dialog: ${ overlaps.found.join('; ') }`);
        const text = await dialog.innerText();

        assert(!/&#|&quot;/.test(text), `${ locale }: the dialog shows HTML entities: ${ text.match(/.{0,40}(&#|&quot;).{0,40}/)?.[0] }`);
        await dialog.locator('[data-testid="nh-close"]').click();
        await dialog.waitFor({ state: 'detached', timeout: 15000 });
      }
    },
  },
  {
    name: 'display: evidence tables wrap field paths only between their parts, in the row detail and the finalizer dialog',
    async run(t) {
      const { page } = await t.session();

      // A narrow window, where the evidence columns are tight.
      await page.setViewportSize({ width: 1024, height: 800 });
      await openTab(t, page, GHOST.cluster);
      await openRow(page, GHOST_MACHINE);
      await page.locator(`${ NH.detail } details[data-testid="node-health-evidence"] table`).first().scrollIntoViewIfNeeded();
      await t.shot(page, 'row detail evidence');
      const inDetail = await lineBreaks(page, `${ NH.detail } details[data-testid="node-health-evidence"] td:nth-child(2) code`);

      assert(inDetail.length >= 3, `only ${ inDetail.length } evidence paths in the row detail`);
      assert(midWord(inDetail).length === 0, `field paths broken inside a name in the row detail: ${ midWord(inDetail).join('; ') }`);

      await page.locator(NH.action('remove-finalizers')).first().click();
      const dialog = page.locator('[data-testid="nh-remove-finalizers"]');

      await dialog.locator('[data-testid="nh-evidence-row"]').first().waitFor({ state: 'visible', timeout: 15000 });
      await dialog.locator('[data-testid="nh-evidence-row"]').first().scrollIntoViewIfNeeded();
      await t.shot(page, 'finalizer dialog evidence');
      const inDialog = await lineBreaks(page, '[data-testid="nh-remove-finalizers"] [data-testid="nh-evidence-row"] td:nth-child(2) code');

      assert(inDialog.length >= 1, 'no evidence paths in the finalizer dialog');
      assert(midWord(inDialog).length === 0, `field paths broken inside a name in the finalizer dialog: ${ midWord(inDialog).join('; ') }`);
      await dialog.locator('[data-testid="nh-close"]').click();
    },
  },
  {
    name: 'display: finding texts in the table reach WCAG AA contrast, warnings included',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      await page.locator(`${ SHELL_NODE_HEALTH_PANE } tr.main-row`).first().waitFor({ state: 'visible', timeout: 30000 });
      await t.shot(page, 'table');
      // The finding column's texts (the "+N more" after them is muted text, not a finding).
      const found = await contrasts(page, `${ SHELL_NODE_HEALTH_PANE } tr.main-row td:nth-child(8) span > span:not(.text-muted)`);
      const warnings = found.filter((f) => /without a machine/i.test(f.text));
      const low = found.filter((f) => f.ratio < 4.5);

      assert(warnings.length > 0, `no "Node without a machine" finding in the table: ${ found.map((f) => f.text).join('; ') }`);
      assert(low.length === 0, `finding texts below 4.5:1: ${ low.map((f) => `${ f.text } (${ f.ratio }:1)`).join('; ') }`);
    },
  },
  {
    name: 'display: the first load shows each Machine checking, never healthy, and a healthy cluster then says all its nodes are healthy',
    async run(t) {
      const { page } = await t.session();

      // Plan secrets answer slowly, so the first load takes a while.
      await control(t.mock, 'POST', 'faults', {
        match: { method: 'GET', type: SECRET_TYPE }, times: 20, delayMs: 4000
      });
      try {
        await gotoCluster(page, t.dev.url, NS, 'demo-rke2');
        await page.locator(NH.tabButton).click();
        // The cluster page has loaded its Machines: their rows come at once, each checking.
        const pending = page.locator('[data-testid="node-health-loading"] tr.main-row');

        await pending.first().waitFor({ state: 'visible', timeout: 30000 });
        await t.shot(page, 'checking');
        const statuses = (await page.locator('[data-testid="node-health-loading"] tr.main-row td:nth-child(2)').allInnerTexts()).map((s) => s.trim());

        assert(statuses.length === 5 && statuses.every((s) => s === 'Checking…'), `the rows before the verdicts are not all checking: ${ statuses.join(' | ') }`);
        assert(!/Healthy/.test(await page.locator(SHELL_NODE_HEALTH_PANE).innerText()), 'a row or count says healthy before the verdicts');
        assert(await page.locator(`${ SHELL_NODE_HEALTH_PANE } .loading-indicator`).count() === 0, 'the tab shows an overlay while loading');
      } finally {
        await control(t.mock, 'DELETE', 'faults');
      }
      const healthy = page.locator('[data-testid="node-health-all-healthy"]');

      await healthy.waitFor({ state: 'visible', timeout: 60000 });
      await t.shot(page, 'all healthy');
      assert(/All 5 nodes of the cluster are healthy/.test(await healthy.innerText()), `unexpected: ${ await healthy.innerText() }`);
      const roles = await page.locator(`${ SHELL_NODE_HEALTH_PANE } tr.main-row td:nth-child(5)`).allInnerTexts();

      assert(roles.every((r) => /^(Etcd|Control Plane|Worker)(, (Etcd|Control Plane|Worker))*$/.test(r.trim())), `roles not as Rancher's Machines tab names them: ${ roles.join(' | ') }`);
    },
  },
  {
    name: 'the diagnostics bundle downloads and holds no secret value',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, GHOST.cluster);
      await page.locator('[data-testid="node-health-export-toggle"]').click();
      await page.locator(NH.export).waitFor({ state: 'visible', timeout: 15000 });
      const open = page.locator('[data-testid="nh-export-open"]');

      if (await open.isVisible()) {
        await open.click();
      }
      await page.locator(NH.download).waitFor({ state: 'visible', timeout: 30000 });
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 30000 }),
        page.locator(NH.download).click(),
      ]);
      const file = await download.path();
      const text = readFileSync(file as string, 'utf8');
      const bundle = JSON.parse(text);

      await t.shot(page, 'bundle downloaded');
      assert(bundle.format === 'node-health-bundle/v1', `unexpected format ${ bundle.format }`);
      assert(text.includes(GHOST_MACHINE), 'the bundle does not mention the ghost machine');
      assert(!text.includes(SECRET_MARKER), `the bundle carries a secret value (marker ${ SECRET_MARKER })`);
      // Rancher's own Registration tab on the same page shows the token; the Node Health tab must not.
      assert(!(await page.locator(SHELL_NODE_HEALTH_PANE).innerHTML()).includes(SECRET_MARKER), 'a secret value reached the Node Health tab');
    },
  },
  {
    name: 'in 简体中文 the tab speaks Chinese',
    async run(t) {
      // A context of its own: the language choice is kept in a cookie.
      const { page } = await t.session('admin', 'zh-CN');

      await gotoCluster(page, t.dev.url, NS, GHOST.cluster);
      await switchLocale(page, 'zh-hans');
      const label = zhHans('nodeHealth.tabLabel');

      assert(label, 'no zh-hans tab label');
      await page.locator(NH.tabButton).filter({ hasText: label }).waitFor({ state: 'visible', timeout: 30000 });
      await openNodeHealthTab(page);
      const summary = await page.locator(NH.summary).innerText();

      assert(summary.includes(zhHans('nodeHealth.status.error')), `the summary is not in Chinese: ${ summary }`);
      await t.shot(page, 'zh-hans');
    },
  },
  {
    name: 'the read-only user sees no action buttons that write, and why',
    async run(t) {
      const { page } = await t.session('read-only');

      await openTab(t, page, GHOST.cluster);
      await openRow(page, GHOST_MACHINE);
      await page.locator(NH.denied('remove-finalizers')).first().scrollIntoViewIfNeeded();
      await t.shot(page, 'read-only row');
      for (const id of NH.writeActions) {
        const offered = await page.locator(NH.action(id)).count();

        assert(offered === 0, `"${ id }" is offered to the read-only user`);
      }
      assert(await page.locator(NH.denied('remove-finalizers')).count() > 0, 'no reason is shown for the missing finalizer action');
    },
  },
  {
    name: 'the read-only user is given no registration token, and told why',
    async run(t) {
      const { page } = await t.session('read-only');

      await openTab(t, page, GHOST.cluster);
      const { last } = await control(t.mock, 'GET', 'requests');

      await page.locator('[data-testid="node-health-registration"]').click();
      const dialog = page.locator('[data-testid="nh-registration"]');
      const why = dialog.locator('[data-testid="nh-token-not-allowed"]');

      await why.waitFor({ state: 'visible', timeout: 30000 });
      await page.waitForTimeout(500);
      await t.shot(page, 'registration refused');
      assert((await why.innerText()).includes('You may not edit cluster dev-k3s'), `the dialog does not say why: ${ await why.innerText() }`);
      assert(await dialog.locator('[data-testid="nh-command"], [data-testid="nh-copy"]').count() === 0, 'a command is shown to the read-only user');
      assert(!(await page.content()).includes(registrationTokenValue(GHOST.mgmtId)), 'the token reached the page');
      const { requests } = await control(t.mock, 'GET', `requests?since=${ last }`);
      const asked = (requests as { path: string }[]).filter((r) => r.path.toLowerCase().includes('clusterregistrationtoken'));

      assert(asked.length === 0, `the dialog asked for the token: ${ JSON.stringify(asked) }`);
      await dialog.locator('[data-testid="nh-close"]').click();
      await openRow(page, GHOST_MACHINE);
      const denied = page.locator(NH.denied('re-register')).first();

      await denied.waitFor({ state: 'visible', timeout: 15000 });
      assert(await page.locator(NH.action('re-register')).count() === 0, 're-register is offered to the read-only user');
    },
  },
  {
    name: 'a condition message with HTML shows as text and runs nothing',
    async run(t) {
      const { page, problems } = await t.session();

      await openTab(t, page, EVERY.cluster);
      await openRow(page, XSS_MACHINE);
      const detail = page.locator(NH.detail).first();

      await page.waitForTimeout(500);
      await t.shot(page, 'html as text');
      assert((await detail.innerText()).includes(XSS_PAYLOAD), 'the message with HTML is not shown as text');
      assert(await page.locator('img[src="x"]').count() === 0, 'the HTML from the cluster became an element');
      assert(!problems.dialogs.length, `a dialog opened: ${ problems.dialogs.join(' | ') }`);
    },
  },
  {
    name: 'a user who may not read secrets still gets a diagnosis, with the reason',
    async run(t) {
      const { page } = await t.session('no-secrets');

      await openTab(t, page, GHOST.cluster);
      await page.locator('[data-testid="node-health-unavailable"]').waitFor({ state: 'visible', timeout: 30000 });
      await t.shot(page, 'no secrets');
      await expectFindings(page, GHOST_MACHINE, ['stuck-deleting']);
    },
  },
  {
    name: 'a Cluster API v1beta2 cluster (Rancher 2.14): each machine\'s findings, from v1beta2 Machines through Steve',
    async run(t) {
      const { page } = await t.session();

      await openTab(t, page, V1BETA2.cluster);
      await page.locator(NH.summary).waitFor({ state: 'visible', timeout: 60000 });
      for (const [name, rules] of Object.entries(buildScenario('capi-v1beta2').expected)) {
        await expectFindings(page, name, rules);
        await t.shot(page, `row ${ name }`);
      }
    },
  },
  {
    name: 'a user granted only some plan secrets is told the list is partial, and no plan secret is called missing',
    async run(t) {
      const { page } = await t.session('fleet-member');

      await openTab(t, page, EVERY.cluster);
      const notice = page.locator('[data-testid="node-health-unavailable-planSecrets"]');

      await notice.waitFor({ state: 'visible', timeout: 60000 });
      await t.shot(page, 'partial secrets');
      const said = await notice.innerText();

      // The secrets listed are read: the plan status does not come from the machines' conditions alone.
      assert(/only some of them/.test(said) && !/conditions only/.test(said), `the partial list is told as a missing one: ${ said }`);
      assert(await page.locator('[data-testid="node-health-unavailable"] [data-testid^="node-health-unavailable-"]').count() === 1, 'more than the plan secrets are said to be unavailable');
      await openRow(page, 'custom-d3b1e7f5c4a3');
      assert(await page.locator(`${ NH.detail } ${ NH.finding('plan-secret-missing') }`).count() === 0, 'a plan secret the user cannot see is called missing');
      await expectFindings(page, 'custom-c2a0d6e4b3f2', ['node-not-ready']);
    },
  },
  {
    name: 'a server error on one input names it, keeps the rows, and a refresh recovers',
    async run(t) {
      const { page } = await t.session();

      await control(t.mock, 'POST', 'faults', {
        match: {
          method: 'GET', type: SECRET_TYPE, namespace: NS
        },
        status:  500,
        times:   50,
        message: 'etcdserver: request timed out'
      });
      await gotoCluster(page, t.dev.url, NS, GHOST.cluster);
      await page.locator(NH.tabButton).click();
      const notice = page.locator('[data-testid="node-health-unavailable-planSecrets"]');

      await notice.waitFor({ state: 'visible', timeout: 60000 });
      await page.locator(NH.summary).waitFor({ state: 'visible', timeout: 60000 });
      await t.shot(page, 'error');
      const said = await notice.innerText();

      assert(said.includes('500') || said.includes('etcdserver'), `the notice does not say what failed: ${ said }`);
      await control(t.mock, 'DELETE', 'faults');
      await page.locator('[data-testid="node-health-refresh"]').click();
      await notice.waitFor({ state: 'detached', timeout: 60000 });
      await t.shot(page, 'recovered');
    },
  },
  {
    name:      'at 10,000 nodes the tab opens, filters, pages and refreshes, diagnosing in a Web Worker',
    scenarios: [HUGE_SCENARIO],
    timeoutMs: 600000,
    async run(t) {
      const { page } = await t.session();
      const notes: string[] = [];
      // The tab's worker is named (pkg/node-health/worker-build.js); the dashboard has workers of its own.
      const tabWorkers = async() => (await Promise.all(page.workers().map((w) => w.evaluate(() => (self as any).name).catch(() => '')))).filter((n) => n === 'node-health').length;

      page.on('console', (m) => {
        if (m.text().startsWith('Node Health:')) {
          notes.push(m.text());
        }
      });
      await gotoCluster(page, t.dev.url, NS, HUGE_CLUSTER.name);
      await page.locator(NH.tabButton).click();
      await page.locator(NH.summary).waitFor({ state: 'visible', timeout: 180000 });
      await page.locator(NH.rows).first().waitFor({ state: 'visible', timeout: 60000 });
      await t.shot(page, 'opened');
      assert(await tabWorkers() === 1, `the tab runs ${ await tabWorkers() } workers named node-health, not one`);
      assert(notes.length === 0, `the tab fell back to the page: ${ notes.join('; ') }`);
      const counts = await Promise.all(['error', 'warning', 'unknown', 'healthy'].map(async(s) => Number((await page.locator(NH.count(s)).innerText()).match(/\d+/)?.[0] ?? NaN)));
      const total = counts.reduce((a, b) => a + b, 0);

      // Every machine and the management Nodes left of machines gone: at least the 10,000 hosts.
      assert(total >= 10000, `the summary counts ${ total } records`);

      // Pages: the next page shows other rows.
      const mainRows = `${ SHELL_NODE_HEALTH_PANE } tr.main-row`;
      const firstKey = await page.locator(mainRows).first().getAttribute('data-node-id');

      await page.locator(`${ SHELL_NODE_HEALTH_PANE } [data-testid="pagination-next"]`).click();
      await page.waitForFunction(([selector, first]) => {
        const key = document.querySelector(selector)?.getAttribute('data-node-id');

        return !!key && key !== first;
      }, [mainRows, firstKey] as const, { timeout: 30000 });

      // Filters: only errors, then a search that names one worker.
      await chooseFilter(page, 'status', 'Error');
      await page.waitForFunction((selector) => {
        const badges = Array.from(document.querySelectorAll(`${ selector } .badge-state`));

        return badges.length > 0 && badges.every((b) => b.textContent?.trim() === 'Error');
      }, NH.rows, { timeout: 30000 });
      const statuses = await page.locator(`${ NH.rows } .badge-state`).allInnerTexts();

      assert(statuses.length > 0 && statuses.every((s) => s.trim() === 'Error'), `the status filter shows ${ [...new Set(statuses)].join(', ') }`);
      await chooseFilter(page, 'status', 'All');
      await page.locator(NH.search).fill('huge-wk-09876');
      await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 1, NH.rows, { timeout: 30000 });
      await t.shot(page, 'filtered');

      // Refreshes: the same rows again. Lists read before Steve confirmed their watch are read once more; after
      // that, with nothing changed, no list is sent again.
      const refresh = async() => {
        await page.locator('[data-testid="node-health-refresh"]').click();
        await page.waitForFunction(() => {
          const b = document.querySelector('[data-testid="node-health-refresh"]') as HTMLButtonElement | null;

          return !!b && !b.disabled;
        }, undefined, { timeout: 120000 });
      };
      const listBytes = () => t.mock.traffic.take().filter((e) => e.kind === 'http' && e.path.includes('include=')).reduce((n, e) => n + e.bytes, 0);
      const firstLoad = listBytes();

      await refresh();
      t.mock.traffic.take();
      await refresh();
      const again = listBytes();

      assert(firstLoad > 1000000 && again === 0, `a refresh with nothing changed read ${ again } bytes of lists (first load ${ firstLoad })`);
      assert(await page.locator(NH.rows).count() === 1, 'the search lost its row on refresh');
    },
  },
];
