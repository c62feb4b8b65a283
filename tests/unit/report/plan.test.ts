/**
 * The reports carry each record's and each cluster's plan: JSON `resolution`, and in text and Markdown the plan
 * before the findings, whose steps are not printed again.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { recordTitle, renderText, toJsonReport } from '@pkg/node-health/report/render';
import { renderMarkdown } from '@pkg/node-health/report/markdown';
import { createTranslator } from '@pkg/node-health/report/translate';
import { buildScenario, GHOST_MACHINE, MHC_BLOCKED_MACHINES } from '../../../scenarios/catalog';
import { diagnoseScenario } from '../engine/helpers';

const en = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
const zh = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/zh-hans.yaml'), 'utf8')), 'zh-hans');
const report = diagnoseScenario(buildScenario('ghost-etcd'));

describe('the JSON report', () => {
  const json = toJsonReport(report, en);
  const ghost = json.records.find((r) => r.machine === GHOST_MACHINE);

  it('gives each record its root cause and its steps, in words and with their commands', () => {
    expect(ghost?.resolution.rootCause).toBe('agent-never-checked-in');
    expect(ghost?.resolution.consequences).toEqual(['stuck-deleting', 'blocking-cluster-operation']);
    expect(ghost?.resolution.steps[0].text).toMatch(/^Its host is most likely dev-k8s-node01/);
    expect(ghost?.resolution.steps.some((s) => s.rule === 'stuck-deleting' && s.command?.includes('patch machines.cluster.x-k8s.io'))).toBe(true);
    const healthy = json.records.find((r) => r.status === 'healthy');

    expect(healthy?.resolution).toEqual({
      rootCause: null, consequences: [], steps: []
    });
  });

  it('gives the cluster its plan, naming the record to settle first as records[] names it', () => {
    const cluster = json.clusters.find((c) => c.name === 'dev-k3s');

    expect(cluster?.resolution.first).toEqual([GHOST_MACHINE]);
    expect(cluster?.resolution.steps.map((s) => s.text)).toEqual([
      `Settle machine ${ GHOST_MACHINE } first: the cluster waits for it before it configures the others. Its plan is on its row.`,
    ]);
  });
});

describe('text and Markdown', () => {
  it('print the plan before the findings, and each step once', () => {
    for (const text of [renderText(report, en), renderMarkdown(report, en)]) {
      const section = text.slice(text.indexOf(GHOST_MACHINE, text.indexOf('Healthy:') > 0 ? text.indexOf('Healthy:') : 0));
      const plan = section.indexOf('Root cause: Agent never checked in');

      expect(plan).toBeGreaterThan(-1);
      expect(plan).toBeLessThan(section.indexOf('Holds back the whole cluster', plan));
      expect(section.split('Last resort: remove the finalizers.').length - 1).toBe(1);
    }
  });

  it('head a record with its machine, and its Node only where the Node is named otherwise', () => {
    const blocked = diagnoseScenario(buildScenario('health-check-blocked'));
    const record = blocked.records.find((r) => r.machineName === MHC_BLOCKED_MACHINES[0])!;
    const custom = report.records.find((r) => r.objects.machine && r.nodeName)!;

    expect(record.nodeName).toBe(record.machineName);
    for (const text of [renderText(blocked, en), renderMarkdown(blocked, en)]) {
      expect(text).toContain(MHC_BLOCKED_MACHINES[0]);
      expect(text).not.toContain(`${ MHC_BLOCKED_MACHINES[0] } (${ MHC_BLOCKED_MACHINES[0] })`);
    }
    // A custom host keeps its own hostname.
    expect(custom.nodeName).not.toBe(custom.machineName);
    expect(recordTitle(custom)).toBe(`${ custom.machineName } (${ custom.nodeName })`);
  });

  it('in zh-hans too', () => {
    expect(renderText(report, zh)).toContain('根本原因：');
    // Each finding's severity in the language of the rest of its line, as the record's status is.
    expect(renderText(report, zh)).toContain('错误 agent-never-checked-in: ');
    expect(renderText(report, zh)).not.toMatch(/\b(ERROR|WARNING|INFO) [a-z-]+: /);
    expect(renderText(report, en)).toContain('ERROR agent-never-checked-in: ');
  });

  it('Markdown\'s table names the root cause in the row, as the tab does, and the worst finding\'s status', () => {
    const row = renderMarkdown(report, en).split('\n').find((l) => l.startsWith('| ') && l.includes(GHOST_MACHINE));

    expect(row).toBe(`| Error | ${ GHOST_MACHINE } | - | Etcd | Agent never checked in |`);
  });

  it('Markdown says roles and severities in the report\'s language, as the tab does', () => {
    const md = renderMarkdown(report, zh);
    const row = md.split('\n').find((l) => l.startsWith('| ') && l.includes('dev-k8s-master01'));

    // Rancher's own zh-hans keeps the role names as they are in English.
    expect(row).toContain('| Etcd, Control Plane |');
    expect(md).toContain('（`agent-never-checked-in`，错误）');
  });
});

describe('what could not be judged of a cluster', () => {
  const frozen = diagnoseScenario(buildScenario('nodes-frozen'));

  it('is said under the cluster in text and Markdown, in both languages, not left out as if it were healthy', () => {
    const said = 'Whether cluster fz-rke2\'s etcd keeps its quorum is not judged: nothing has written the status of the Nodes of';

    for (const text of [renderText(frozen, en), renderMarkdown(frozen, en)]) {
      const at = text.indexOf(said);

      expect(at).toBeGreaterThan(-1);
      // Under the cluster, before the records.
      expect(at).toBeLessThan(text.indexOf('Error: 0'));
      expect(text).toContain('for 25m, so their Ready cannot be trusted (see their rows).');
    }
    expect(renderText(frozen, zh)).toContain('集群 fz-rke2 的 etcd 是否仍保有仲裁无法判断');
  });
});
