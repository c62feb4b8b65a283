/**
 * The tab's rows where its session keeps them (in the Web Worker): filtered, sorted and paged there, so that the
 * page holds and draws only the rows on screen. The page's table (the shell's SortableTable with external
 * pagination) says which page, sort and filters it shows (`RowQuery`); the answer is that page, the number of
 * rows the filters let through and, for a link to a row, the page that holds it (`RowPage`).
 *
 * Filters are the table's own (rows.ts `filterRows`) and the order is SortableTable's (shell `utils/sort`
 * `sortBy` over the header's sort fields, the key last), so the rows come out as the shell would arrange them.
 * The search reads finding titles in the reader's language: the session cannot translate, so each answer lists
 * the titles not translated yet and the page sends their text with its next query.
 */
import { filterRows, translatedSearch } from './rows';
import type { NodeRow, RowFilters } from './types';

/** What the table shows: its filters, SortableTable's sort and page. */
export interface RowQuery {
  filters: RowFilters;
  /** SortableTable's sort fields: row properties, `:desc` reversing one; the key is the last */
  sort: string[];
  /** the whole order reversed (the column's header clicked again) */
  descending: boolean;
  /** from 1 */
  page: number;
  perPage: number;
  /** a row to show: answered with the page that holds it, when the filters let it through */
  reveal?: string | null;
  /** finding titles in the reader's language, by `titleId`, for the search */
  titles?: Record<string, string>;
}

/** How the table arranges the rows: SortableTable's sort and page. */
export type RowArrangement = Pick<RowQuery, 'sort' | 'descending' | 'page' | 'perPage'>;

/** A finding's title that the page is asked to translate for the search. */
export interface FindingTitle {
  id: string;
  key: string;
  args: Record<string, string | number>;
}

/** One page of the table. */
export interface RowPage {
  rows: NodeRow[];
  /** the rows the filters let through */
  total: number;
  /** every row */
  all: number;
  /** the page these rows are: the one asked for, the one holding `reveal`, or the last one there is */
  page: number;
  /** `reveal` when the filters let it through (it is on this page) */
  revealed: string | null;
  /** titles to translate and send back with the next query */
  untranslated: FindingTitle[];
}

/** The sort SortableTable starts with on the tab's table: its status column, the key last. */
export const FIRST_QUERY: RowArrangement = {
  sort: ['statusRank', 'machine', 'node', 'key'], descending: false, page: 1, perPage: 50
};

export function titleId(key: string, args: Record<string, string | number>): string {
  return `${ key }\u0000${ JSON.stringify(args) }`;
}

const TYPE_ORDER: Record<string, number> = {
  undefined: 0, null: 1, boolean: 2, number: 3, string: 4, object: 6
};

function typeOrder(v: unknown): number {
  if (v === null) {
    return TYPE_ORDER.null;
  }

  return Array.isArray(v) ? 5 : TYPE_ORDER[typeof v] ?? 6;
}

/** The shell's `compare` (utils/sort.js) for the values a row holds: by type, then numbers, strings (locale), arrays. */
export function compareValues(a: unknown, b: unknown): number {
  const byType = Math.sign(typeOrder(a) - typeOrder(b));

  if (byType) {
    return byType;
  }
  if (typeof a === 'number' || typeof a === 'boolean') {
    return Math.sign(Number(a) - Number(b));
  }
  if (typeof a === 'string') {
    return Math.sign(a.localeCompare(b as string));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const r = compareValues(a[i], b[i]);

      if (r) {
        return r;
      }
    }

    return Math.sign(a.length - b.length);
  }

  return 0;
}

/** The rows in the order SortableTable gives them for these sort fields (the shell's `sortBy`). */
export function sortedRows(rows: readonly NodeRow[], sort: string[], descending: boolean): NodeRow[] {
  const fields = sort.map((s) => {
    const [field, dir] = s.split(':');

    return { field: field as keyof NodeRow, sign: (dir === 'desc' ? -1 : 1) * (descending ? -1 : 1) };
  });

  return rows.slice().sort((x, y) => {
    for (const { field, sign } of fields) {
      const r = compareValues(x[field], y[field]);

      if (r) {
        return r * sign;
      }
    }

    return 0;
  });
}

/** The session's rows and the last arrangement asked for, each kept until the rows or the query change. */
export class RowStore {
  private rows: NodeRow[] = [];
  /** rows searchable with the titles translated so far */
  private searchable: NodeRow[] | null = null;
  private sorted: { id: string; rows: NodeRow[] } | null = null;
  private filtered: { id: string; rows: NodeRow[] } | null = null;
  private readonly titles = new Map<string, string>();
  private readonly asked = new Set<string>();

  set(rows: NodeRow[]): void {
    this.rows = rows;
    this.searchable = null;
    this.sorted = null;
    this.filtered = null;
  }

  get size(): number {
    return this.rows.length;
  }

  /** The key of the row of each Machine named, for the ones there are. */
  machineKeys(names: readonly string[]): Record<string, string> {
    const wanted = new Set(names);
    const keys: Record<string, string> = {};

    for (const row of wanted.size ? this.rows : []) {
      if (wanted.has(row.machine) && !(row.machine in keys)) {
        keys[row.machine] = row.key;
      }
    }

    return keys;
  }

  query(query: RowQuery): RowPage {
    this.learn(query.titles);
    const arranged = this.arranged(query);
    const perPage = Math.max(1, Math.floor(query.perPage) || 1);
    const index = query.reveal ? arranged.findIndex((r) => r.key === query.reveal) : -1;
    const last = Math.max(1, Math.ceil(arranged.length / perPage));
    const page = index >= 0 ? Math.floor(index / perPage) + 1 : Math.min(Math.max(1, Math.floor(query.page) || 1), last);

    return {
      rows:         arranged.slice((page - 1) * perPage, page * perPage),
      total:        arranged.length,
      all:          this.rows.length,
      page,
      revealed:     index >= 0 ? query.reveal ?? null : null,
      untranslated: this.untranslated(),
    };
  }

  /** Sorted, then filtered (as SortableTable does), each step kept for the next query that shares it. */
  private arranged(query: RowQuery): NodeRow[] {
    const sortId = `${ query.sort.join(',') }/${ query.descending }`;

    if (this.sorted?.id !== sortId) {
      this.sorted = { id: sortId, rows: sortedRows(this.rowsToSearch(), query.sort, query.descending) };
      this.filtered = null;
    }
    const filterId = `${ sortId }/${ JSON.stringify(query.filters) }`;

    if (this.filtered?.id !== filterId) {
      this.filtered = { id: filterId, rows: filterRows(this.sorted.rows, query.filters) };
    }

    return this.filtered.rows;
  }

  private rowsToSearch(): NodeRow[] {
    this.searchable ??= this.titles.size ? translatedSearch(this.rows, (key, args) => this.titles.get(titleId(key, args ?? {})) ?? '') : this.rows;

    return this.searchable;
  }

  private learn(titles: Record<string, string> | undefined): void {
    let added = false;

    for (const [id, text] of Object.entries(titles ?? {})) {
      if (this.titles.get(id) !== text) {
        this.titles.set(id, text);
        added = true;
      }
    }
    if (added) {
      this.searchable = null;
      this.sorted = null;
      this.filtered = null;
    }
  }

  private untranslated(): FindingTitle[] {
    const out: FindingTitle[] = [];

    for (const row of this.rows) {
      for (const f of row.findingTitles) {
        const id = titleId(f.key, f.args);

        if (!this.titles.has(id) && !this.asked.has(id)) {
          this.asked.add(id);
          out.push({
            id, key: f.key, args: f.args
          });
        }
      }
    }

    return out;
  }
}
