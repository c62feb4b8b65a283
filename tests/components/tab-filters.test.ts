import { large, windowsNodeRef, WINDOWS_CASE_MACHINE, WINDOWS_VM_GONE_MACHINE } from '../../scenarios/catalog';
import { chooseFilter, filterValue, mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

const machines = (t: MountedTab) => t.wrapper.findAll('tr.main-row').map((tr) => tr.findAll('td')[2].text());

describe('search and filters', () => {
  beforeEach(async() => {
    tab = mountTab(windowsNodeRef());
    await tab.show();
  });

  it('search by name, address or finding, all words must match', async() => {
    const search = tab!.wrapper.find('[data-testid="node-health-search"]');

    await search.setValue('172.16.40.31');
    await tab!.settle();
    expect(machines(tab!)).toEqual([WINDOWS_VM_GONE_MACHINE]);
    await search.setValue('%nodeHealth.rules.nodeNameMismatch.title%');
    await tab!.settle();
    expect(machines(tab!)).toEqual([WINDOWS_CASE_MACHINE]);
    await search.setValue('windows vs-win-cp');
    await tab!.settle();
    expect(machines(tab!)).toEqual([]);
    // shell's <t k="..."> (stubbed in the test set-up) says which message the table shows
    expect(tab!.wrapper.find('tr.no-rows [k]').attributes('k')).toBe('nodeHealth.tab.table.noMatches');
    await search.setValue('');
    await tab!.settle();
    expect(machines(tab!).length).toBeGreaterThan(5);
  });

  it('filter by status and by role, together', async() => {
    const all = machines(tab!).length;

    await chooseFilter(tab!.wrapper, 'role', 'etcd');
    expect(machines(tab!)).toHaveLength(3);
    expect(tab!.wrapper.findAll('tr.main-row').every((tr) => tr.text().includes('%nodeHealth.registration.role.etcd%'))).toBe(true);
    await chooseFilter(tab!.wrapper, 'status', 'error');
    expect(tab!.wrapper.find('[data-testid="node-health-filter-status"] .vs__selected').text()).toBe('%nodeHealth.status.error%');
    expect(machines(tab!)).toEqual([]);
    await chooseFilter(tab!.wrapper, 'role', 'worker');
    expect(machines(tab!)).toContain(WINDOWS_VM_GONE_MACHINE);
    expect(tab!.wrapper.findAll('tr.main-row').every((tr) => tr.text().includes('%nodeHealth.status.error%'))).toBe(true);
    await chooseFilter(tab!.wrapper, 'role', 'all');
    await chooseFilter(tab!.wrapper, 'status', 'all');
    expect(machines(tab!)).toHaveLength(all);
  });

  it('the summary counts filter by their status, and again to show all', async() => {
    const all = machines(tab!).length;
    const errors = Number(tab!.wrapper.find('[data-testid="node-health-count-error"] .summary-strip__count').text());

    await tab!.wrapper.find('[data-testid="node-health-count-error"]').trigger('click');
    await tab!.settle();
    expect(machines(tab!)).toHaveLength(errors);
    expect(filterValue(tab!.wrapper, 'status')).toBe('error');
    expect(tab!.wrapper.find('[data-testid="node-health-count-error"]').attributes('aria-pressed')).toBe('true');
    await tab!.wrapper.find('[data-testid="node-health-count-error"]').trigger('click');
    await tab!.settle();
    expect(machines(tab!)).toHaveLength(all);
  });
});

describe('paging', () => {
  it('pages a long list, fifty rows at a time', async() => {
    tab = mountTab(large(120));
    await tab.show();
    const first = machines(tab);

    expect(first).toHaveLength(50);
    expect(tab.wrapper.find('.paging').exists()).toBe(true);
    await tab.wrapper.find('[data-testid="pagination-next"]').trigger('click');
    await tab.settle();
    const second = machines(tab);

    expect(second).toHaveLength(50);
    expect(second.filter((m) => first.includes(m) && m !== '—')).toEqual([]);
  });
});
