/**
 * The tab holds and draws one page of rows: its session filters, sorts and pages them (data/row-query.ts), and
 * the table asks it for another page, sort or filter as the user chooses; a refresh sends the page again only
 * when it changed, never every row.
 */
import { TabSession } from '@pkg/node-health/data';
import type { RefreshRequest, RowQuery, TabView } from '@pkg/node-health/data';
import { large, windowsNodeRef } from '../../scenarios/catalog';
import { chooseFilter, mountTab, sortByHeader } from './tab-harness';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
  jest.restoreAllMocks();
});

const machines = (t: MountedTab) => t.wrapper.findAll('tr.main-row').map((tr) => tr.findAll('td')[2].text());

describe('the table\'s pages', () => {
  it('come from the session, one at a time, for each page, sort and filter asked', async() => {
    const views: TabView[] = [];
    const requests: RefreshRequest[] = [];
    // Spies that call through: the session on the page (jsdom starts no worker) answers as the worker would.
    const rowsSpy = jest.spyOn(TabSession.prototype, 'rows');
    const refreshSpy = jest.spyOn(TabSession.prototype, 'refresh');

    tab = mountTab(large(120));
    await tab.show();
    for (const call of refreshSpy.mock.calls) {
      requests.push(call[0]);
    }
    for (const result of refreshSpy.mock.results) {
      views.push(await result.value);
    }

    // The first load: the request carries the table's query, the answer its first page and no other row.
    expect(requests[0].rows).toMatchObject({
      page: 1, perPage: 50, sort: ['statusRank', 'machine', 'node', 'key'], descending: false
    });
    expect(views[0].rows).toBeNull();
    expect(views[0].page?.rows).toHaveLength(50);
    expect(views[0].page?.total).toBe(120);
    expect(machines(tab)).toHaveLength(50);
    expect(tab.wrapper.vm.page.rows).toHaveLength(50);

    // The pager: page 2 asked for, and drawn.
    const first = machines(tab);

    await tab.wrapper.find('[data-testid="pagination-next"]').trigger('click');
    await tab.settle();
    expect(rowsSpy.mock.calls.at(-1)?.[0]).toMatchObject({ page: 2, perPage: 50 });
    expect(machines(tab).filter((m) => first.includes(m))).toEqual([]);
    // The last of three pages: the twenty rows left.
    await tab.wrapper.find('[data-testid="pagination-last"]').trigger('click');
    await tab.settle();
    expect(rowsSpy.mock.calls.at(-1)?.[0]).toMatchObject({ page: 3 });
    expect(machines(tab)).toHaveLength(20);

    // A header: sorted by machine name in the session, back on page 1.
    await sortByHeader(tab, 'nodeHealth.tab.table.machine');
    expect(rowsSpy.mock.calls.at(-1)?.[0]).toMatchObject({
      page: 1, sort: ['machine', 'node', 'key'], descending: false
    });
    const sorted = machines(tab);

    expect(sorted).toEqual([...sorted].sort((a, b) => a.localeCompare(b)));
    await sortByHeader(tab, 'nodeHealth.tab.table.machine');
    expect(rowsSpy.mock.calls.at(-1)?.[0]).toMatchObject({
      page: 1, sort: ['machine', 'node', 'key'], descending: true
    });
    expect(machines(tab)[0] > sorted[sorted.length - 1]).toBe(true);

    // The search: the filters go to the session with the arrangement.
    await tab.wrapper.find('[data-testid="node-health-search"]').setValue(sorted[3]);
    await tab.settle();
    expect(rowsSpy.mock.calls.at(-1)?.[0]).toMatchObject({
      filters: { search: sorted[3] }, page: 1, descending: true
    });
    expect(machines(tab)).toEqual([sorted[3]]);

    // A refresh with nothing changed sends no page; the table stays as it was.
    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();
    const last = await refreshSpy.mock.results.at(-1)?.value;

    expect(refreshSpy.mock.calls.at(-1)?.[0].rows).toMatchObject({ filters: { search: sorted[3] }, descending: true });
    expect(last.page).toBeNull();
    expect(machines(tab)).toEqual([sorted[3]]);
    // 120 nodes loaded twice in jsdom: more than jest's default 5 s on a busy machine.
  }, 30000);

  it('keep the rows shown while the page asked for is on its way, the table busy and obscured, also when it fails', async() => {
    // Rows in error among others.
    tab = mountTab(windowsNodeRef());
    await tab.show();
    const before = machines(tab);
    const busy = () => tab!.wrapper.find('.health-table').attributes('aria-busy');
    let answer: (value: unknown) => void = () => undefined;
    const rows = TabSession.prototype.rows;
    // The worker answers later: the session's page, held until `answer`.
    const later = function(this: TabSession, query: RowQuery) {
      return new Promise((resolve) => (answer = resolve)).then(() => rows.call(this, query));
    };
    const held = jest.spyOn(TabSession.prototype, 'rows').mockImplementation(later as unknown as TabSession['rows']);

    expect(busy()).toBe('false');
    await chooseFilter(tab.wrapper, 'status', 'error');
    // Asked, not answered: the rows it had, and the table says it is busy (SortableTable obscures them).
    expect(held).toHaveBeenCalled();
    expect(busy()).toBe('true');
    expect(machines(tab)).toEqual(before);
    answer(null);
    await tab.settle();
    expect(busy()).toBe('false');
    expect(tab.wrapper.vm.page.total).toBeGreaterThan(0);
    expect(tab.wrapper.vm.page.total).toBeLessThan(before.length);
    expect(machines(tab)).not.toEqual(before);

    // A page that never comes (the worker failed) does not leave the table busy.
    held.mockImplementation((() => Promise.reject(new Error('the worker stopped'))) as unknown as TabSession['rows']);
    await chooseFilter(tab.wrapper, 'status', 'all');
    await tab.settle();
    expect(busy()).toBe('false');
  }, 30000);
});
