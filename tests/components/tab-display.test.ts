/**
 * What the tab's table and header say, in the dashboard's words: roles as Rancher's Machines tab names them,
 * every empty cell the same muted dash, and a cluster whose nodes are all healthy said so in words.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { listNodeRoles } from '@shell/models/cluster/node';
import { stringFor } from '@shell/plugins/i18n';
import { createTranslator } from '@pkg/node-health/report/translate';
import { buildScenario, SCENARIO_NAMES } from '../../scenarios/catalog';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';

const L10N = join(__dirname, '../../pkg/node-health/l10n');
const EN = load(readFileSync(join(L10N, 'en-us.yaml'), 'utf8'));
const LOCALES = {
  'en-us':   createTranslator(EN, 'en-us'),
  'zh-hans': createTranslator(load(readFileSync(join(L10N, 'zh-hans.yaml'), 'utf8')), 'zh-hans', EN),
};

function shellT(this: { $store: any }, key: string, args?: Record<string, unknown>, raw?: boolean): string {
  return stringFor(this.$store, key, args, raw);
}

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

async function open(name: string, locale: keyof typeof LOCALES = 'en-us'): Promise<MountedTab> {
  tab = mountTab(buildScenario(name as any), { i18n: LOCALES[locale], t: shellT });
  await tab.show();

  return tab;
}

/** The text of each cell of each row the table shows, by column name. */
function cells(t: MountedTab): Record<string, string>[] {
  const names = t.wrapper.findAll('thead th').map((th) => th.attributes('data-testid') ?? th.text());
  const columns = ['open', 'status', 'machine', 'node', 'roles', 'os', 'phase', 'finding', 'since'];

  expect(names).toHaveLength(columns.length);

  return t.wrapper.findAll('tr.main-row').map((tr) => Object.fromEntries(tr.findAll('td').map((td, i) => [columns[i], td.text().trim()])));
}

/** What Rancher's Machines tab (shell/models/cluster/node.js listNodeRoles) calls a node with just this role. */
const RANCHER_ROLE = {
  etcd:         listNodeRoles(false, false, true, 'All'),
  controlplane: listNodeRoles(true, false, false, 'All'),
  worker:       listNodeRoles(false, true, false, 'All'),
};

describe.each(Object.keys(LOCALES) as (keyof typeof LOCALES)[])('roles (%s)', (locale) => {
  it('are named as Rancher\'s Machines tab names them, in the column and the role filter', async() => {
    const t = await open('ghost-etcd', locale);
    const said = new Set(cells(t).flatMap((row) => row.roles.split(', ')));

    expect([...said].sort()).toEqual([RANCHER_ROLE.controlplane, RANCHER_ROLE.etcd, RANCHER_ROLE.worker].sort());
    const filter = t.wrapper.findAllComponents({ name: 'TableFilter' }).find((c) => c.props('testid') === 'node-health-filter-role');

    expect(filter?.props('options').slice(1).map((o: { label: string }) => o.label)).toEqual([RANCHER_ROLE.etcd, RANCHER_ROLE.controlplane, RANCHER_ROLE.worker]);
  });
});

describe('empty cells', () => {
  it.each(SCENARIO_NAMES)('%s: every cell says something, an empty one a muted dash', async(name) => {
    const t = await open(name);
    const rows = cells(t);
    const blank = rows.flatMap((row) => Object.entries(row).filter(([column, text]) => column !== 'open' && text === '').map(([column]) => `${ row.machine }/${ row.node }: ${ column }`));

    expect(blank).toEqual([]);
    for (const dash of t.wrapper.findAll('[data-testid="node-health-empty-cell"]')) {
      expect(dash.text()).toBe('—');
      expect(dash.classes()).toContain('text-muted');
    }
  });
});

describe('all nodes healthy', () => {
  it('says so in words on a healthy cluster', async() => {
    const t = await open('healthy');
    const banner = t.wrapper.find('[data-testid="node-health-all-healthy"]');

    expect(banner.exists()).toBe(true);
    expect(banner.text()).toBe('All 5 nodes of the cluster are healthy.');
  });

  it('in Chinese too', async() => {
    const t = await open('healthy', 'zh-hans');

    expect(t.wrapper.find('[data-testid="node-health-all-healthy"]').text()).toBe('集群的全部 5 个节点都健康。');
  });

  it.each(['ghost-etcd', 'agent-disconnected'])('says nothing of the kind on %s, where something is wrong', async(name) => {
    const t = await open(name);

    expect(t.wrapper.find('[data-testid="node-health-all-healthy"]').exists()).toBe(false);
  });
});
