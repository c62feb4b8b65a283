/**
 * One diagnosis of the whole fleet, and what the cluster list, the Machines list and the fleet page show of it:
 * per cluster the nodes by status and the machines that block it, per machine its status and top finding, and
 * the rows of every node that is not healthy.
 */
import { heldBack, leadFinding, RULES, STATUS_ORDER } from '../engine';
import type {
  ClusterInfo, DiagnosisReport, EngineConfig, Finding, RecordStatus, Severity
} from '../engine';
import { clusterKeyOf } from '../data/rows';
import { diagnoseInput } from '../data/input';
import type { FleetLoad } from './load';

// The fleet page's rows and filters are the view-model's (data/rows.ts), as the tab's.
export { clusterKeyOf, fleetRows } from '../data/rows';
export type { FleetRow } from '../data/types';

const SEVERITY_ORDER: Severity[] = ['error', 'warning', 'info'];

/**
 * Rules that need the downstream Node list itself (a Node's absence, or the Nodes under another name). The
 * fleet reads Rancher's copies of the Nodes instead, which cannot show what is absent: these rules are left
 * to the cluster's tab rather than guessed.
 */
export const TAB_ONLY_RULES: string[] = RULES.filter((r) => r.needs.includes('nodes')).map((r) => r.id);

/**
 * Of those, what Rancher's copy of a Node cannot show at all: its node syncer blanks every heartbeat, so a status
 * nothing writes any more reads as any other there. The fleet may call such a node healthy; its cluster's tab does not.
 */
export const NOT_IN_NODE_COPIES: string[] = ['node-status-stale'];

export function diagnoseFleet(load: FleetLoad, config?: Partial<EngineConfig>): DiagnosisReport {
  return diagnoseInput(load.input, config);
}

/** A finding about the whole cluster as the cluster list shows it: its title, in its severity. */
export interface ClusterLevelFinding {
  rule: string;
  severity: Exclude<Severity, 'info'>;
  titleKey: string;
  args: Finding['args'];
}

export interface ClusterHealth {
  key: string;
  name: string;
  namespace: string | null;
  mgmtId: string | null;
  kind: ClusterInfo['kind'];
  /** the cluster's nodes by status */
  counts: Record<RecordStatus, number>;
  /** the cluster's own findings that are warnings or errors (agent disconnected, etcd quorum lost), errors first */
  clusterFindings: ClusterLevelFinding[];
  /** checks of the whole cluster that could not run: the cluster is not known to be fine */
  clusterNotes: number;
  /**
   * STATUS_ORDER index of the worst of its nodes and its own findings (0 error … 3 healthy): a cluster whose
   * nodes look healthy but whose agent is disconnected is in error. A check that could not run makes it unknown.
   */
  worstRank: number;
  /** nodes and cluster-level findings together, by status: what the cluster list sorts by */
  issues: Record<Exclude<RecordStatus, 'healthy'>, number>;
  /** machines the planner waits for, with the blocking condition's message */
  blockingMachines: string[];
  blockingMessage: string | null;
  blockingSince: string | null;
}

export interface MachineHealth {
  status: RecordStatus;
  statusRank: number;
  findingTitleKey: string | null;
  findingArgs: Record<string, string | number>;
  findingCount: number;
  recordKey: string;
}

function emptyCounts(): Record<RecordStatus, number> {
  return {
    error: 0, warning: 0, unknown: 0, healthy: 0
  };
}

/** The cluster's own warnings and errors, errors first; an info finding (a note for the tab) is not a problem. */
function clusterLevelFindings(c: ClusterInfo): ClusterLevelFinding[] {
  const out: ClusterLevelFinding[] = [];

  for (const f of c.findings ?? []) {
    if (f.severity !== 'info') {
      out.push({
        rule: f.rule, severity: f.severity, titleKey: f.titleKey, args: f.args
      });
    }
  }

  return out.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
}

/**
 * Per cluster, counted from its records and its own findings; clusters without records are there with zero
 * node counts, and still with their own findings.
 */
export function clusterHealth(report: DiagnosisReport): Map<string, ClusterHealth> {
  const out = new Map<string, ClusterHealth>();
  const byInfo = new Map<ClusterInfo, ClusterHealth>();

  for (const c of report.clusters) {
    const clusterFindings = clusterLevelFindings(c);
    const clusterNotes = c.notes?.length ?? 0;
    const issues = {
      error: 0, warning: 0, unknown: clusterNotes
    };

    clusterFindings.forEach((f) => issues[f.severity]++);
    const health: ClusterHealth = {
      key:              clusterKeyOf(c.namespace, c.name),
      name:             c.name,
      namespace:        c.namespace,
      mgmtId:           c.mgmtId,
      kind:             c.kind,
      counts:           emptyCounts(),
      clusterFindings,
      clusterNotes,
      worstRank:        Math.min(
        STATUS_ORDER.indexOf('healthy'),
        ...clusterFindings.map((f) => STATUS_ORDER.indexOf(f.severity)),
        clusterNotes ? STATUS_ORDER.indexOf('unknown') : STATUS_ORDER.length
      ),
      issues,
      blockingMachines: c.blockingMachines,
      blockingMessage:  c.blockingMessage,
      blockingSince:    c.blockingSince,
    };

    byInfo.set(c, health);
    out.set(health.key, health);
    if (c.mgmtId) {
      out.set(c.mgmtId, health);
    }
  }
  for (const r of report.records) {
    const health = r.cluster ? byInfo.get(r.cluster) : undefined;

    if (health) {
      health.counts[r.status]++;
      if (r.status !== 'healthy') {
        health.issues[r.status]++;
      }
      health.worstRank = Math.min(health.worstRank, STATUS_ORDER.indexOf(r.status));
    }
  }

  return out;
}

/** Per machine (`<namespace>/<name>`), its status and most important finding. */
export function machineHealth(report: DiagnosisReport): Map<string, MachineHealth> {
  const out = new Map<string, MachineHealth>();

  for (const r of report.records) {
    if (!r.objects.machine || !r.machineName) {
      continue;
    }
    const top = leadFinding(r);

    out.set(`${ r.machineNamespace ?? '' }/${ r.machineName }`, {
      status:          r.status,
      statusRank:      STATUS_ORDER.indexOf(r.status),
      findingTitleKey: top?.titleKey ?? null,
      findingArgs:     top?.args ?? {},
      findingCount:    r.findings.length,
      recordKey:       r.key,
    });
  }

  return out;
}

export interface BlockedCluster {
  clusterKey: string;
  clusterName: string;
  clusterNamespace: string;
  /** the machines the cluster waits for, as its condition names them */
  machines: string[];
  /** the record of the one machine it waits for in the fleet's rows, when it has one (several open the cluster's tab) */
  recordKey: string | null;
  message: string | null;
  since: string | null;
}

/** A finding about a whole cluster (init node lost, cluster agent disconnected), with the cluster it is about. */
export interface ClusterFindingItem {
  clusterKey: string;
  clusterName: string;
  clusterNamespace: string;
  finding: Finding;
}

/** A check of a whole cluster that could not run, with the cluster it is about: silence there is not health. */
export interface ClusterNoteItem {
  clusterKey: string;
  clusterName: string;
  clusterNamespace: string;
  note: { key: string; args?: Finding['args'] };
}

export interface FleetSummary {
  /** clusters with a node that is not healthy or a finding of their own */
  clustersAffected: number;
  counts: Record<Exclude<RecordStatus, 'healthy'>, number>;
  /** clusters the planner holds back for named machines */
  blocked: BlockedCluster[];
  /** cluster-level findings of every cluster the user can open, errors first */
  clusterFindings: ClusterFindingItem[];
  /** the checks of those clusters that could not run */
  clusterNotes: ClusterNoteItem[];
}

export function fleetSummary(report: DiagnosisReport, health: Map<string, ClusterHealth>): FleetSummary {
  const affected = new Set<ClusterHealth>();
  const blocked: BlockedCluster[] = [];
  const clusterFindings: ClusterFindingItem[] = [];
  const clusterNotes: ClusterNoteItem[] = [];

  for (const h of health.values()) {
    if (h.counts.error + h.counts.warning + h.counts.unknown > 0) {
      affected.add(h);
    }
  }
  for (const c of report.clusters) {
    const h = health.get(clusterKeyOf(c.namespace, c.name));

    // Only clusters the user can open: the provisioning cluster, with its tab.
    if (!c.namespace || !h) {
      continue;
    }
    for (const finding of c.findings) {
      clusterFindings.push({
        clusterKey: h.key, clusterName: c.name, clusterNamespace: c.namespace, finding
      });
      if (finding.severity !== 'info') {
        affected.add(h);
      }
    }
    for (const note of c.notes ?? []) {
      clusterNotes.push({
        clusterKey: h.key, clusterName: c.name, clusterNamespace: c.namespace, note
      });
      affected.add(h);
    }
  }
  for (const c of report.clusters) {
    // Not the machines the planner is still configuring in time, which the cluster's tab shows as progress.
    if (!heldBack(c)) {
      continue;
    }
    const [machine] = c.blockingMachines;
    const record = c.blockingMachines.length === 1 ? report.records.find((r) => r.cluster === c && r.machineName === machine && r.objects.machine) : undefined;

    blocked.push({
      clusterKey:       clusterKeyOf(c.namespace, c.name),
      clusterName:      c.name,
      clusterNamespace: c.namespace ?? '',
      machines:         c.blockingMachines,
      recordKey:        record && record.status !== 'healthy' ? record.key : null,
      message:          c.blockingMessage,
      since:            c.blockingSince,
    });
  }

  return {
    clustersAffected: affected.size,
    counts:           {
      error: report.counts.error, warning: report.counts.warning, unknown: report.counts.unknown
    },
    blocked:         blocked.sort((a, b) => a.clusterName.localeCompare(b.clusterName)),
    clusterFindings: clusterFindings.sort((a, b) => SEVERITY_ORDER.indexOf(a.finding.severity) - SEVERITY_ORDER.indexOf(b.finding.severity) ||
      a.clusterName.localeCompare(b.clusterName) || a.finding.rule.localeCompare(b.finding.rule)),
    clusterNotes: clusterNotes.sort((a, b) => a.clusterName.localeCompare(b.clusterName)),
  };
}
