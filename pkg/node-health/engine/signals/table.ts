/**
 * Signal tables: what Kubernetes, node-problem-detector, Cluster API and Rancher write about a node, kept as
 * data. Each entry says on which object and in which field a signal is written, the value that is bad, the
 * reason or message forms where they matter, how bad it is, its words (translation keys under
 * nodeHealth.signals.<table>.<id>) and the source that writes it. The rules read the tables; README's
 * catalogue is generated from them (scripts/readme-signals.ts) and a test fails when an entry has no scenario.
 */
import type { Severity } from '../types';

export type SignalTableId = 'nodeConditions' | 'taints' | 'machineConditions' | 'machineAnnotations' | 'deletionStages' | 'infrastructure' | 'planner';

/** The objects a signal is read on. */
export type SignalObject = 'node' | 'machine' | 'infraMachine' | 'cluster' | 'machineHealthCheck';

export interface SignalEntry {
  /** Stable within its table, and the last segment of its translation keys */
  id: string;
  object: SignalObject;
  /** What is read, in the field registry's form: `status.conditions[DiskPressure]`, `spec.taints[node.kubernetes.io/out-of-service]` */
  field: string;
  /** The value that is bad, in words a reader of the catalogue understands: `True`, `False`, `present`, `NoExecute` */
  when: string;
  /** Reason or message forms where they matter (matched by stable prefixes or fragments) */
  pattern?: RegExp;
  severity: Severity;
  /** The rule that reads the entry */
  rule: string;
  /** Who writes the signal (source file, or the thread it was seen in) */
  source: string;
  /** Fix step names, under nodeHealth.signals.<table>.<id>.fix.<name> (shared:<name>: nodeHealth.signals.sharedFix.<name>), in order */
  fix: readonly string[];
}

export interface SignalTable {
  id: SignalTableId;
  /** One line for README: what the table covers */
  title: string;
  entries: readonly SignalEntry[];
}

/** The finding a table entry gives: its id, in `<table>/<entry>` form, and its translation keys. */
export function signalId(table: SignalTableId, entry: Pick<SignalEntry, 'id'>): string {
  return `${ table }/${ entry.id }`;
}

export function signalKey(table: SignalTableId, entry: Pick<SignalEntry, 'id'>, part: string): string {
  return `nodeHealth.signals.${ table }.${ entry.id }.${ part }`;
}
