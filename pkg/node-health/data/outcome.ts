/**
 * From a load to what the tab shows: the diagnosis, whether the load failed as a whole (error state with
 * retry) or only in part (banners naming what is unavailable and why), and the translation keys for both.
 */
import type {
  DiagnosisReport, DiagnosisState, EngineConfig, HostReport, InputName
} from '../engine';
import { diagnoseChanges, diagnoseKeeping } from '../engine';
import { clusterInput, diagnoseInput, diagnoseOptions } from './input';
import { compareObjects } from './object-changes';
import type { ClusterTarget, IssueKind, LoadIssue, LoadResult } from './types';

export { judgedAt } from './input';

export function diagnoseLoad(target: ClusterTarget, load: LoadResult, config?: Partial<EngineConfig>, hostReports: HostReport[] = []): DiagnosisReport {
  return diagnoseInput(clusterInput(target, load), config, hostReports);
}

/**
 * diagnoseLoad, keeping what it joined and judged: with the state of an earlier load of the same cluster (the same
 * target, lists from the same places), only what the objects changed since (by uid and resourceVersion) is joined
 * and judged again (engine/incremental.ts); the report is the one diagnoseLoad gives.
 */
export function diagnoseLoadKeeping(target: ClusterTarget, load: LoadResult, hostReports: HostReport[], earlier: DiagnosisState | null): DiagnosisState {
  const input = clusterInput(target, load);
  const options = diagnoseOptions(input, undefined, hostReports);
  const compared = earlier ? compareObjects(earlier.objects, input.objects) : null;

  return earlier && compared ? diagnoseChanges(earlier, compared.changes, options, compared.objects) : diagnoseKeeping(input.objects, options);
}

/** The same objects judged again at another time or with other host reports: only what the time or the reports touch. */
export function diagnoseAgainAt(state: DiagnosisState, now: number, hostReports: HostReport[]): DiagnosisState {
  return diagnoseChanges(state, {}, {
    ...state.options, now, hostReports
  }, state.objects);
}

/**
 * The issue that leaves nothing worth showing: the input the view is built on (machines for a provisioned
 * cluster, Nodes otherwise) could not be read, or no request succeeded at all.
 */
const NODE_INPUTS: readonly InputName[] = ['machines', 'planSecrets', 'bootstraps', 'infraMachines', 'mgmtNodes', 'nodes'];

export function fatalIssue(target: ClusterTarget, load: LoadResult): LoadIssue | null {
  const failures = load.issues.filter((i) => i.kind !== 'hidden' && i.kind !== 'partial');
  const primary: InputName = target.machineManaged ? 'machines' : 'nodes';
  const primaryFailure = failures.find((i) => i.input === primary);

  if (primaryFailure) {
    return primaryFailure;
  }
  if (load.requests.length > 0 && failures.length > 0) {
    // Cluster API's pool objects alone show no node: the view stands only on a node input that was read.
    const anyRead = NODE_INPUTS.some((input) => load.availability[input] === 'ok' || load.availability[input] === 'partial');

    return anyRead ? null : failures[0];
  }

  return null;
}

export interface UnavailableNotice {
  input: InputName;
  /** nodeHealth.tab.unavailable.input.<input> */
  inputKey: string;
  /** nodeHealth.tab.unavailable.reason.<kind> */
  reasonKey: string;
  /**
   * nodeHealth.tab.unavailable.impact.<input>: what is skipped without the list; null where only part of it is
   * hidden (the reason says what is skipped then: the list's absence would be the wrong story)
   */
  impactKey: string | null;
  args: Record<string, string | number>;
  kind: IssueKind;
  /** server messages, as text */
  messages: string[];
  /** kinds of infrastructure machine concerned */
  subjects: string[];
}

const KIND_RANK: IssueKind[] = ['server', 'network', 'unauthorized', 'unknown', 'not-found', 'forbidden', 'hidden', 'partial'];

/** One notice per input that could not be read, the most telling reason first. */
export function unavailableNotices(target: Pick<ClusterTarget, 'name' | 'namespace' | 'mgmtId'>, load: Pick<LoadResult, 'issues'>): UnavailableNotice[] {
  const byInput = new Map<InputName, LoadIssue[]>();

  for (const issue of load.issues) {
    byInput.set(issue.input, [...(byInput.get(issue.input) ?? []), issue]);
  }

  return [...byInput.entries()].map(([input, issues]) => {
    const worst = [...issues].sort((a, b) => KIND_RANK.indexOf(a.kind) - KIND_RANK.indexOf(b.kind))[0];

    return {
      input,
      inputKey:  `nodeHealth.tab.unavailable.input.${ input }`,
      reasonKey: `nodeHealth.tab.unavailable.reason.${ worst.kind }`,
      impactKey: worst.kind === 'partial' ? null : `nodeHealth.tab.unavailable.impact.${ input }`,
      args:      {
        namespace: input === 'mgmtNodes' ? target.mgmtId ?? '' : target.namespace,
        cluster:   target.mgmtId ?? target.name,
        status:    worst.status ?? '',
      },
      kind:     worst.kind,
      messages: [...new Set(issues.map((i) => i.message).filter((m): m is string => !!m))],
      subjects: [...new Set(issues.map((i) => i.subject).filter((s): s is string => !!s))],
    };
  });
}

/** nodeHealth.tab.error.<kind>: the error state's headline for a failed load. */
export function errorKey(issue: LoadIssue): string {
  return `nodeHealth.tab.error.${ issue.kind }`;
}
