/**
 * The table's rows arranged where the session keeps them (data/row-query.ts): every page, for every status,
 * role and search and every sortable column in both directions, is what the table arranged itself before, the
 * tab's filterRows over the rows searchable in the reader's language and the shell's own sortBy over the
 * column's sort fields, sliced fifty at a time. Then the session's side: a refresh with a query sends one page,
 * not every row, and nothing when the page did not change.
 */
import { sortBy as shellSortBy } from '@shell/utils/sort';
import {
  buildRows, clusterTarget, diagnoseLoad, filterRows, loadClusterData, translatedSearch, DEFAULT_FILTERS, RowStore, TabSession, FIRST_QUERY
} from '@pkg/node-health/data';
import type {
  NodeRow, RowFilters, RowPage, RowQuery, StatusFilter
} from '@pkg/node-health/data';
import { ROLE_ORDER, STATUS_ORDER } from '@pkg/node-health/engine';
import { NODE_TABLE_HEADERS } from '@pkg/node-health/config/table-headers';
import {
  everyFailure, ghostEtcd, large, windowsNodeRef, GHOST_MACHINE, WINDOWS_CASE_MACHINE
} from '../../../scenarios/catalog';
import type { Scenario } from '../../../scenarios/types';
import { clusterResource, fakeSteve } from '../../components/tab-steve';

async function rowsOf(s: Scenario): Promise<NodeRow[]> {
  const target = clusterTarget(clusterResource(s));

  if (!target) {
    throw new Error('no target');
  }
  const load = await loadClusterData(fakeSteve(s).dispatch, target, { now: () => Date.parse(s.now) });

  return buildRows(diagnoseLoad(target, load));
}

/** What the page says of a title: its key, shouted, so that the test can search a word only the translation has. */
const translate = (key: string) => `TITLE ${ key.split('.').slice(-2, -1)[0] }`;

/** Every page of a query, one after the other. */
function allPages(store: RowStore, query: Omit<RowQuery, 'page'>): { rows: NodeRow[]; pages: RowPage[] } {
  const pages = [store.query({ ...query, page: 1 })];

  while (pages.length * query.perPage < pages[0].total) {
    pages.push(store.query({ ...query, page: pages.length + 1 }));
  }

  return { rows: pages.flatMap((p) => p.rows), pages };
}

/** SortableTable's sort fields for a column: the header's, then the table's mandatory key. */
const SORTS = NODE_TABLE_HEADERS.filter((h) => h.sort).map((h) => [...new Set([...(h.sort as string[]), 'key'])]);

describe('rows arranged where the session keeps them', () => {
  it.each([
    ['every failure', everyFailure],
    ['the Windows cluster', windowsNodeRef],
    ['120 nodes', () => large(120)],
  ])('come out as the table arranged them itself, for every filter and sort (%s)', async(_name, scenario) => {
    const rows = await rowsOf(scenario());
    const store = new RowStore();

    store.set(rows);
    // The page translates the titles the session asks for; the table searched them in the reader's language before.
    const titles = Object.fromEntries(store.query({ ...FIRST_QUERY, filters: DEFAULT_FILTERS }).untranslated.map((f) => [f.id, translate(f.key)]));
    const searchable = translatedSearch(rows, translate);
    const names = rows.map((r) => r.machine || r.node).filter(Boolean);
    const searches = ['', names[0], `${ names[names.length - 1].toUpperCase() } `, 'linux', 'title', 'no-such-node', translate('x.nodeNameMismatch.title')];
    const statuses: StatusFilter[] = ['all', ...STATUS_ORDER];
    let compared = 0;

    store.query({
      ...FIRST_QUERY, filters: DEFAULT_FILTERS, titles
    });
    for (const status of statuses) {
      for (const role of ['all', ...ROLE_ORDER] as RowFilters['role'][]) {
        for (const search of searches) {
          const filters: RowFilters = {
            search, status, role
          };

          for (const sort of SORTS) {
            for (const descending of [false, true]) {
              const expected = filterRows(shellSortBy(searchable, sort, descending), filters);
              const { rows: got, pages } = allPages(store, {
                filters, sort, descending, perPage: 50
              });

              expect(got.map((r) => r.key)).toEqual(expected.map((r) => r.key));
              expect(pages.every((p) => p.total === expected.length && p.all === rows.length && p.rows.length <= 50)).toBe(true);
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBe(statuses.length * (ROLE_ORDER.length + 1) * searches.length * SORTS.length * 2);
  }, 60000);

  it('answers a link to a row with the page that holds it, under the filters given', async() => {
    const rows = await rowsOf(large(120));
    const store = new RowStore();
    const sort = ['machine', 'node', 'key'];

    store.set(rows);
    const arranged = shellSortBy(rows, sort, false) as NodeRow[];
    const key = arranged[arranged.length - 1].key;
    const page = store.query({
      filters: DEFAULT_FILTERS, sort, descending: false, page: 1, perPage: 50, reveal: key
    });

    expect(page.page).toBe(Math.ceil(arranged.length / 50));
    expect(page.revealed).toBe(key);
    expect(page.rows.map((r) => r.key)).toContain(key);
    // A filter that hides it: the page asked for, and no row revealed.
    const hidden = store.query({
      filters: { ...DEFAULT_FILTERS, search: 'no-such-node' }, sort, descending: false, page: 1, perPage: 50, reveal: key
    });

    expect(hidden).toMatchObject({
      page: 1, revealed: null, total: 0, rows: []
    });
    // A page past the end (rows went away): the last there is.
    expect(store.query({
      filters: DEFAULT_FILTERS, sort, descending: false, page: 99, perPage: 50
    }).page).toBe(Math.ceil(arranged.length / 50));
  });

  it('searches finding titles in the words the page sent, and asks for each title once', async() => {
    const rows = await rowsOf(windowsNodeRef());
    const store = new RowStore();
    const query = { ...FIRST_QUERY, filters: { ...DEFAULT_FILTERS, search: 'registered under another name' } };

    store.set(rows);
    const first = store.query(query);

    expect(first.total).toBe(0);
    const mismatch = first.untranslated.find((f) => f.key.endsWith('nodeNameMismatch.title'));

    expect(mismatch).toBeDefined();
    expect(store.query(query).untranslated).toEqual([]);
    const found = store.query({ ...query, titles: { [mismatch!.id]: 'Node registered under another name' } });

    expect(found.rows.map((r) => r.machine)).toEqual([WINDOWS_CASE_MACHINE]);
  });

  it('knows the row of each machine named', async() => {
    const store = new RowStore();

    store.set(await rowsOf(ghostEtcd()));
    expect(store.machineKeys([GHOST_MACHINE, 'no-such-machine'])).toEqual({ [GHOST_MACHINE]: `machine:fleet-default/${ GHOST_MACHINE }` });
  });
});

describe('the session with the table\'s query', () => {
  it('sends one page of rows, then nothing while that page stays the same, and any page asked for', async() => {
    const s = large(120);
    const target = clusterTarget(clusterResource(s));
    const session = new TabSession(fakeSteve(s).dispatch, null, () => Date.parse(s.now));
    const request = {
      target: target!, form: 'selectors' as const, fromStore: {}, rows: { ...FIRST_QUERY, filters: DEFAULT_FILTERS }
    };
    const first = await session.refresh(request);

    expect(first.rows).toBeNull();
    expect(first.page?.rows).toHaveLength(50);
    expect(first.page?.total).toBe(first.page?.all);
    expect(first.page?.all).toBe(120);
    const again = await session.refresh(request);

    expect(again.page).toBeNull();
    expect(again.rows).toBeNull();
    const second = session.rows({ ...request.rows, page: 2 });

    expect(second.page).toBe(2);
    expect(second.rows.map((r) => r.key)).not.toContain(first.page?.rows[0].key);
    // Without a query (the record tabs), every row as before.
    const plain = new TabSession(fakeSteve(s).dispatch, null, () => Date.parse(s.now));
    const all = await plain.refresh({ ...request, rows: undefined });

    expect(all.rows).toHaveLength(first.page?.all as number);
    expect(all.page).toBeUndefined();
  });
});
