/**
 * Engine benchmark: for synthetic clusters of 1,000, 5,000 and 20,000 nodes, the median time to JSON.parse
 * the serialized input and to join and diagnose it, in one process. The diagnosis should cost at most half
 * of parsing its input, and grow linearly with the number of nodes. Then the same for a fleet (200 clusters
 * of 50 nodes by default): what the fleet view receives from the management cluster (no downstream Node; the
 * management Nodes carry their copies), and its diagnosis, node copies included.
 *
 * The engine timed is the one that ships: the engine (and the fleet's node copies) bundled into one module by
 * esbuild at start, as the tab's worker and the fleet page run it bundled (bench/bundle.ts); `--build tsx` times
 * the modules as tsx loads them instead, each call between modules through CommonJS getters.
 *   yarn -s bench [--json] [--runs N] [--sizes 1000,5000,20000] [--fleet 200x50|none] [--build bundle|tsx]
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { large } from '../scenarios/catalog';
import { fleet } from '../scenarios/fleet';
import { loadEngine } from './bundle';
import type { BenchEngine } from './bundle';
import { asTheTabReads } from './tab-input';

const WARMUP_NODES = 10000;

interface Figure {
  nodes: number;
  objects: number;
  bytes: number;
  parseMs: number;
  diagnoseMs: number;
  ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);

  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Medians over `runs` timed rounds of parsing `items` serialized as a List and diagnosing what was parsed.
 * Untimed rounds first warm the JIT for both halves alike, until it has seen about 10,000 nodes: at 1,000
 * nodes a single round left the timed runs in code that was not optimised yet.
 */
function time(items: unknown[], nodes: number, runs: number, diagnoseParsed: (parsed: any[]) => void): Figure {
  const serialized = JSON.stringify({
    apiVersion: 'v1', kind: 'List', items
  });
  const parseTimes: number[] = [];
  const diagnoseTimes: number[] = [];
  const warmup = Math.max(1, Math.ceil(WARMUP_NODES / nodes));

  for (let i = 0; i < warmup + runs; i++) {
    const t0 = performance.now();
    const parsed = JSON.parse(serialized);
    const t1 = performance.now();

    diagnoseParsed(parsed.items);
    const t2 = performance.now();

    if (i >= warmup) {
      parseTimes.push(t1 - t0);
      diagnoseTimes.push(t2 - t1);
    }
  }
  const parseMs = median(parseTimes);
  const diagnoseMs = median(diagnoseTimes);

  return {
    nodes, objects: items.length, bytes: serialized.length, parseMs: round(parseMs), diagnoseMs: round(diagnoseMs), ratio: round(diagnoseMs / parseMs)
  };
}

let engine: BenchEngine;

function measure(nodes: number, runs: number): Figure {
  const scenario = large(nodes, { seed: `bench-${ nodes }` });
  const cluster = scenario.clusters[0];
  const objects = asTheTabReads([...scenario.objects, ...(scenario.downstream[cluster.mgmtId] ?? [])], scenario.now);

  return time(objects, nodes, runs, (items) => {
    const report = engine.diagnose(items, { now: scenario.now, defaultCluster: cluster.mgmtId });

    if (report.records.length < nodes) {
      throw new Error(`expected at least ${ nodes } records, got ${ report.records.length }`);
    }
  });
}

interface ChangeFigure {
  nodes: number;
  incrementalMs: number;
  fullMs: number;
  judged: number;
}

/**
 * One Machine changed (its Ready condition turned False), a minute later: the median time of diagnosing the
 * change against the state of the earlier diagnosis, and of a full diagnosis of the same new input.
 */
function measureChange(nodes: number, runs: number): ChangeFigure {
  const scenario = large(nodes, { seed: `bench-${ nodes }` });
  const cluster = scenario.clusters[0];
  const objects = JSON.parse(JSON.stringify(asTheTabReads([...scenario.objects, ...(scenario.downstream[cluster.mgmtId] ?? [])], scenario.now)));
  const options = { now: scenario.now, defaultCluster: cluster.mgmtId };
  const {
    applyChanges, classify, diagnose, diagnoseChanges, diagnoseKeeping
  } = engine;
  const machines = objects.filter((o: unknown) => classify(o) === 'machine');
  const later = { ...options, now: Date.parse(scenario.now) + 60000 };
  const incrementalTimes: number[] = [];
  const fullTimes: number[] = [];
  let judged = 0;

  for (let i = 0; i < 2 + runs; i++) {
    const state = diagnoseKeeping(objects, options);
    const copy = JSON.parse(JSON.stringify(machines[Math.floor(machines.length / 2) + i]));

    copy.metadata.resourceVersion = `${ copy.metadata.resourceVersion ?? 0 }1`;
    copy.status.conditions = (copy.status.conditions ?? []).map((c: any) => (c.type === 'Ready' ? {
      ...c, status: 'False', reason: 'Bench'
    } : c));
    const changes = { changed: [copy] };
    const next = applyChanges(objects, changes) as unknown[];
    const t0 = performance.now();
    const incremental = diagnoseChanges(state, changes, later);
    const t1 = performance.now();

    diagnose(next, later);
    const t2 = performance.now();

    if (i >= 2) {
      incrementalTimes.push(t1 - t0);
      fullTimes.push(t2 - t1);
      judged = incremental.how.judged;
    }
  }

  return {
    nodes, incrementalMs: round(median(incrementalTimes)), fullMs: round(median(fullTimes)), judged
  };
}

interface FleetFigure extends Figure {
  clusters: number;
}

function measureFleet(clusters: number, nodesPerCluster: number, runs: number): FleetFigure {
  const scenario = fleet(clusters, { nodesPerCluster });
  // What the fleet's requests return: the management cluster's objects, plan secrets among its secrets only.
  const objects = scenario.objects.filter((o) => o.kind !== 'Secret' || (o as any).type === 'rke.cattle.io/machine-plan');
  const nodes = clusters * nodesPerCluster;
  const availability = {
    machines: 'ok', planSecrets: 'ok', bootstraps: 'ok', infraMachines: 'ok', mgmtNodes: 'ok', nodes: 'absent'
  } as const;
  const figure = time(objects, nodes, runs, (items) => {
    const mgmtNodes = items.filter((o: any) => o.kind === 'Node' && o.apiVersion === 'management.cattle.io/v3');
    const report = engine.diagnose([...items, ...engine.nodeCopies(mgmtNodes)], {
      now: scenario.now, availability, nodesLeftToTab: true
    });

    if (report.clusters.length < clusters || report.records.length < nodes * 0.9) {
      throw new Error(`expected ${ clusters } clusters and about ${ nodes } records, got ${ report.clusters.length } and ${ report.records.length }`);
    }
  });

  return { ...figure, clusters };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      json:  { type: 'boolean', default: false },
      runs:  { type: 'string', default: '7' },
      sizes: { type: 'string', default: '1000,5000,20000' },
      fleet: { type: 'string', default: '200x50' },
      build: { type: 'string', default: 'bundle' },
    },
  });

  if (values.build !== 'bundle' && values.build !== 'tsx') {
    throw new Error(`--build must be bundle or tsx, not ${ values.build }`);
  }
  engine = loadEngine(values.build);
  if (values.json) {
    process.stdout.write(`${ JSON.stringify({ build: engine.build }) }\n`);
  } else {
    process.stdout.write(`engine timed: ${ engine.build }\n`);
  }
  const runs = Math.max(1, Number(values.runs) || 7);
  const sizes = String(values.sizes).split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
  const figures: Figure[] = [];

  for (const nodes of sizes) {
    const f = measure(nodes, runs);

    figures.push(f);
    if (values.json) {
      // The field names are the published figure format.
      // eslint-disable-next-line camelcase
      process.stdout.write(`${ JSON.stringify({
        nodes: f.nodes, parse_ms: f.parseMs, diagnose_ms: f.diagnoseMs, ratio: f.ratio
      }) }\n`);
    } else {
      process.stdout.write(`${ f.nodes } nodes (${ f.objects } objects, ${ (f.bytes / 1e6).toFixed(1) } MB): parse ${ f.parseMs } ms, diagnose ${ f.diagnoseMs } ms, ratio ${ f.ratio }\n`);
    }
  }
  for (const nodes of sizes) {
    const c = measureChange(nodes, Math.min(runs, 5));

    if (values.json) {
      // eslint-disable-next-line camelcase
      process.stdout.write(`${ JSON.stringify({
        nodes: c.nodes, incremental_ms: c.incrementalMs, full_ms: c.fullMs, judged: c.judged
      }) }\n`);
    } else {
      process.stdout.write(`${ c.nodes } nodes, one Machine changed: incremental ${ c.incrementalMs } ms (${ c.judged } records judged), full ${ c.fullMs } ms\n`);
    }
  }
  const fleetSize = /^(\d+)x(\d+)$/.exec(String(values.fleet));

  if (fleetSize) {
    const f = measureFleet(Number(fleetSize[1]), Number(fleetSize[2]), runs);

    if (values.json) {
      // eslint-disable-next-line camelcase
      process.stdout.write(`${ JSON.stringify({
        fleet: true, clusters: f.clusters, nodes: f.nodes, parse_ms: f.parseMs, diagnose_ms: f.diagnoseMs, ratio: f.ratio
      }) }\n`);
    } else {
      process.stdout.write(`fleet of ${ f.clusters } clusters, ${ f.nodes } nodes (${ f.objects } objects, ${ (f.bytes / 1e6).toFixed(1) } MB): parse ${ f.parseMs } ms, diagnose ${ f.diagnoseMs } ms, ratio ${ f.ratio }\n`);
    }
  } else if (values.fleet !== 'none') {
    throw new Error(`--fleet must be <clusters>x<nodes> or none, not ${ values.fleet }`);
  }
  if (!values.json && figures.length > 1) {
    const first = figures[0];
    const last = figures[figures.length - 1];
    const perNodeFirst = first.diagnoseMs / first.nodes;
    const perNodeLast = last.diagnoseMs / last.nodes;

    process.stdout.write(`diagnose per node: ${ (perNodeFirst * 1000).toFixed(1) } µs at ${ first.nodes }, ${ (perNodeLast * 1000).toFixed(1) } µs at ${ last.nodes } (x${ (perNodeLast / perNodeFirst).toFixed(2) })\n`);
  }
}

main();
