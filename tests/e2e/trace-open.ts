/**
 * `tsx tests/e2e/trace-open.ts [--nodes 2000] [--tab node-health] [--out FILE]`: one Chromium trace of opening the
 * cluster page on a tab (in-app navigation from Home, as e2e:perf times it), and a summary on stdout of where the
 * main thread's long tasks went from the page having drawn its tabs until a second after the tab's verdicts:
 * per long task its start, length and the share of its CPU samples whose stack holds the extension's code
 * (pkg/node-health), Rancher's shell, or neither (Vue, the garbage collector, the browser), and the functions
 * with the most self time. E2E_DEV_URL / E2E_MOCK_PORT reuse a running dev server as in run.ts.
 */
import { readFileSync, writeFileSync } from 'fs';
import { startMockRancher } from '../../mock-rancher/server';
import { HUGE_CLUSTER, HUGE_SCENARIO, LARGE_CLUSTER } from '../../scenarios/catalog';
import { OPENING, clusterPath, waitForShell } from './dashboard';
import { attribute, attributionText, startTrace, timeOpening } from './trace';
import type { TraceEvent } from './trace';
import {
  launchBrowser, log, openContext, openPage, startDevServer
} from './harness';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${ name }`);

  return i >= 0 ? process.argv[i + 1] : fallback;
}

async function summarise(events: TraceEvent[]): Promise<void> {
  const found = await attribute(events, !!process.env.TRACE_ALL);

  if (!found) {
    log('marks missing');

    return;
  }
  process.stdout.write(attributionText(found));
}

async function main(): Promise<void> {
  if (process.argv.includes('--read')) {
    await summarise(JSON.parse(readFileSync(arg('read', ''), 'utf8')).traceEvents);

    return;
  }
  const nodes = Number(arg('nodes', '2000'));
  const tab = arg('tab', 'node-health') as keyof typeof OPENING.rows;

  if (!(tab in OPENING.rows)) {
    throw new Error(`--tab must be one of ${ Object.keys(OPENING.rows).join(', ') }`);
  }
  const out = arg('out', '');
  const scenario = nodes === 10000 ? HUGE_SCENARIO : `large-${ nodes }`;
  const cluster = nodes === 10000 ? HUGE_CLUSTER.name : LARGE_CLUSTER.name;
  const port = process.env.E2E_MOCK_PORT ? Number(process.env.E2E_MOCK_PORT) : 0;
  const mock = await startMockRancher({
    scenarios: [scenario], port, log, logRequests: 'problems', sqlCache: true
  });
  const dev = process.env.E2E_DEV_URL ? undefined : await startDevServer(mock.url);
  const devUrl = process.env.E2E_DEV_URL || (dev?.url as string);
  const browser = await launchBrowser();

  try {
    const { page } = await openPage(await openContext(browser, devUrl));

    await page.goto(`${ devUrl }/home`, { waitUntil: 'domcontentloaded', timeout: 300000 });
    await waitForShell(page, 300000);
    // One visit first, so that the dashboard's scripts and the tab's chunks are loaded as in the perf's later tries.
    const path = `${ clusterPath('fleet-default', cluster) }#${ tab }`;

    await timeOpening(page, path, OPENING.rows[tab], tab === 'node-health' ? OPENING.verdicts : undefined);
    await page.evaluate(() => (window as any).$globalApp.$router.push('/home'));
    await waitForShell(page);
    await page.waitForTimeout(2000);
    const stop = await startTrace(page);

    if (process.env.TRACE_VUE) {
      // Vue's own measures of each component's mount, render and patch (a dev build's `config.performance`).
      await page.evaluate(() => {
        (window as any).$globalApp.$.appContext.config.performance = true;
        performance.clearMeasures();
      });
    }
    const marks = await timeOpening(page, path, OPENING.rows[tab], tab === 'node-health' ? OPENING.verdicts : undefined);

    if (process.env.TRACE_VUE) {
      const measures = await page.evaluate((re) => {
        const start = performance.getEntriesByName('nh-start', 'mark').pop()?.startTime ?? 0;

        const all = performance.getEntriesByType('measure');

        return all.filter((m) => new RegExp(re).test(m.name))
          .map((m) => ({
            name: m.name, at: Math.round(m.startTime - start), ms: Math.round(m.duration * 10) / 10
          }));
      }, process.env.TRACE_VUE);
      const top = measures.filter((m) => !measures.some((o) => o !== m && o.at <= m.at && o.at + o.ms >= m.at + m.ms && o.ms > m.ms));

      process.stdout.write(`vue measures (outermost) matching ${ process.env.TRACE_VUE }:\n${ top.map((m) => `  at ${ m.at } ms  ${ m.ms } ms  ${ m.name }`).join('\n') }\n`);
      process.stdout.write(`  total ${ Math.round(top.reduce((a, m) => a + m.ms, 0)) } ms\n`);
    }

    const events = await stop();

    log(`marks: ${ JSON.stringify(marks) }`);
    if (out) {
      writeFileSync(out, JSON.stringify({ traceEvents: events }));
    }
    await summarise(events);
  } finally {
    await browser.close().catch(() => undefined);
    await dev?.stop().catch(() => undefined);
    await mock.close().catch(() => undefined);
  }
}

main().catch((e) => {
  process.stderr.write(`trace-open: ${ e?.stack || e }\n`);
  process.exit(1);
});
