import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import {
  buildRows, clusterTarget, diagnoseLoad, filterRows, filtersActive, loadClusterData, ruleNameKey, DEFAULT_FILTERS
} from '@pkg/node-health/data';
import { RULE_IDS, ruleKey } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';
import type { NodeRow } from '@pkg/node-health/data';
import {
  ghostEtcd, windowsNodeRef, GHOST_MACHINE, WINDOWS_CASE_MACHINE, WINDOWS_VM_GONE_MACHINE
} from '../../../scenarios/catalog';
import type { Scenario } from '../../../scenarios/types';
import { clusterResource, fakeSteve } from '../../components/tab-steve';

async function rowsOf(s: Scenario, t?: (key: string) => string): Promise<NodeRow[]> {
  const target = clusterTarget(clusterResource(s));

  if (!target) {
    throw new Error('no target');
  }
  const load = await loadClusterData(fakeSteve(s).dispatch, target, { now: () => Date.parse(s.now) });

  return buildRows(diagnoseLoad(target, load), t);
}

describe('rows', () => {
  it('come worst first, keyed by the record key, with the most important finding', async() => {
    const rows = await rowsOf(ghostEtcd());

    // The ghost holds back the whole cluster (its worst finding, an error) because its agent never checked in:
    // the row names the cause its plan leads with, and keeps the worst finding's status.
    expect(rows.map((r) => r.status).slice(0, 2)).toEqual(['error', 'warning']);
    expect(rows[0]).toMatchObject({
      key:             `machine:fleet-default/${ GHOST_MACHINE }`,
      machine:         GHOST_MACHINE,
      node:            '',
      roles:           'etcd',
      os:              'linux',
      phase:           'Deleting',
      findingTitleKey: 'nodeHealth.rules.agentNeverCheckedIn.title',
      findingSeverity: 'error',
      findingCount:    3,
      since:           '2026-01-13T08:10:00Z',
      sinceMs:         2 * 24 * 3600 * 1000,
      statusColor:     'bg-error',
    });
    expect(rows[1]).toMatchObject({
      key: 'node:c-m-4qj7x2vd/dev-k8s-node01', node: 'dev-k8s-node01', findingTitleKey: 'nodeHealth.rules.orphanNode.title'
    });
    expect(rows.slice(2).every((r) => r.status === 'healthy' && r.findingTitleKey === null)).toBe(true);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });

  it('are the same keys on every load of the same cluster', async() => {
    const a = await rowsOf(windowsNodeRef());
    const b = await rowsOf(windowsNodeRef());

    expect(b.map((r) => r.key)).toEqual(a.map((r) => r.key));
  });

  it('order roles etcd, control plane, worker and search translated finding titles', async() => {
    const rows = await rowsOf(windowsNodeRef(), (key) => (key.endsWith('nodeNameMismatch.title') ? 'Node registered under another name' : key));
    const cp = rows.find((r) => r.roleList.includes('controlplane'));

    expect(cp?.roles).toBe('etcd, controlplane');
    expect(filterRows(rows, { ...DEFAULT_FILTERS, search: 'another NAME' }).map((r) => r.machine)).toEqual([WINDOWS_CASE_MACHINE]);
  });
});

describe('filterRows', () => {
  let rows: NodeRow[];

  beforeAll(async() => {
    rows = await rowsOf(windowsNodeRef());
  });

  it('returns the rows untouched without filters', () => {
    expect(filterRows(rows, DEFAULT_FILTERS)).toBe(rows);
    expect(filtersActive(DEFAULT_FILTERS)).toBe(false);
  });

  it('matches every search word in names, addresses, phase and OS, ignoring case', () => {
    expect(filterRows(rows, { ...DEFAULT_FILTERS, search: '172.16.40.31' }).map((r) => r.machine)).toEqual([WINDOWS_VM_GONE_MACHINE]);
    expect(filterRows(rows, { ...DEFAULT_FILTERS, search: 'WINDOWS Worker-01' }).map((r) => r.node)).toEqual(['win-worker-01']);
    expect(filterRows(rows, { ...DEFAULT_FILTERS, search: 'no-such-node' })).toEqual([]);
    expect(filtersActive({ ...DEFAULT_FILTERS, search: ' x ' })).toBe(true);
  });

  it('filters by status and by role, together with the search', () => {
    const errors = filterRows(rows, { ...DEFAULT_FILTERS, status: 'error' });

    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((r) => r.status === 'error')).toBe(true);
    const etcd = filterRows(rows, { ...DEFAULT_FILTERS, role: 'etcd' });

    expect(etcd.map((r) => r.machine).sort()).toEqual(rows.filter((r) => r.roleList.includes('etcd')).map((r) => r.machine).sort());
    expect(etcd).toHaveLength(3);
    expect(filterRows(rows, {
      search: 'windows', status: 'all', role: 'etcd'
    })).toEqual([]);
  });
});

describe('rule names', () => {
  const l10n = (locale: string): any => load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n', `${ locale }.yaml`), 'utf8'));

  it('name every rule without a finding\'s arguments, in both languages (a filter has no finding to take them from)', () => {
    const en = l10n('en-us');

    for (const locale of ['en-us', 'zh-hans']) {
      // As the shell's t: a message without the arguments it names throws.
      const t = createTranslator(l10n(locale), locale);

      for (const id of RULE_IDS) {
        const key = ruleNameKey(id);
        const titled = en.nodeHealth.rules[ruleKey(id)].title.includes('{');

        expect([id, key.endsWith(titled ? '.name' : '.title')]).toEqual([id, true]);
        expect(() => t(key)).not.toThrow();
        expect([locale, t(key)]).not.toEqual([locale, key]);
      }
    }
  });
});
