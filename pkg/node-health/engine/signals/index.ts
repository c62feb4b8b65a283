/** Every signal table the rules read, in the order README's catalogue lists them. */
import type { SignalTable } from './table';
import { NODE_CONDITION_TABLE, TAINT_TABLE } from './node';
import { DELETION_STAGE_TABLE, MACHINE_ANNOTATION_TABLE, MACHINE_CONDITION_TABLE } from './machine';
import { PLANNER_TABLE } from './planner';
import { INFRASTRUCTURE_TABLE } from './infrastructure';

export const SIGNAL_TABLES: readonly SignalTable[] = [NODE_CONDITION_TABLE, TAINT_TABLE, MACHINE_CONDITION_TABLE, MACHINE_ANNOTATION_TABLE, DELETION_STAGE_TABLE, INFRASTRUCTURE_TABLE, PLANNER_TABLE];

export type {
  SignalEntry, SignalTable, SignalTableId
} from './table';
export { signalId, signalKey } from './table';
