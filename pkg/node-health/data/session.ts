/**
 * The tab's data for one cluster, kept where the lists are read: in a Web Worker (node-health.worker.ts), or on
 * the page when no worker can start. Loads, joins and diagnoses, and hands the page only what it shows: rows,
 * counts, the clusters' findings and banners, what could not be read. A record's objects (its chain and
 * evidence) and, for the export, the load's own input and report redacted are handed out on demand.
 *
 * With a ChangeWatch, a refresh reads again only the lists Steve said changed (each watched from the revision
 * it was read at, so nothing is read twice for want of a watch); when nothing changed at all, the
 * records joined last time are judged again against the clock, without reading or joining anything.
 */
import type {
  ClusterInfo, DiagnosisReport, DiagnosisState, HostReport, KubeObject, NodeRecord, RecordStatus
} from '../engine';
import { loadClusterData } from './load';
import { loadRecordData } from './record-load';
import type { RecordSubject } from './record-target';
import type { ListCache } from './load';
import type { ListForm, PlannedRequest } from './requests';
import type { AccessReviews } from './access';
import { accessReviews } from './access';
import { watchedListOf } from './changes';
import type { ChangeWatch } from './changes';
import { diagnoseAgainAt, diagnoseLoadKeeping, fatalIssue, judgedAt } from './outcome';
import { clusterInput } from './input';
import { redactDiagnosis, unreadableOf } from '../export/redacted';
import type { RedactedDiagnosis } from '../export/redacted';
import { buildRows } from './rows';
import { RowStore } from './row-query';
import type { RowPage, RowQuery } from './row-query';
import type { StoreInput, StoreLists } from './store-lists';
import { SyncedLists } from './store-sync';
import type { StorePart, SyncedInput } from './store-sync';
import type {
  ClusterTarget, Dispatch, LoadIssue, LoadResult, NodeRow
} from './types';

export interface RefreshRequest {
  target: ClusterTarget;
  form: ListForm;
  /** complete lists the dashboard store holds, as plain copies */
  fromStore: StoreLists;
  /** store lists that are the same as in the previous request: the copies sent then are used */
  storeUnchanged?: StoreInput[];
  /** store lists sent in parts before the request (store-sync.ts), whole now */
  synced?: SyncedInput[];
  /** read every list again (right after a write of ours, which the watch may not have reported yet) */
  rereadAll?: boolean;
  /** one record's objects only, not the whole cluster's (the record tab, record-load.ts) */
  subject?: RecordSubject;
  /**
   * The page the table shows: the view then carries that page of rows (`page`), never every row; the session
   * keeps the query for the answers that follow (new host reports)
   */
  rows?: RowQuery;
}

/** What the page shows of a load. */
export interface TabView {
  /** the load as a whole failed: the error state */
  fatal: LoadIssue | null;
  /** no request could be made: the cluster has no management id yet */
  unregistered: boolean;
  availability: LoadResult['availability'];
  issues: LoadIssue[];
  loadedAt: number;
  /** the report's time (RFC3339) */
  now: string;
  counts: Record<RecordStatus, number>;
  clusters: ClusterInfo[];
  /**
   * null: the rows of the last view, unchanged but for how long each status has lasted (the page counts that
   * from `since` and `now`), so that a refresh with nothing changed sends and redraws no row
   */
  rows: NodeRow[] | null;
  /**
   * Where the request gave a query (`RefreshRequest.rows`), its page of rows instead of `rows`; null when the same
   * page as last sent (rows, order and count unchanged)
   */
  page?: RowPage | null;
  /** the row key of each blocking machine of the clusters' findings that has a row */
  blockingKeys: Record<string, string>;
  /** per host report given, in order: the machine (or Node) it joined, or null */
  hostsJoined: (string | null)[];
  /** lists the request said were sent in parts that this session does not hold whole (read from the API instead) */
  unsynced?: SyncedInput[];
  /** lists sent again by the API this time, and lists of the last load used as they were */
  listsRead: number;
  listsReused: number;
}

/** As JSON, without how long each status has lasted (the page counts that from `since` and `now`). */
function textOf(rows: unknown): string {
  return JSON.stringify(rows, (key, value) => (key === 'sinceMs' ? undefined : value));
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class TabSession {
  private readonly lists = new Map<string, KubeObject[]>();
  private readonly reviews: AccessReviews;
  private storeLists: StoreLists = {};
  private readonly synced = new SyncedLists();
  private hostReports: HostReport[] = [];
  private target: ClusterTarget | null = null;
  /** the inputs the last refresh took from the dashboard store */
  private storeInputs: string[] = [];
  private load: LoadResult | null = null;
  /** the last load's failure as a whole, judged once per load */
  private fatal: LoadIssue | null = null;
  private report: DiagnosisReport | null = null;
  /** what the last diagnosis joined and judged, for diagnosing the next load's changes only */
  private state: DiagnosisState | null = null;
  private records = new Map<string, NodeRecord>();
  /** the rows of the last view, as text without the time-dependent part */
  private rowsSent: string | null = null;
  /** every row of the last view, filtered, sorted and paged for the page's table */
  private readonly rowStore = new RowStore();
  /** the page's last query, and its last page sent, as text without the time-dependent part */
  private query: RowQuery | null = null;
  private pageSent: string | null = null;

  constructor(private readonly dispatch: Dispatch, private readonly watch: ChangeWatch | null = null, private readonly now: () => number = Date.now) {
    this.reviews = accessReviews(dispatch);
  }

  async refresh(request: RefreshRequest): Promise<TabView> {
    this.query = request.rows ?? null;
    const fromStore: StoreLists = { ...request.fromStore };

    for (const input of request.storeUnchanged ?? []) {
      if (this.storeLists[input]) {
        fromStore[input] = this.storeLists[input];
      }
    }
    const unsynced: SyncedInput[] = [];

    for (const input of request.synced ?? []) {
      const list = this.synced.list(input);

      if (list) {
        fromStore[input] = list;
      } else {
        unsynced.push(input);
      }
    }
    const storeChanged = (Object.keys(fromStore) as StoreInput[]).some((input) => fromStore[input] !== this.storeLists[input]) ||
      Object.keys(this.storeLists).length !== Object.keys(fromStore).length;

    this.storeLists = fromStore;
    const load = request.subject ? await loadRecordData(this.dispatch, request.target, request.subject, {
      mgmtCluster: fromStore.mgmtCluster, form: request.form, reviews: this.reviews, cache: this.listCache(!!request.rereadAll), now: this.now
    }) : await loadClusterData(this.dispatch, request.target, {
      fromStore, form: request.form, reviews: this.reviews, cache: this.listCache(!!request.rereadAll), now: this.now
    });
    const sameTarget = sameJson(request.target, this.target) && sameJson(Object.keys(fromStore).sort(), this.storeInputs);
    const unchanged = !!this.state && !!this.load && !storeChanged && load.requests.length > 0 && load.requests.every((r) => r.reused) &&
      sameJson(load.availability, this.load.availability) && sameJson(load.issues, this.load.issues) && sameTarget;

    this.target = request.target;
    this.load = load;
    this.storeInputs = Object.keys(fromStore).sort();
    this.fatal = fatalIssue(request.target, load);
    if (this.fatal) {
      this.state = null;
    } else if (unchanged && this.state) {
      // Nothing read again, nothing changed: the same objects, judged again at this time.
      this.setState(diagnoseAgainAt(this.state, judgedAt(request.target, load), this.hostReports));
    } else {
      // Some lists changed: what changed in them is joined and judged again (a full diagnosis for another cluster).
      this.setState(diagnoseLoadKeeping(request.target, load, this.hostReports, sameTarget ? this.state : null));
    }

    return { ...this.view(), unsynced };
  }

  /** New host reports: the last load diagnosed again with them. */
  setHostReports(reports: HostReport[]): TabView | null {
    this.hostReports = reports;
    if (!this.target || !this.load || !this.state) {
      return null;
    }
    this.setState(diagnoseAgainAt(this.state, judgedAt(this.target, this.load), reports));

    return this.view();
  }

  /** A part of a list the page's store holds, for the next loads (store-sync.ts). */
  syncStore(part: StorePart): null {
    this.synced.apply(part);

    return null;
  }

  /** A page of the rows of the last view, as the table asks for it (sort, filters, page, or a row to show). */
  rows(query: RowQuery): RowPage {
    this.query = query;
    const page = this.rowStore.query(query);

    this.pageSent = textOf({ ...page, untranslated: [] });

    return page;
  }

  /** One record with its objects and evidence, for the open detail and the actions. */
  record(key: string): NodeRecord | null {
    return this.records.get(key) ?? null;
  }

  /**
   * For the diagnostics export, on demand: this load's own input and report, redacted here (export/redacted.ts), with
   * what could not be read and the page's action log; null while there is nothing to export.
   */
  exportDiagnosis(actionLog: unknown[] = []): RedactedDiagnosis | null {
    const { target, load, report } = this;

    if (!target || !load || !report || this.fatal) {
      return null;
    }
    const cluster = report.clusters.find((c) => c.namespace === target.namespace && c.name === target.name) ?? null;

    return redactDiagnosis(clusterInput(target, load), report, {
      cluster, unreadable: unreadableOf(load.issues), actionLog
    });
  }

  close(): void {
    this.watch?.close();
  }

  private setState(state: DiagnosisState): void {
    this.state = state;
    this.report = state.report;
    this.records = new Map(state.report.records.map((r) => [r.key, r]));
  }

  private view(): TabView {
    const load = this.load as LoadResult;
    const fatal = this.fatal;
    const report = fatal ? null : this.report;
    const rows = this.newRows(report ? buildRows(report) : []);

    if (rows) {
      this.rowStore.set(rows);
    }
    const clusters = report?.clusters ?? [];

    return {
      fatal,
      unregistered: load.requests.length === 0,
      availability: load.availability,
      issues:       load.issues,
      loadedAt:     load.loadedAt,
      now:          report?.now ?? new Date(load.loadedAt).toISOString(),
      counts:       report?.counts ?? {
        healthy: 0, warning: 0, error: 0, unknown: 0
      },
      clusters,
      ...this.rowsOfView(rows),
      blockingKeys: this.rowStore.machineKeys(clusters.flatMap((c) => c.blockingMachines ?? [])),
      hostsJoined:  this.hostReports.map((r) => this.joinedTitle(report?.hosts.find((h) => h.report === r)?.record ?? null)),
      listsRead:    load.requests.filter((r) => !r.reused).length,
      listsReused:  load.requests.filter((r) => r.reused).length,
    };
  }

  /** Every row (when they changed), or with a query the page of it (when that changed) and no other row. */
  private rowsOfView(rows: NodeRow[] | null): Pick<TabView, 'rows' | 'page'> {
    if (!this.query) {
      return { rows };
    }
    const page = this.rowStore.query(this.query);
    const text = textOf({ ...page, untranslated: [] });

    if (text === this.pageSent && !page.untranslated.length) {
      return { rows: null, page: null };
    }
    this.pageSent = text;

    return { rows: null, page };
  }

  private newRows(rows: NodeRow[]): NodeRow[] | null {
    const text = textOf(rows);

    if (text === this.rowsSent) {
      return null;
    }
    this.rowsSent = text;

    return rows;
  }

  private joinedTitle(key: string | null): string | null {
    const r = key ? this.records.get(key) : undefined;

    return r ? (r.objects.machine ? r.machineName : (r.nodeName ?? r.machineName)) ?? r.key : key;
  }

  private listCache(rereadAll: boolean): ListCache | undefined {
    const watch = this.watch;

    if (!watch) {
      return undefined;
    }
    const listOf = (request: PlannedRequest) => watchedListOf(request.access);
    // Whether a watched list changed, asked once per load: a record's load reads one type in several requests (one
    // per selector), and reading the first marks the type read before the others are asked about.
    const changed = new Map<string, boolean>();
    const changedNow = (request: PlannedRequest): boolean => {
      const key = JSON.stringify(listOf(request));

      if (!changed.has(key)) {
        changed.set(key, watch.changed(listOf(request)));
      }

      return changed.get(key) as boolean;
    };

    // A list is watched from the revision it was read at: unchanged from Steve's confirmation on, so the refresh
    // after the first load reads nothing again (changes.ts).
    return {
      get:     (request) => (rereadAll || changedNow(request) ? undefined : this.lists.get(request.url)),
      reading: (request) => {
        this.lists.delete(request.url);
        watch.markRead(listOf(request));
      },
      set: (request, items, revision) => {
        this.lists.set(request.url, items);
        watch.watch(listOf(request), revision);
      },
    };
  }
}
