/**
 * `tsx tests/e2e/trace-open.ts [--nodes 2000] [--tab node-health] [--out FILE]`: one Chromium trace of opening the
 * cluster page on a tab (in-app navigation from Home, as e2e:perf times it), and a summary on stdout of where the
 * main thread's long tasks went from the page having drawn its tabs until a second after the tab's verdicts:
 * per long task its start, length and the share of its CPU samples whose stack holds the extension's code
 * (pkg/node-health), Rancher's shell, or neither (Vue, the garbage collector, the browser), and the functions
 * with the most self time. E2E_DEV_URL / E2E_MOCK_PORT reuse a running dev server as in run.ts.
 */
import { readFileSync, writeFileSync } from 'fs';
import { get as httpsGet } from 'https';
import type { Page } from 'playwright-core';
import { startMockRancher } from '../../mock-rancher/server';
import { HUGE_CLUSTER, HUGE_SCENARIO, LARGE_CLUSTER } from '../../scenarios/catalog';
import { clusterPath, waitForShell } from './dashboard';
import {
  launchBrowser, log, openContext, openPage, startDevServer
} from './harness';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${ name }`);

  return i >= 0 ? process.argv[i + 1] : fallback;
}

const PAGE_DRAWN = 'section#machine-pools';
const ROW: Record<string, string> = {
  'machine-pools': 'section#machine-pools [data-testid$="-row"]',
  'node-health':   '[data-testid="node-health-tab"] [data-testid^="node-health-table-"][data-testid$="-row"]',
};
const VERDICTS = '[data-testid="node-health-tab"] [data-testid="node-health-summary"]';

/** Navigates and marks (performance.mark) nh-start, nh-drawn, nh-rows, nh-verdicts, nh-end. */
async function navigate(page: Page, path: string, rowSel: string, doneSel: string | null): Promise<Record<string, number>> {
  return page.evaluate(`new Promise((resolve) => {
    const marks = {};
    const mark = (n) => { performance.mark(n); marks[n] = performance.now() - marks['nh-start']; };
    const shown = (s) => { const el = document.querySelector(s); return !!el && el.offsetParent !== null && el.getBoundingClientRect().height > 0; };
    marks['nh-start'] = performance.now();
    performance.mark('nh-start');
    function tick() {
      if (!('nh-drawn' in marks) && document.querySelector(${ JSON.stringify(PAGE_DRAWN) })) mark('nh-drawn');
      if (!('nh-rows' in marks) && shown(${ JSON.stringify(rowSel) })) mark('nh-rows');
      const done = ${ JSON.stringify(doneSel) };
      if ('nh-rows' in marks && (!done || shown(done))) {
        mark('nh-verdicts');
        setTimeout(() => { mark('nh-end'); resolve(marks); }, 1000);
        return;
      }
      requestAnimationFrame(tick);
    }
    window.$globalApp.$router.push(${ JSON.stringify(path) });
    requestAnimationFrame(tick);
  })`) as Promise<Record<string, number>>;
}

interface TraceEvent {
  name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number; id?: string; args?: any;
}

interface ProfileNode { id: number; parent?: number; callFrame: { functionName: string; url: string; lineNumber?: number } }

/** Module of a bundle line: in the dev bundles each module starts with a marker line naming its path. */
const moduleLines = new Map<string, { line: number; path: string }[]>();

function fetchText(url: string): Promise<string> {
  return new Promise((resolve) => {
    httpsGet(url, { rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];

      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString()));
    }).on('error', () => resolve(''));
  });
}

async function indexBundles(urls: string[]): Promise<void> {
  for (const url of urls) {
    if (!url?.startsWith('https://') || moduleLines.has(url)) {
      continue;
    }
    const lines = (await fetchText(url)).split('\n');
    const starts: { line: number; path: string }[] = [];

    lines.forEach((l, i) => {
      const m = /^\/\*\*\*\/ "([^"]+)"/.exec(l);

      if (m) {
        starts.push({ line: i, path: m[1] });
      }
    });
    moduleLines.set(url, starts);
  }
}

function moduleOf(url = '', line = 0): string {
  const starts = moduleLines.get(url);

  if (!starts?.length) {
    return url;
  }
  let lo = 0;
  let hi = starts.length - 1;

  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;

    if (starts[mid].line <= line) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }

  return starts[lo].line <= line ? starts[lo].path : url;
}

function classify(frame: { url: string; lineNumber?: number }): 'ours' | 'shell' | 'vue' | null {
  const path = moduleOf(frame.url, frame.lineNumber);

  if (path.includes('pkg/node-health') || path.startsWith('blob:')) {
    return 'ours';
  }
  if (path.includes('@rancher/')) {
    return 'shell';
  }
  if (/@vue\/|vue-router|vuex|\/vue\//.test(path)) {
    return 'vue';
  }

  return null;
}

async function summarise(events: TraceEvent[]): Promise<void> {
  const marks = new Map<string, number>();

  for (const e of events) {
    if (e.cat.includes('blink.user_timing') && e.name.startsWith('nh-')) {
      marks.set(e.name, e.ts);
    }
  }
  const start = marks.get('nh-start');
  const drawn = marks.get('nh-drawn');
  const end = marks.get('nh-end');

  if (start === undefined || drawn === undefined || end === undefined) {
    log(`marks missing: ${ [...marks.keys()].join(', ') }`);

    return;
  }
  // The renderer's main thread: the one the marks are on.
  const markEvent = events.find((e) => e.name === 'nh-start' && e.cat.includes('user_timing')) as TraceEvent;
  const main = { pid: markEvent.pid, tid: markEvent.tid };
  // Profile samples of the main thread, on the trace's clock.
  const nodes = new Map<number, ProfileNode>();
  const samples: { ts: number; node: number }[] = [];
  const profileIds = new Set(events.filter((e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid).map((e) => e.id));
  let clock = 0;

  for (const e of events) {
    if (e.name === 'Profile' && profileIds.has(e.id)) {
      clock = e.args.data.startTime;
    }
    if (e.name !== 'ProfileChunk' || !profileIds.has(e.id)) {
      continue;
    }
    const cpu = e.args.data.cpuProfile ?? {};

    for (const n of cpu.nodes ?? []) {
      nodes.set(n.id, n);
    }
    const deltas: number[] = e.args.data.timeDeltas ?? [];

    (cpu.samples ?? []).forEach((id: number, i: number) => {
      clock += deltas[i] ?? 0;
      samples.push({ ts: clock, node: id });
    });
  }
  await indexBundles([...new Set([...nodes.values()].map((n) => n.callFrame.url))]);
  const kindOf = (id: number): string => {
    let kind: string | null = null;
    let n: ProfileNode | undefined = nodes.get(id);
    const leaf = n?.callFrame.functionName ?? '';

    if (leaf === '(garbage collector)') {
      return 'gc';
    }
    if (leaf === '(program)' || leaf === '(idle)') {
      return 'browser';
    }
    for (; n; n = n.parent === undefined ? undefined : nodes.get(n.parent)) {
      const k = classify(n.callFrame);

      if (k === 'ours') {
        return 'ours';
      }
      if (k === 'shell' && !kind) {
        kind = 'shell';
      }
      if (k === 'vue' && !kind) {
        kind = 'vue';
      }
    }

    return kind ?? 'other';
  };

  // parents: nodes carry children in Chrome's format
  for (const n of nodes.values()) {
    for (const c of (n as any).children ?? []) {
      const child = nodes.get(c);

      if (child) {
        child.parent = n.id;
      }
    }
  }
  const tasks = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === 'RunTask' && (e.dur ?? 0) >= 50000 && e.ts >= (process.env.TRACE_ALL ? start : drawn) && e.ts <= end);
  const totals: Record<string, number> = {};
  let blocked = 0;

  process.stdout.write(`marks (ms after start): ${ [...marks.entries()].map(([k, v]) => `${ k }=${ Math.round((v - start) / 1000) }`).join(' ') }\n`);
  for (const t of tasks) {
    const inTask = samples.filter((s) => s.ts >= t.ts && s.ts <= t.ts + (t.dur as number));
    const kinds: Record<string, number> = {};
    const self = new Map<string, number>();

    for (const s of inTask) {
      const k = kindOf(s.node);

      kinds[k] = (kinds[k] ?? 0) + 1;
      const f = nodes.get(s.node)?.callFrame;
      const name = `${ f?.functionName || '(anon)' } ${ moduleOf(f?.url, f?.lineNumber).replace(/^.*node_modules\//, '') }`;

      self.set(name, (self.get(name) ?? 0) + 1);
    }
    const ms = (t.dur as number) / 1000;

    blocked += ms;
    const n = inTask.length || 1;
    const split = Object.entries(kinds).sort((a, b) => b[1] - a[1]).map(([k, c]) => `${ k } ${ Math.round(ms * c / n) }`);

    Object.entries(kinds).forEach(([k, c]) => (totals[k] = (totals[k] ?? 0) + ms * c / n));
    const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, c]) => `${ k }:${ Math.round(ms * c / n) }`);
    // the stack under the task: the outermost frames of its first sample of our code or the shell
    const stackOf = (id: number): string => {
      const out: string[] = [];

      for (let m = nodes.get(id); m; m = m.parent === undefined ? undefined : nodes.get(m.parent)) {
        if (classify(m.callFrame) === 'ours' || classify(m.callFrame) === 'shell') {
          out.push(`${ m.callFrame.functionName || '(anon)' }@${ moduleOf(m.callFrame.url, m.callFrame.lineNumber).replace(/^.*\//, '') }`);
        }
      }

      return out.slice(-4).reverse().join(' > ');
    };
    const stacks = new Map<string, number>();

    inTask.forEach((s) => {
      const k = stackOf(s.node);

      stacks.set(k, (stacks.get(k) ?? 0) + 1);
    });
    const topStacks = [...stacks.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, c]) => `      ${ Math.round(ms * c / n) } ms  ${ k || '(none)' }`);

    const ourFrames = new Map<string, number>();

    inTask.forEach((s) => {
      const names: string[] = [];

      for (let m = nodes.get(s.node); m; m = m.parent === undefined ? undefined : nodes.get(m.parent)) {
        if (classify(m.callFrame) === 'ours') {
          names.push(`${ m.callFrame.functionName || '(anon)' }@${ moduleOf(m.callFrame.url, m.callFrame.lineNumber).replace(/^.*\//, '') }`);
        }
      }
      if (names.length) {
        const k = names.slice(0, 2).reverse().join(' > ');

        ourFrames.set(k, (ourFrames.get(k) ?? 0) + 1);
      }
    });
    const ourTop = [...ourFrames.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, c]) => `      ours ${ Math.round(ms * c / n) } ms  ${ k }`);

    process.stdout.write(`task at ${ Math.round((t.ts - start) / 1000) } ms, ${ Math.round(ms) } ms: ${ split.join(', ') }\n    self: ${ top.join(' | ') }\n${ topStacks.join('\n') }\n${ ourTop.join('\n') }\n`);
  }
  process.stdout.write(`blocked ${ Math.round(blocked) } ms: ${ Object.entries(totals).map(([k, v]) => `${ k } ${ Math.round(v) }`).join(', ') }\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--read')) {
    await summarise(JSON.parse(readFileSync(arg('read', ''), 'utf8')).traceEvents);

    return;
  }
  const nodes = Number(arg('nodes', '2000'));
  const tab = arg('tab', 'node-health');
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

    await navigate(page, path, ROW[tab], tab === 'node-health' ? VERDICTS : null);
    await page.evaluate(() => (window as any).$globalApp.$router.push('/home'));
    await waitForShell(page);
    await page.waitForTimeout(2000);
    const cdp = await page.context().newCDPSession(page);
    const events: TraceEvent[] = [];

    cdp.on('Tracing.dataCollected', (d: any) => events.push(...d.value));
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));

    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig:  {
        includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing',
          'disabled-by-default-v8.cpu_profiler'],
      },
    } as any);
    if (process.env.TRACE_VUE) {
      // Vue's own measures of each component's mount, render and patch (a dev build's `config.performance`).
      await page.evaluate(() => {
        (window as any).$globalApp.$.appContext.config.performance = true;
        performance.clearMeasures();
      });
    }
    const marks = await navigate(page, path, ROW[tab], tab === 'node-health' ? VERDICTS : null);

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

    await cdp.send('Tracing.end');
    await done;
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
