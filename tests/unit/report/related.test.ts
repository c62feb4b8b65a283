/**
 * The same host in two records, as the admin reads it: on dev-k3s the ghost etcd machine and the orphan Node
 * dev-k8s-node01 (same address), on vs-win the worker expecting WIN-WORKER-01 and the Node win-worker-01. Their
 * steps are one plan, and the JSON, text and Markdown reports carry the relation.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { linkChain } from '@pkg/node-health/engine';
import type { DiagnosisReport, NodeRecord } from '@pkg/node-health/engine';
import { renderText, toJsonReport } from '@pkg/node-health/report/render';
import { relationSentences } from '@pkg/node-health/report/related';
import { renderMarkdown } from '@pkg/node-health/report/markdown';
import { createTranslator } from '@pkg/node-health/report/translate';
import type { Translate } from '@pkg/node-health/report/translate';
import { buildScenario, GHOST_MACHINE, WINDOWS_CASE_MACHINE } from '../../../scenarios/catalog';
import { diagnoseScenario } from '../engine/helpers';

function translator(locale: 'en-us' | 'zh-hans'): Translate {
  return createTranslator(load(readFileSync(join(__dirname, `../../../pkg/node-health/l10n/${ locale }.yaml`), 'utf8')), locale);
}

const en = translator('en-us');
const zh = translator('zh-hans');

function steps(r: NodeRecord, t: Translate = en): string[] {
  return r.findings.flatMap((f) => f.fix.map((s) => t(s.key, s.args)));
}

function commands(r: NodeRecord): string[] {
  return r.findings.flatMap((f) => f.fix.map((s) => s.command ?? '')).filter(Boolean);
}

describe('dev-k3s: the ghost etcd machine and the orphan Node at its address', () => {
  const report = diagnoseScenario(buildScenario('ghost-etcd'), 'steve');
  const ghost = report.records.find((r) => r.machineName === GHOST_MACHINE && r.objects.machine)!;
  const orphan = report.records.find((r) => r.nodeName === 'dev-k8s-node01' && !r.objects.machine)!;

  it('relates them as most likely one host, by the address 10.20.1.21, with where each read it', () => {
    const rel = ghost.related.find((x) => x.key === orphan.key)!;

    expect(rel).toMatchObject({
      sameHost: 'likely', node: 'dev-k8s-node01', machine: null
    });
    expect(rel.shared[0]).toMatchObject({ signal: 'address', value: '10.20.1.21' });
    expect(rel.shared[0].evidence).toStrictEqual([
      {
        object: `Secret fleet-default/${ GHOST_MACHINE }-machine-plan`, path: 'metadata.annotations[rke.cattle.io/address]', value: '10.20.1.21'
      },
      {
        object: 'Node dev-k8s-node01', path: 'status.addresses[0].address', value: '10.20.1.21'
      },
    ]);
    expect(orphan.related.find((x) => x.key === ghost.key)).toMatchObject({ sameHost: 'likely', machine: GHOST_MACHINE });
  });

  it('says on the ghost that its host is most likely dev-k8s-node01, instead of a search of every host', () => {
    const agent = ghost.findings.find((f) => f.rule === 'agent-never-checked-in')!;

    expect(en(agent.fix[0].key, agent.fix[0].args)).toMatch(/^Its host is most likely dev-k8s-node01 \(same address 10\.20\.1\.21\)/);
    expect(zh(agent.fix[0].key, agent.fix[0].args)).toContain('很可能是 dev-k8s-node01（地址相同：10.20.1.21）');
    expect(steps(ghost).some((s) => /on each host of the cluster/.test(s))).toBe(false);
    // The ghost is deleting: its host registers again once it is gone, as a new machine, not as the same one.
    expect(steps(ghost)).toContain('Once this machine is gone (the steps for its deletion come first), re-run the registration command on dev-k8s-node01: with fresh credentials it comes back as a new machine.');
    // The evidence that says so is the finding's own.
    expect(agent.evidence).toEqual(expect.arrayContaining([
      {
        object: 'Node dev-k8s-node01', path: 'status.addresses[0].address', value: '10.20.1.21'
      },
    ]));
  });

  it('gives the orphan Node the machine\'s plan: no disabling the agent, no deleting the Node', () => {
    const text = steps(orphan);

    expect(text[0]).toBe(`This host is most likely also machine ${ GHOST_MACHINE }'s (same address 10.20.1.21): the two records are one host, and that machine's steps are the plan for both.`);
    expect(text.join('\n')).toMatch(/re-run the registration command on this host/);
    expect(commands(orphan).filter((c) => /systemctl disable|kubectl delete node/.test(c))).toStrictEqual([]);
    expect(text.filter((s) => /stop and disable|delete the Node/i.test(s))).toStrictEqual([]);
    // Both records tell the admin to register the same host again, and neither to remove it.
    expect(steps(ghost).join('\n')).toMatch(/registration command on dev-k8s-node01/);
  });

  it('keeps the finalizer cleanup on the ghost: the Node at its address belongs to a machine that is gone', () => {
    expect(ghost.findings.find((f) => f.rule === 'stuck-deleting')?.actions).toContain('remove-finalizers');
  });

  it('shows the ghost\'s Node link as that Node, not linked', () => {
    expect(linkChain(ghost).find((l) => l.kind === 'node')).toMatchObject({ state: 'unlinked', name: 'dev-k8s-node01' });
  });

  it('carries the relation in the JSON report, as records[].related[] = {machine, node, why}', () => {
    const json = toJsonReport(report, en);
    const ghostJson = json.records.find((r) => r.machine === GHOST_MACHINE)!;
    const orphanJson = json.records.find((r) => r.node === 'dev-k8s-node01' && r.machine === null)!;

    expect(ghostJson.related).toHaveLength(1);
    expect(ghostJson.related[0]).toMatchObject({
      machine: null, node: 'dev-k8s-node01', sameHost: 'likely'
    });
    expect(ghostJson.related[0].why).toMatch(/^Most likely the same host as Node dev-k8s-node01: same address 10\.20\.1\.21, same host name dev-k8s-node01\./);
    expect(orphanJson.related[0]).toMatchObject({ machine: GHOST_MACHINE, node: null });
    expect(orphanJson.related[0].why).toMatch(new RegExp(`^Most likely the same host as machine ${ GHOST_MACHINE }: same address 10\\.20\\.1\\.21`));
    // Records that are neither the same host nor named carry an empty list.
    expect(json.records.filter((r) => r !== ghostJson && r !== orphanJson).every((r) => r.related.length === 0)).toBe(true);
  });

  it('prints the relation in the text and Markdown reports, in either language', () => {
    const text = renderText(report, en);
    const markdown = renderMarkdown(report, en);

    expect(text).toContain('  Related records:\n    - Most likely the same host as Node dev-k8s-node01: same address 10.20.1.21');
    expect(markdown).toContain('### Related records');
    expect(markdown).toContain('  - Node dev-k8s-node01 `status.addresses[0].address`: `10.20.1.21`');
    expect(renderText(report, zh)).toContain('很可能与以下记录是同一台主机：节点 dev-k8s-node01（地址相同：10.20.1.21');
  });
});

describe('vs-win: the worker expecting WIN-WORKER-01 and the Node win-worker-01', () => {
  const report: DiagnosisReport = diagnoseScenario(buildScenario('windows-node-ref'));
  const machine = report.records.find((r) => r.machineName === WINDOWS_CASE_MACHINE && r.objects.machine)!;
  const node = report.records.find((r) => r.nodeName === 'win-worker-01' && !r.objects.machine)!;

  it('links them: the same host, by the ids kubelet reports', () => {
    expect(machine.related.find((x) => x.key === node.key)).toMatchObject({ sameHost: 'certain', node: 'win-worker-01' });
    expect(node.related.find((x) => x.key === machine.key)).toMatchObject({ sameHost: 'certain', machine: WINDOWS_CASE_MACHINE });
  });

  it('does not tell the machine to re-register as win-worker-01 and remove that Node', () => {
    const text = steps(machine).join('\n');

    expect(text).not.toMatch(/Re-register the host with the node name win-worker-01/);
    expect(text).not.toMatch(/Remove the stale Node win-worker-01/);
    expect(commands(machine)).not.toContain("$env:CATTLE_NODE_NAME = 'win-worker-01'");
    expect(text).toMatch(/Node win-worker-01 is this machine's host \(same system UUID [0-9A-F-]+\), registered under the lower-case name: there is nothing to rename, and no Node to remove\./);
    expect(machine.findings.find((f) => f.rule === 'node-name-mismatch')?.actions).toStrictEqual([]);
  });

  it('does not say the Node is healthy with nothing wrong: it points to the machine', () => {
    expect(node.status).toBe('warning');
    const f = node.findings[0];

    expect(f.rule).toBe('related-record');
    expect(en(f.titleKey, f.args)).toBe(`Part of machine ${ WINDOWS_CASE_MACHINE }'s problem`);
    expect(en(f.causeKey, f.args)).toMatch(new RegExp(`^This is the host of machine ${ WINDOWS_CASE_MACHINE } \\(same system UUID`));
    expect(steps(node)).toStrictEqual([`Open machine ${ WINDOWS_CASE_MACHINE } and follow its steps: they are the plan for this host too.`]);
    expect(zh(f.titleKey, f.args)).toBe(`属于 Machine ${ WINDOWS_CASE_MACHINE } 的问题`);
  });

  it('lists the findings that name the other record as the language lists things', () => {
    const relation = machine.related.find((x) => x.key === node.key)!;

    expect(relationSentences(relation, en)[1]).toBe('Its findings provider-id-missing, node-name-mismatch name Node win-worker-01.');
    expect(relationSentences(relation, zh)[1]).toBe('它的 2 条发现（provider-id-missing，node-name-mismatch）提到了节点 win-worker-01。');
  });

  it('does not show the machine\'s Node as waiting when its findings name that Node', () => {
    const link = linkChain(machine).find((l) => l.kind === 'node')!;

    expect(link).toMatchObject({ state: 'unlinked', name: 'win-worker-01' });
    expect(link.state).not.toBe('waiting');
  });
});
