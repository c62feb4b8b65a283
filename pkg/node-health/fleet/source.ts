/**
 * One load and one diagnosis of the fleet for everything that shows it: the cluster list's column, the Machines
 * list's column and the fleet page. The first of them to appear starts polling (the tab's poller: one refresh at
 * a time, paced by how long a refresh kept the page busy); polling pauses while none is on screen or the browser
 * tab is hidden. Plain TypeScript: components subscribe and read `state`.
 *
 * On one cluster's page the Machines tab needs that cluster only: a source scoped to it loads and diagnoses it
 * as the Node Health tab does (its own requests, its downstream Nodes), not the whole fleet.
 */
import type { DiagnosisReport } from '../engine';
import { createPoller, pollInterval } from '../data/poller';
import type { Poller } from '../data/poller';
import { startBusyMeter } from '../data/busy-time';
import { loadClusterData } from '../data/load';
import { accessReviews } from '../data/access';
import type { AccessReviews } from '../data/access';
import { listFormOf } from '../data/steve-mode';
import { fatalIssue } from '../data/outcome';
import { clusterInput, diagnoseInput } from '../data/input';
import { storeLists } from '../data/store-lists';
import type { ClusterTarget, Dispatch } from '../data/types';
import type { StoreGetters, Unwrap } from '../data/store-lists';
import { loadFleetData } from './load';
import type { FleetIssue, FleetLoad } from './load';
import { clusterHealth, diagnoseFleet, fleetSummary, machineHealth } from './diagnosis';
import type { ClusterHealth, FleetSummary, MachineHealth } from './diagnosis';
import { fleetStoreLists } from './store-lists';

export type FleetPhase = 'idle' | 'loading' | 'ready' | 'error';

export interface FleetState {
  phase: FleetPhase;
  load: FleetLoad | null;
  report: DiagnosisReport | null;
  clusters: Map<string, ClusterHealth>;
  machines: Map<string, MachineHealth>;
  summary: FleetSummary | null;
  /** the load failed as a whole (nothing to show) */
  fatal: FleetIssue | null;
  /** a refresh after a good load failed: the last data stays */
  refreshError: FleetIssue | null;
  refreshing: boolean;
  /** increases with every change, so that views can tell */
  version: number;
}

export interface FleetSourceDeps {
  dispatch: Dispatch;
  getters: StoreGetters;
  unwrap?: Unwrap;
  now?: () => number;
  /** the poller's timers and the page's visibility, replaceable in tests */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  pageVisible?: () => boolean;
  /** only this cluster, loaded as its tab loads it; the fleet when absent */
  cluster?: () => ClusterTarget | null;
}

interface Loaded {
  load: FleetLoad;
  report: DiagnosisReport | null;
  fatal: FleetIssue | null;
  /** how long the diagnosis took, where the browser cannot say how long the page was busy */
  diagnoseMs: number;
}

function timed(diagnoseNow: () => DiagnosisReport): { report: DiagnosisReport; diagnoseMs: number } {
  const started = Date.now();
  const report = diagnoseNow();

  return { report, diagnoseMs: Date.now() - started };
}

async function loadFleet(deps: FleetSourceDeps, reviews: AccessReviews): Promise<Loaded> {
  const load = await loadFleetData(deps.dispatch, {
    now: deps.now, fromStore: fleetStoreLists(deps.getters, deps.unwrap), form: listFormOf(deps.getters), reviews
  });
  const fatal = fleetFatalIssue(load);

  return fatal ? {
    load, fatal, report: null, diagnoseMs: 0
  } : {
    load, fatal, ...timed(() => diagnoseFleet(load))
  };
}

/** One cluster, with the tab's loader: the result in the fleet's shape. */
async function loadOneCluster(deps: FleetSourceDeps, target: ClusterTarget, reviews: AccessReviews): Promise<Loaded> {
  const one = await loadClusterData(deps.dispatch, target, {
    now: deps.now, fromStore: storeLists(deps.getters, target, deps.unwrap), form: listFormOf(deps.getters), reviews
  });
  const fatal = fatalIssue(target, one);
  const input = clusterInput(target, one);
  const load: FleetLoad = {
    clusters:     [target.cluster],
    targets:      input.targets,
    mgmtClusters: [],
    objects:      input.objects,
    availability: one.availability,
    issues:       one.issues,
    requests:     one.requests,
    loadedAt:     one.loadedAt,
    input,
  };

  return fatal ? {
    load, fatal, report: null, diagnoseMs: 0
  } : {
    load, fatal, ...timed(() => diagnoseInput(input))
  };
}

/** The load failed as a whole: the cluster list could not be read, or no request succeeded. */
export function fleetFatalIssue(load: FleetLoad): FleetIssue | null {
  const failures = load.issues.filter((i) => i.kind !== 'hidden' && i.kind !== 'partial');
  const clusters = failures.find((i) => i.input === 'clusters');

  if (clusters) {
    return clusters;
  }
  const anyRead = Object.values(load.availability).some((a) => a === 'ok' || a === 'partial');

  return !anyRead && failures.length > 0 ? failures[0] : null;
}

export class FleetSource {
  state: FleetState = {
    phase:        'idle',
    load:         null,
    report:       null,
    clusters:     new Map(),
    machines:     new Map(),
    summary:      null,
    fatal:        null,
    refreshError: null,
    refreshing:   false,
    version:      0,
  };

  private readonly listeners = new Set<() => void>();
  private readonly onScreen = new Set<object>();
  private readonly poller: Poller;
  private busyMs = 0;
  private readonly deps: FleetSourceDeps;
  /** asked once per resource for the source's life, as the tab asks them */
  private readonly reviews: AccessReviews;

  constructor(deps: FleetSourceDeps) {
    this.deps = deps;
    this.reviews = accessReviews(deps.dispatch);
    this.poller = createPoller({
      intervalMs: () => pollInterval(this.busyMs),
      refresh:    () => this.refresh(),
      lastLoaded: () => this.state.load?.loadedAt ?? null,
      now:        deps.now,
      setTimer:   deps.setTimer,
      clearTimer: deps.clearTimer,
    });
    if (typeof document !== 'undefined') {
      document.addEventListener('visibilitychange', () => this.updateVisibility());
    }
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);

    return () => this.listeners.delete(listener);
  }

  /** A view is on screen (or no longer): polling runs while any is and the browser shows the page. */
  setOnScreen(view: object, onScreen: boolean): void {
    if (onScreen) {
      this.onScreen.add(view);
    } else {
      this.onScreen.delete(view);
    }
    this.updateVisibility();
  }

  refreshNow(): Promise<void> {
    return this.poller.refreshNow();
  }

  get polling(): boolean {
    return this.onScreen.size > 0 && this.pageVisible();
  }

  private pageVisible(): boolean {
    if (this.deps.pageVisible) {
      return this.deps.pageVisible();
    }

    return typeof document === 'undefined' || document.visibilityState !== 'hidden';
  }

  private updateVisibility(): void {
    this.poller.setVisible(this.polling);
  }

  private set(patch: Partial<FleetState>): void {
    this.state = {
      ...this.state, ...patch, version: this.state.version + 1
    };
    this.listeners.forEach((l) => l());
  }

  /** One load and diagnosis; never rejects: failures become the error state or the refresh warning. */
  async refresh(): Promise<void> {
    const deps = this.deps;
    const wasReady = this.state.phase === 'ready';

    this.set({ phase: wasReady ? 'ready' : 'loading', refreshing: true });
    const busy = startBusyMeter();

    try {
      const target = deps.cluster ? deps.cluster() : null;

      if (deps.cluster && !target) {
        this.set({ phase: 'idle', refreshing: false });

        return;
      }
      const {
        load, report, fatal, diagnoseMs
      } = target ? await loadOneCluster(deps, target, this.reviews) : await loadFleet(deps, this.reviews);

      if (fatal || !report) {
        const issue = fatal as FleetIssue;

        this.set(wasReady ? { refreshError: issue, refreshing: false } : {
          phase: 'error', fatal: issue, refreshing: false
        });

        return;
      }
      const clusters = clusterHealth(report);

      this.busyMs = busy.stop() ?? diagnoseMs;
      this.set({
        phase:        'ready',
        load,
        report,
        clusters,
        machines:     machineHealth(report),
        summary:      fleetSummary(report, clusters),
        fatal:        null,
        refreshError: null,
        refreshing:   false,
      });
    } catch (err) {
      // Only a defect gets here (the loader turns request failures into issues).
      const issue: FleetIssue = {
        input: 'clusters', kind: 'unknown', status: null, message: err instanceof Error ? err.message : String(err)
      };

      this.set(wasReady ? { refreshError: issue, refreshing: false } : {
        phase: 'error', fatal: issue, refreshing: false
      });
    } finally {
      busy.stop();
    }
  }

  stop(): void {
    this.poller.stop();
  }
}

const SOURCES = new WeakMap<object, Map<string, FleetSource>>();

/**
 * The one fleet source of a dashboard store, or with `cluster` the one of that cluster (`<namespace>/<name>`, with
 * a function giving its current target); made on first use.
 */
export function fleetSourceFor(
  store: { dispatch: Dispatch; getters: StoreGetters }, unwrap?: Unwrap, cluster?: { key: string; target: () => ClusterTarget | null }
): FleetSource {
  let sources = SOURCES.get(store);

  if (!sources) {
    sources = new Map();
    SOURCES.set(store, sources);
  }
  const key = cluster ? `cluster:${ cluster.key }` : 'fleet';
  let source = sources.get(key);

  if (!source) {
    source = new FleetSource({
      dispatch: (type, payload) => store.dispatch(type, payload), getters: store.getters, unwrap, cluster: cluster?.target
    });
    sources.set(key, source);
  }

  return source;
}
