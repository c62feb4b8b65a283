/**
 * One Chromium trace of the page's main thread, and where its long tasks went: per long task its start, length and
 * the share of its CPU samples whose stack holds the extension's code (pkg/node-health), Rancher's shell, Vue, or
 * neither (the garbage collector, the browser, other scripts such as the store's axios). Used by trace-open.ts
 * (one traced opening, printed in full) and perf.ts (the extension's own share of the blocked time on opening).
 */
import { get as httpsGet } from 'https';
import type { Page } from 'playwright-core';
import { OPENING } from './dashboard';

export interface TraceEvent {
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

/** Starts tracing the page's main thread with CPU samples; the function returned stops and gives the events. */
export async function startTrace(page: Page): Promise<() => Promise<TraceEvent[]>> {
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

  return async() => {
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach().catch(() => undefined);

    return events;
  };
}

export interface Navigation {
  /** ms from the navigation to the first row on screen */
  rows: number;
  /** ms from the navigation to `done` on screen (the tab's verdicts); the same as `rows` without one */
  done: number;
  /** ms from the navigation to the cluster page having drawn its tabs */
  pageDrawn: number;
  /** long-task ms on the main thread from the page having drawn its tabs until a second after `done` */
  blockedAfterDrawn: number;
}

/**
 * Milliseconds from an in-app navigation to the first visible element matching `selector`, to `doneSelector` shown
 * (the rows without one), and to `pageDrawn` being in the page, measured in the page; with the long-task time from the
 * page having been drawn until a second after `done`. The same moments are marked (performance.mark) nh-start,
 * nh-drawn, nh-rows, nh-verdicts and nh-end, for a trace taken meanwhile (attribute). Plain source text: tsx would
 * wrap named functions in a helper that does not exist in the page.
 */
export async function timeOpening(page: Page, path: string, selector: string, doneSelector?: string, pageDrawn = OPENING.pageDrawn): Promise<Navigation> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const selector = ${ JSON.stringify(selector) };
    const doneSelector = ${ JSON.stringify(doneSelector ?? null) };
    let rows = null;
    performance.mark('nh-start');
    const started = performance.now();
    const deadline = started + 300000;
    const longTasks = [];
    const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries()));
    let pageDrawn = null;
    observer.observe({ type: 'longtask' });
    function shown(s) {
      const el = document.querySelector(s);
      return !!el && el.offsetParent !== null && el.getBoundingClientRect().height > 0;
    }
    function tick() {
      if (pageDrawn === null && document.querySelector(${ JSON.stringify(pageDrawn) })) {
        performance.mark('nh-drawn');
        pageDrawn = performance.now() - started;
      }
      if (rows === null && shown(selector)) {
        performance.mark('nh-rows');
        rows = performance.now() - started;
      }
      if (rows !== null && (!doneSelector || shown(doneSelector))) {
        performance.mark('nh-verdicts');
        const done = performance.now() - started;
        const drawnAt = started + (pageDrawn ?? rows);
        // What the tab itself blocks: long tasks from the page having drawn its tabs until a second after the
        // verdicts (the rest of the first load lands then), not the cluster page's own drawing before that.
        setTimeout(() => {
          performance.mark('nh-end');
          observer.takeRecords().forEach((e) => longTasks.push(e));
          observer.disconnect();
          const blockedAfterDrawn = longTasks.filter((e) => e.startTime >= drawnAt).reduce((sum, e) => sum + e.duration, 0);
          resolve({ rows, done, pageDrawn: pageDrawn ?? rows, blockedAfterDrawn });
        }, 1000);
      } else if (performance.now() > deadline) {
        observer.disconnect();
        reject(new Error('nothing matched ' + selector + ' within 300 s'));
      } else {
        requestAnimationFrame(tick);
      }
    }
    window.$globalApp.$router.push(${ JSON.stringify(path) });
    requestAnimationFrame(tick);
  })`) as Promise<Navigation>;
}

export interface LongTask {
  /** ms after the nh-start mark */
  at: number;
  ms: number;
  /** ms of the task per kind: ours, shell, vue, gc, browser, other */
  kinds: Record<string, number>;
  /** the functions with the most self time, "name module:ms" */
  top: string[];
  /** the outermost frames of the extension's code or the shell under the task, with their ms */
  stacks: string[];
  /** the extension's own frames, with their ms */
  ours: string[];
}

export interface Attribution {
  /** the nh-* marks, in ms after nh-start */
  marks: Record<string, number>;
  tasks: LongTask[];
  /** ms of long tasks per kind, over every task */
  totals: Record<string, number>;
  blocked: number;
}

/**
 * The long tasks (50 ms or more) on the main thread between the nh-drawn mark (the page had drawn its tabs; nh-start
 * with `fromStart`) and nh-end, each split by whose code its CPU samples were in; null without the marks.
 */
export async function attribute(events: TraceEvent[], fromStart = false): Promise<Attribution | null> {
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
    return null;
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
  const tasks = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === 'RunTask' && (e.dur ?? 0) >= 50000 && e.ts >= (fromStart ? start : drawn) && e.ts <= end);
  const totals: Record<string, number> = {};
  const out: LongTask[] = [];
  let blocked = 0;

  for (const t of tasks) {
    const inTask = samples.filter((s) => s.ts >= t.ts && s.ts <= t.ts + (t.dur as number));
    const kinds: Record<string, number> = {};
    const self = new Map<string, number>();

    // A task the profiler took no sample of is counted as such, never as anyone's.
    if (!inTask.length) {
      kinds.unsampled = 1;
    }
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
    const topStacks = [...stacks.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, c]) => `${ Math.round(ms * c / n) } ms  ${ k || '(none)' }`);

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
    const ourTop = [...ourFrames.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, c]) => `${ Math.round(ms * c / n) } ms  ${ k }`);

    out.push({
      at: (t.ts - start) / 1000, ms, kinds: Object.fromEntries(Object.entries(kinds).map(([k, c]) => [k, ms * c / n])), top, stacks: topStacks, ours: ourTop
    });
  }

  return {
    marks: Object.fromEntries([...marks.entries()].map(([k, v]) => [k, (v - start) / 1000])), tasks: out, totals, blocked
  };
}

/** The attribution as trace-open prints it. */
export function attributionText(a: Attribution): string {
  const lines = [`marks (ms after start): ${ Object.entries(a.marks).map(([k, v]) => `${ k }=${ Math.round(v) }`).join(' ') }`];

  for (const t of a.tasks) {
    const split = Object.entries(t.kinds).sort((x, y) => y[1] - x[1]).map(([k, v]) => `${ k } ${ Math.round(v) }`);

    lines.push(`task at ${ Math.round(t.at) } ms, ${ Math.round(t.ms) } ms: ${ split.join(', ') }`, `    self: ${ t.top.join(' | ') }`,
      ...t.stacks.map((s) => `      ${ s }`), ...t.ours.map((s) => `      ours ${ s }`));
  }
  lines.push(`blocked ${ Math.round(a.blocked) } ms: ${ Object.entries(a.totals).map(([k, v]) => `${ k } ${ Math.round(v) }`).join(', ') }`);

  return `${ lines.join('\n') }\n`;
}
