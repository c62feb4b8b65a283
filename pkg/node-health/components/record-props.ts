/** The props of the components that show one record, in the row detail and on a Machine's or Node's page. */
import type { PropType } from 'vue';
import type { NodeRecord } from '../engine';

export const RECORD_PROP = {
  record: {
    type:     Object as PropType<NodeRecord>,
    required: true,
  },
} as const;

/** A table whose rows are one page arranged elsewhere (data/row-query.ts): how many the filters let through, and which page. */
export const PAGED_ROWS_PROPS = {
  /** `rows` are one page of this many that the filters let through (null: all the rows, arranged by the table) */
  total: {
    type:    Number as PropType<number | null>,
    default: null,
  },
  /** With `total`: the page `rows` are (the table follows it, e.g. to a revealed row) */
  page: {
    type:    Number,
    default: 1,
  },
} as const;
