/** The record context a view provides (composables/use-record-context.ts), for a record's parts mounted alone. */
import { recordContext } from '@pkg/node-health/composables/use-record-context';
import type { RecordContextSource } from '@pkg/node-health/composables/use-record-context';

/** `global.provide` of a mount: the diagnosis time `nowMs`, actions allowed and ignored unless `over` says otherwise. */
export function providedContext(nowMs: number, over: Partial<RecordContextSource> = {}): Record<symbol, RecordContextSource> {
  return recordContext({
    nowMs: () => nowMs, loadedAt: () => 0, readOnlyKey: () => null, act: () => undefined, openRecord: () => undefined, ...over
  });
}
