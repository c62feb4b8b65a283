/**
 * The tab's side of the table's pages (row-query.ts): how the table arranges the rows, the finding titles
 * translated for the session's search and not sent yet, and which page asked for is the last, so that only its
 * answer is shown. One per tab, outside Vue's reactivity (tab-runtime.ts).
 */
import type { Translate } from '../engine';
import { FIRST_QUERY } from './row-query';
import type { RowArrangement, RowPage, RowQuery } from './row-query';
import type { RowFilters } from './types';

function sameArrangement(a: RowArrangement, b: RowArrangement): boolean {
  return a.page === b.page && a.perPage === b.perPage && a.descending === b.descending && a.sort.join() === b.sort.join();
}

export class TablePages {
  private arrangement: RowArrangement = { ...FIRST_QUERY };
  private titles: Record<string, string> = {};
  private asked = 0;
  private settled = 0;

  /** Whether the last page asked for is still on its way: the table shows the rows it had, obscured. */
  get waiting(): boolean {
    return this.settled < this.asked;
  }

  /** Whether a query asked for the table as it is now: its arrangement and filters. */
  current(query: RowQuery, filters: RowFilters): boolean {
    return sameArrangement(query, this.arrangement) && JSON.stringify(query.filters) === JSON.stringify(filters);
  }

  /** The query of the table as it is, the titles left for the next query. */
  arranged(filters: RowFilters): RowQuery {
    return {
      ...this.arrangement, filters: { ...filters }, reveal: null
    };
  }

  /** The query of the table as it is, with the titles translated since the last one. */
  query(filters: RowFilters, reveal: string | null = null): RowQuery {
    const titles = this.titles;

    this.titles = {};

    return {
      ...this.arrangement, filters: { ...filters }, reveal, ...(Object.keys(titles).length ? { titles } : {})
    };
  }

  /** A page from the session: the table is on it now, and the titles it lists are translated for the next query. */
  received(page: RowPage, t: Translate): RowPage {
    for (const f of page.untranslated) {
      this.titles[f.id] = t(f.key, f.args);
    }
    this.arrangement = { ...this.arrangement, page: page.page };

    return page;
  }

  /** The table's sort or page as it shows them; false when they are what was asked for already. */
  arrange(arrangement: RowArrangement): boolean {
    if (sameArrangement(arrangement, this.arrangement)) {
      return false;
    }
    this.arrangement = { ...arrangement, sort: [...arrangement.sort] };

    return true;
  }

  /** New filters: back to the first page. */
  firstPage(): void {
    this.arrangement = { ...this.arrangement, page: 1 };
  }

  /**
   * Asks the session for the table's page (or the page holding `reveal`) and answers it; `show` is given it only
   * when it is the answer to the last page asked for.
   */
  async fetch(session: { rows(query: RowQuery): Promise<RowPage> }, filters: RowFilters, reveal: string | null, t: Translate, show: (page: RowPage) => void): Promise<RowPage | null> {
    const asked = ++this.asked;
    const page = await session.rows(this.query(filters, reveal)).catch(() => null);

    if (asked === this.asked) {
      this.settled = asked;
    }
    if (page && asked === this.asked) {
      this.received(page, t);
      show(page);
    }

    return page;
  }
}
