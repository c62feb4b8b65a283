/**
 * The report file (node-health report, "Download report (HTML)") as a support engineer opens it: from disk
 * (file://), in headless Chromium, with every request but the file itself refused and counted as a failure.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { pathToFileURL } from 'url';
import type { BrowserContext, Page } from 'playwright-core';
import { createBundle } from '../../pkg/node-health/export';
import type { NodeHealthBundle } from '../../pkg/node-health/export';
import { main as cli } from '../../cli/main';
import { cliTranslator } from '../../cli/l10n';
import { sayTime } from '../../pkg/node-health/report/durations';
import { buildScenario, GHOST_MACHINE, XSS_PAYLOAD } from '../../scenarios/catalog';
import { OUTPUT_DIR } from './harness';
import { gotoCluster, gotoHome, openNodeHealthTab, routerPush } from './dashboard';
import type { E2eTest, TestContext } from './runner';

const XSS_MACHINE = 'custom-17f5c1d9a8e7';
const XSS_NODE = 'ef-wk-xss';
/** Planted beside XSS_PAYLOAD: a script element's end, javascript: links, Markdown and HTML */
const HOSTILE = '</script><script>alert(2)</script> [docs](javascript:alert(3)) <a href="javascript:alert(4)">open</a> **bold** <b>b</b>';
const NS = 'fleet-default';
const EVERY = 'ef-rke2';
const en = cliTranslator('en-us');
const zh = cliTranslator('zh-hans');

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

interface OpenedFile {
  page: Page;
  context: BrowserContext;
  /** what must stay empty: requests other than the file, dialogs (alert), script errors */
  problems: string[];
}

/** Opens a report file from disk with the network refused; anything it tries is a problem. */
async function openFile(t: TestContext, path: string): Promise<OpenedFile> {
  const url = pathToFileURL(path).href;
  const context = await t.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const problems: string[] = [];

  await page.route('**', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  page.on('request', (r) => {
    if (r.url() !== url) {
      problems.push(`request ${ r.method() } ${ r.url() }`);
    }
  });
  page.on('dialog', (d) => {
    problems.push(`dialog ${ d.type() }: ${ d.message() }`);
    d.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (e) => problems.push(`script error: ${ e.message }`));
  page.on('console', (m) => {
    // A Content-Security-Policy violation is reported on the console.
    if (m.type() === 'error') {
      problems.push(`console error: ${ m.text() }`);
    }
  });
  await page.goto(url);
  await page.locator('[data-testid="nh-r-row"]').first().waitFor({ state: 'visible', timeout: 15000 });

  return {
    page, context, problems
  };
}

async function countsShown(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};

  for (const s of ['error', 'warning', 'unknown', 'healthy']) {
    out[s] = Number(await page.locator(`[data-testid="nh-r-count-${ s }"] .n`).textContent());
  }

  return out;
}

/** No planted markup became an element, and none ran. */
async function assertNoMarkup(page: Page): Promise<void> {
  const planted = await page.locator('img, iframe, object, embed, a, [onerror], [src], [href]').count();

  assert(planted === 0, `${ planted } element(s) from planted markup`);
}

export const REPORT_FILE_TESTS: E2eTest[] = [
  {
    name:      'report file: made from a bundle, opened from disk with every request refused',
    timeoutMs: 120000,
    async run(t) {
      const dir = join(OUTPUT_DIR, 'report-file');
      const s = buildScenario('every-failure');
      const xssNode = Object.values(s.downstream).flat().find((o) => o.kind === 'Node' && o.metadata.name === XSS_NODE);
      const notReady = (((xssNode?.status as { conditions?: unknown[] } | undefined)?.conditions ?? []) as { type: string; message?: string }[]).find((c) => c.type === 'Ready');

      assert(xssNode && notReady, `the scenario has no not-ready Node ${ XSS_NODE }`);
      // In a message (the evidence) and a label the diagnosis reads (the host name), beside the scenario's own <img>.
      notReady.message = `${ notReady.message } ${ HOSTILE }`;
      xssNode.metadata.labels = { ...xssNode.metadata.labels, 'kubernetes.io/hostname': `${ XSS_NODE } ${ HOSTILE }` };
      const bundle: NodeHealthBundle = createBundle({
        objects: [...s.objects, ...Object.values(s.downstream).flat()], now: s.now, t: en, rancherVersion: 'v2.10.1', extensionVersion: '0.1.0'
      });
      const bundlePath = join(dir, 'every-failure-bundle.json');
      const htmlPath = join(dir, 'every-failure.html');
      const io = {
        stdout: () => undefined, stderr: () => undefined, readFile: (p: string) => readFileSync(p, 'utf8'), writeFile: (p: string, c: string) => writeFileSync(p, c)
      };

      mkdirSync(dir, { recursive: true });
      writeFileSync(bundlePath, JSON.stringify(bundle, null, 2));
      assert(await cli(['report', '-o', htmlPath, bundlePath], io) === 0, 'node-health report failed');
      const { page, context, problems } = await openFile(t, htmlPath);

      try {
        // The bundle's own header.
        const source = await page.locator('[data-testid="nh-r-source"]').innerText();

        assert(source.includes('v2.10.1') && source.includes(sayTime(bundle.createdAt)) && source.includes(EVERY), `the bundle's header is not shown: ${ source }`);
        // The counts are the bundle's.
        const counts = await countsShown(page);

        assert(Object.keys(counts).every((k) => counts[k] === bundle.counts[k as keyof typeof bundle.counts]), `counts ${ JSON.stringify(counts) }, bundle ${ JSON.stringify(bundle.counts) }`);
        const banner = await page.locator('[data-testid="nh-r-blocking"]').count();

        assert(banner === (bundle.clusters.some((c) => c.blockedBy.length > 0) ? 1 : 0), 'the blocking banner does not match the bundle');

        // A status filter.
        await page.locator('[data-testid="nh-r-status"]').selectOption('error');
        const statuses = await page.locator('[data-testid="nh-r-row"]').evaluateAll((rows) => rows.map((r) => r.className));

        assert(statuses.length === counts.error && statuses.every((c) => c.includes('status-error')), `the error filter shows ${ statuses.join(', ') }`);
        await page.locator('[data-testid="nh-r-status"]').selectOption('all');

        // A search, then one record's plan and evidence.
        await page.locator('[data-testid="nh-r-search"]').fill(XSS_MACHINE);
        await page.locator('[data-testid="nh-r-range"]').filter({ hasText: '1–1 of 1' }).waitFor({ timeout: 5000 });
        await page.locator('[data-testid="nh-r-toggle"]').first().click();
        const detail = page.locator('[data-testid="nh-r-detail"]');

        await detail.waitFor({ state: 'visible', timeout: 5000 });
        const record = bundle.records.find((r) => r.machine === XSS_MACHINE);

        assert(record, 'the bundle has no record of the planted machine');
        const plan = await detail.locator('[data-testid="nh-r-plan"]').innerText();

        assert(record.resolution.steps.every((step) => plan.includes(step.text)), `the plan does not show the record's steps: ${ plan }`);
        const evidence = await detail.locator('[data-testid="nh-r-evidence"]').first().innerText();
        const message = record.findings.flatMap((f) => f.evidence).find((e) => String(e.value).includes(XSS_PAYLOAD));

        assert(message, 'the bundle has no evidence with the planted markup');
        assert(evidence.includes(message.path), `the evidence does not show ${ message.path }: ${ evidence }`);
        // The planted markup shows as text, and nothing of it became an element or ran.
        const detailText = await detail.innerText();

        assert(detailText.includes(XSS_PAYLOAD) && detailText.includes(HOSTILE), `the planted markup is not shown as text: ${ detailText }`);
        assert(await page.locator('script:not([type="application/json"])').count() === 1, 'a planted script element was made');
        await assertNoMarkup(page);
        await t.shot(page, 'record en-us');

        // The command's copy button.
        await detail.locator('[data-testid="nh-r-copy"]').first().click();
        await detail.locator('[data-testid="nh-r-copy"]').first().filter({ hasText: /Copied|Copy failed/ }).waitFor({ timeout: 5000 });

        // The language switch keeps the search and the open record.
        await page.locator('[data-testid="nh-r-lang-zh-hans"]').click();
        assert(await page.locator('html').getAttribute('lang') === 'zh-hans', 'the page did not switch to zh-hans');
        const zhCount = await page.locator('[data-testid="nh-r-count-error"]').innerText();

        assert(zhCount.includes(zh('nodeHealth.status.error')), `the counts are not in Chinese: ${ zhCount }`);
        assert((await page.locator('[data-testid="nh-r-detail"] h4').first().innerText()) === zh('nodeHealth.plan.title'), 'the record is not in Chinese');
        await assertNoMarkup(page);
        await t.shot(page, 'record zh-hans');
        await page.locator('[data-testid="nh-r-lang-en-us"]').click();
        assert(await page.locator('html').getAttribute('lang') === 'en-us', 'the page did not switch back');
        assert(problems.length === 0, `the file tried: ${ problems.join('; ') }`);
      } finally {
        await context.close();
      }
    },
  },
  {
    name:      'report file: the tab downloads it, and it opens from disk in both languages',
    timeoutMs: 180000,
    async run(t) {
      const { page } = await t.session();

      await gotoCluster(page, t.dev.url, NS, EVERY);
      await openNodeHealthTab(page);
      await page.locator('[data-testid="node-health-export-toggle"]').click();
      await page.locator('[data-testid="nh-export"]').waitFor({ state: 'visible', timeout: 15000 });
      const open = page.locator('[data-testid="nh-export-open"]');

      if (await open.isVisible()) {
        await open.click();
      }
      const button = page.locator('[data-testid="nh-export-html"]');

      await button.waitFor({ state: 'visible', timeout: 30000 });
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), button.click()]);
      const path = join(OUTPUT_DIR, 'report-file', 'from-the-tab.html');

      mkdirSync(join(OUTPUT_DIR, 'report-file'), { recursive: true });
      await download.saveAs(path);
      assert(download.suggestedFilename().endsWith('.html'), `the download is named ${ download.suggestedFilename() }`);
      const opened = await openFile(t, path);

      try {
        const rows = await opened.page.locator('[data-testid="nh-r-row"]').count();

        assert(rows > 0, 'no rows');
        assert(await opened.page.locator('[data-testid="nh-r-lang-zh-hans"]').count() === 1, 'the file offers no Chinese');
        await opened.page.locator('[data-testid="nh-r-lang-zh-hans"]').click();
        const zhCount = await opened.page.locator('[data-testid="nh-r-count-error"]').innerText();

        assert(zhCount.includes(zh('nodeHealth.status.error')), `the counts are not in Chinese: ${ zhCount }`);
        await assertNoMarkup(opened.page);
        await t.shot(opened.page, 'from the tab, zh-hans');
        assert(opened.problems.length === 0, `the file tried: ${ opened.problems.join('; ') }`);
      } finally {
        await opened.context.close();
      }
    },
  },
  {
    name:      'report file: the fleet page downloads the fleet\'s, and it opens from disk',
    timeoutMs: 240000,
    async run(t) {
      const { page } = await t.session();

      await gotoHome(page, t.dev.url);
      await routerPush(page, '/c/_/manager/node-health');
      const button = page.locator('[data-testid="node-health-fleet-report"]');

      await page.locator('[data-testid="node-health-fleet-summary"]').waitFor({ state: 'visible', timeout: 120000 });
      await button.waitFor({ state: 'visible', timeout: 30000 });
      await t.shot(page, 'fleet page');
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), button.click()]);
      const path = join(OUTPUT_DIR, 'report-file', 'from-the-fleet.html');

      mkdirSync(join(OUTPUT_DIR, 'report-file'), { recursive: true });
      await download.saveAs(path);
      assert(/^node-health-fleet-.*\.html$/.test(download.suggestedFilename()), `the download is named ${ download.suggestedFilename() }`);
      const opened = await openFile(t, path);

      try {
        const source = await opened.page.locator('[data-testid="nh-r-source"]').innerText();

        assert(source.includes(en('nodeHealth.htmlReport.source.fromKind.fleet')), `the file does not say it comes from the fleet page: ${ source }`);
        // Every cluster of the fleet: the 2,000 nodes of big-rke2 besides the others, the ghost etcd machine among them.
        const counts = await countsShown(opened.page);

        assert(Object.values(counts).reduce((a, b) => a + b, 0) > 2000, `the fleet's file counts ${ JSON.stringify(counts) }`);
        await opened.page.locator('[data-testid="nh-r-search"]').fill(GHOST_MACHINE);
        await opened.page.locator('[data-testid="nh-r-range"]').filter({ hasText: '1–1 of 1' }).waitFor({ timeout: 5000 });
        await assertNoMarkup(opened.page);
        await t.shot(opened.page, 'from the fleet page');
        assert(opened.problems.length === 0, `the file tried: ${ opened.problems.join('; ') }`);
      } finally {
        await opened.context.close();
      }
    },
  },
];
