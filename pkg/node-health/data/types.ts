/**
 * Types of the tab's data layer: what it loads, how each load went, and the rows it shows. Plain
 * TypeScript, so the loading and row building run (and are tested and benchmarked) without Vue or the store.
 */
import type {
  Availability, ClusterIdentity, InputAvailability, InputName, KubeObject, OperatingSystem, RecordScope, RecordStatus, Role, Severity
} from '../engine';
import type { BundleView } from './bundle-view';

/**
 * The part of the dashboard store the loader uses: `store.dispatch`, or a test double of it. Only
 * `management/request` is dispatched (raw JSON, nothing is put in the store).
 */
export type Dispatch = (type: string, payload?: any) => Promise<any>;

/**
 * The cluster whose nodes the tab shows, read from the provisioning cluster it sits on: its identity (name,
 * namespace, management id, whether Rancher provisions its machines, so that machines, plan secrets and bootstraps
 * exist for it), which the engine is given as it is (DiagnosisInput, data/input.ts), and what the views need besides.
 */
export interface ClusterTarget extends ClusterIdentity {
  /** custom cluster (no machine pools): hosts join by running the registration command */
  custom: boolean;
  /** plain copy of the provisioning cluster object, for the engine */
  cluster: KubeObject;
  /**
   * set when the cluster is a diagnostics bundle served by the embedded Rancher API (bundle-view.ts): judged at
   * the moment it was made, never refreshed, read-only
   */
  bundle?: BundleView | null;
}

/** Why an input could not be (fully) read. */
export type IssueKind =
  | 'unauthorized'
  | 'forbidden'
  /** Steve answered with an empty list where objects must exist: it hides what a user may not read */
  | 'hidden'
  /** read, but the user may not list all of it: Steve showed only what they may see */
  | 'partial'
  | 'not-found'
  | 'server'
  | 'network'
  | 'unknown';

export interface LoadIssue {
  input: InputName;
  kind: IssueKind;
  /** HTTP status, when there was an answer */
  status: number | null;
  /** The server's own message; untrusted text, shown as text only */
  message: string | null;
  /** Which part of the input, when it was read in several requests (the Steve type of an infrastructure kind) */
  subject?: string;
}

/** One request of a load, for the request log and the tests. */
export interface RequestRecord {
  /** the input it reads, or the management cluster (read for the cluster's own findings) */
  input: InputName | 'mgmtCluster';
  url: string;
  /** not sent: the list of an earlier load was used, nothing of it having changed since */
  reused?: true;
}

export interface LoadResult {
  /** Plain objects as Steve returned them, plan secrets already reduced to their status keys */
  objects: KubeObject[];
  availability: Required<InputAvailability>;
  issues: LoadIssue[];
  requests: RequestRecord[];
  /** epoch ms when the last answer arrived */
  loadedAt: number;
  /** one record's load (record-load.ts): what it read beyond the record's chain */
  scope?: RecordScope;
}

export type { Availability, InputName };

/**
 * A row's status: its record's, or `pending` for a row drawn from the store's Machine before the diagnosis is in
 * (data/pending-rows.ts): never counted as any verdict.
 */
export type RowStatus = RecordStatus | 'pending';

export interface NodeRow {
  /** NodeRecord.key: stable across loads, so sort, filters and the open row survive updates */
  key: string;
  status: RowStatus;
  /** 0 = worst, for sorting */
  statusRank: number;
  /** Rancher badge background class */
  statusColor: string;
  machine: string;
  node: string;
  roleList: Role[];
  roles: string;
  os: OperatingSystem;
  phase: string;
  /** the most important finding, if any */
  findingTitleKey: string | null;
  findingArgs: Record<string, string | number>;
  findingSeverity: Severity | null;
  findingCount: number;
  /** when the current status started (RFC3339) and how long ago that was at the report's time */
  since: string | null;
  sinceMs: number | null;
  /** every finding's title, for the search in the user's language (translatedSearch) */
  findingTitles: { key: string; args: Record<string, string | number> }[];
  /** lower-cased text the search matches against */
  searchText: string;
  /** Much slower to get its Node than the other machines of its pool (engine/pools.ts) */
  slowForPool: boolean;
  /** rule ids of the record's findings, for the rule filter */
  rules: string[];
}

/** A row of the fleet page: a node that is not healthy, with its cluster. */
export interface FleetRow extends NodeRow {
  clusterKey: string;
  clusterName: string;
  clusterNamespace: string;
}

export type StatusFilter = 'all' | RecordStatus;
export type RoleFilter = 'all' | Role;

/** The filters of a table of rows; the fleet page's add the cluster (its key) and the rule ('all': any). */
export interface RowFilters {
  search: string;
  status: StatusFilter;
  role: RoleFilter;
  cluster?: string;
  rule?: string;
}
