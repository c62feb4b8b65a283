/** The props of the components that show one record, in the row detail and on a Machine's or Node's page. */
import type { PropType } from 'vue';
import type { NodeRecord } from '../engine';

export const RECORD_PROP = {
  record: {
    type:     Object as PropType<NodeRecord>,
    required: true,
  },
} as const;

/** The record, and the diagnosis time (epoch ms) that "for 2h" and "2h ago" count from */
export const RECORD_VIEW_PROPS = {
  ...RECORD_PROP,
  nowMs: {
    type:     Number,
    required: true,
  },
} as const;
