/** The props of the components that show one record, in the row detail and on a Machine's or Node's page. */
import type { PropType } from 'vue';
import type { NodeRecord } from '../engine';

export const RECORD_PROP = {
  record: {
    type:     Object as PropType<NodeRecord>,
    required: true,
  },
} as const;
