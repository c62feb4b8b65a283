/** The table's state, which NodeTable takes and passes on to HealthTable as it is. */
export const TABLE_STATE_PROPS = {
  rowsPerPage: {
    type:    Number,
    default: 50,
  },
  /** The first load is on its way: the table shows the shell's loading row */
  loading: {
    type:    Boolean,
    default: false,
  },
  /**
   * With a page of rows arranged elsewhere: the page for the arrangement or filters just chosen is on its way.
   * SortableTable's server-side way: the rows shown stay, obscured after a moment, and the pager waits.
   */
  waiting: {
    type:    Boolean,
    default: false,
  },
} as const;
