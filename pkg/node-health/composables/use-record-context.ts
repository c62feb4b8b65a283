/**
 * What the parts of a view of records (the cluster's tab: its banners, table and row detail; a Machine's or Node's
 * own tab) read from the view that shows them, rather than from props handed down through each layer in between:
 * the diagnosis time, whether anything may be done here, and where a finding's action and another record go.
 *
 *   provide() { return recordContext({ nowMs: () => this.nowMs, … }); }      in the view (Options API)
 *   setup() { return { ...useTranslator(), ...useRecordContext() }; }         in a part: this.nowMs, this.act(…)
 *
 * A part mounted alone (a component test, a view that provides nothing) counts from the time it was made, offers
 * its actions, and does nothing when one is chosen.
 */
import { computed, inject } from 'vue';
import type { ComputedRef, InjectionKey } from 'vue';
import type { ActionId, Finding, NodeRecord } from '../engine';

/** A finding's action, chosen on a record */
export interface RecordAction {
  id: ActionId;
  finding: Finding;
  record: NodeRecord;
}

/** What the view provides: read when used, so that a part follows the view's state. */
export interface RecordContextSource {
  /** The diagnosis time (epoch ms) that "for 2h" and "2h ago" count from */
  nowMs(): number;
  /** When the view's data was last read (epoch ms; 0: not yet): what a part reads itself it reads again then */
  loadedAt(): number;
  /** Why nothing may be done in this view (a translation key): every action is refused with it; null: allowed */
  readOnlyKey(): string | null;
  act(action: RecordAction): void;
  /** Shows another record (a related one), by its key */
  openRecord(key: string): void;
}

/** What a part gets: the view's state as computed values, its handlers as they are. */
export interface RecordContext {
  nowMs: ComputedRef<number>;
  loadedAt: ComputedRef<number>;
  readOnlyKey: ComputedRef<string | null>;
  act(action: RecordAction): void;
  openRecord(key: string): void;
}

export const RECORD_CONTEXT: InjectionKey<RecordContextSource> = Symbol('node-health-record-context');

/** The options `provide()` of a view: its record context for every component under it. */
export function recordContext(source: RecordContextSource): Record<symbol, RecordContextSource> {
  return { [RECORD_CONTEXT]: source };
}

function alone(): RecordContextSource {
  const madeAt = Date.now();

  return {
    nowMs:       () => madeAt,
    loadedAt:    () => 0,
    readOnlyKey: () => null,
    act:         () => undefined,
    openRecord:  () => undefined,
  };
}

/** The record context of the view this component is in (from its setup()). */
export function useRecordContext(): RecordContext {
  const source = inject(RECORD_CONTEXT, null) ?? alone();

  return {
    nowMs:       computed(() => source.nowMs()),
    loadedAt:    computed(() => source.loadedAt()),
    readOnlyKey: computed(() => source.readOnlyKey()),
    act:         (action) => source.act(action),
    openRecord:  (key) => source.openRecord(key),
  };
}
