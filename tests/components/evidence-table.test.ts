import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { mount } from '@vue/test-utils';
import EvidenceTable from '@pkg/node-health/components/EvidenceTable.vue';
import type { Evidence } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';

const MACHINE = 'Machine fleet-default/custom-2d74d4c9a104';
const SECRET = 'Secret fleet-default/custom-2d74d4c9a104-machine-plan';

// Rows as agent-never-checked-in gives them: four fields of the Reconciled condition, then the plan secret's, then
// the machine again.
const EVIDENCE: Evidence[] = [
  {
    object: MACHINE, path: 'status.conditions[Reconciled].status', value: 'Unknown'
  },
  {
    object: MACHINE, path: 'status.conditions[Reconciled].reason', value: 'Waiting'
  },
  {
    object: MACHINE, path: 'status.conditions[Reconciled].message', value: 'waiting for agent to check in and apply initial plan'
  },
  {
    object: SECRET, path: 'data.applied-checksum', value: null
  },
  {
    object: SECRET, path: 'metadata.annotations[rke.cattle.io/plan-last-updated]', value: '2026-09-01T22:43:25Z'
  },
  {
    object: MACHINE, path: 'metadata.creationTimestamp', value: '2026-09-01T22:41:25Z'
  },
  {
    object: MACHINE, path: 'status.addresses[0].address', value: '10.20.1.21', confirmed: true
  },
];

const cells = (wrapper: ReturnType<typeof mount>) => wrapper.findAll('tr').map((tr) => tr.findAll('td').map((td) => ({ text: td.text(), rowspan: td.attributes('rowspan') ?? null })));

describe('EvidenceTable', () => {
  it('in a row\'s detail, names the object once for the rows in a row that read it, keeping the rows\' order', () => {
    const rows = cells(mount(EvidenceTable, { props: { evidence: EVIDENCE } }));

    expect(rows.map((r) => r.length)).toEqual([3, 2, 2, 3, 2, 3, 3]);
    expect(rows.filter((r) => r.length === 3).map((r) => [r[0].text, r[0].rowspan])).toEqual([
      [MACHINE, '3'], [SECRET, '2'], [MACHINE, null], [MACHINE, null],
    ]);
    // Every field and value in its place, in the order the finding gave them.
    expect(rows.map((r) => r[r.length - 2].text)).toEqual(EVIDENCE.map((e) => e.path));
    expect(rows.map((r) => r[r.length - 1].text)).toEqual(['Unknown', 'Waiting', 'waiting for agent to check in and apply initial plan', '—',
      '2026-09-01T22:43:25Z', '2026-09-01T22:41:25Z', '10.20.1.21']);
  });

  it('what the host confirmed stands in its own row, its object in bold', () => {
    const wrapper = mount(EvidenceTable, { props: { evidence: EVIDENCE } });
    const host = wrapper.findAll('tr.evidence-table__host');

    expect(host).toHaveLength(1);
    expect(host[0].find('td.evidence-table__object').text()).toBe(MACHINE);
  });

  it('in a dialog, every row names its object: its columns keep their widths', () => {
    const rows = cells(mount(EvidenceTable, { props: { evidence: EVIDENCE, dialog: true } }));

    expect(rows.map((r) => r.length)).toEqual(EVIDENCE.map(() => 3));
    expect(rows.map((r) => r[0].text)).toEqual(EVIDENCE.map((e) => e.object));
  });

  it('names Rancher\'s node in the reader\'s language, as the chain does, and a Kubernetes kind as kubectl does', () => {
    const zh = createTranslator(load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/zh-hans.yaml'), 'utf8')), 'zh-hans');
    const evidence: Evidence[] = [
      {
        object: 'Rancher node c-m-r5n8d3kx/machine-7fjxs', path: 'status.nodeAnnotations[cluster.x-k8s.io/machine]', value: 'custom-6a3d0f9e2b58'
      },
      {
        object: MACHINE, path: 'metadata.name', value: null
      },
    ];
    const rows = cells(mount(EvidenceTable, { props: { evidence, dialog: true }, global: { mocks: { t: (key: string, args?: Record<string, unknown>) => zh(key, args as any) } } }));

    expect(rows.map((r) => r[0].text)).toEqual(['Rancher 节点 c-m-r5n8d3kx/machine-7fjxs', MACHINE]);
  });
});
