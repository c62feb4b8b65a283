/**
 * Every message the engine can emit exists in both languages and formats with the arguments it is given,
 * so no user ever sees a raw key or a broken placeholder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { createTranslator } from '@pkg/node-health/report/translate';
import { buildScenario, SCENARIO_NAMES } from '../../../scenarios/catalog';
import { diagnoseScenario, Shape } from './helpers';
import { diagnose, readHostReport, RULE_IDS } from '@pkg/node-health/engine';
import { everyFailureHostReports, ghostHostReport } from '../../../scenarios/host-reports';

const l10n = (locale: string) => load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n', `${ locale }.yaml`), 'utf8'));

function lookup(messages: any, key: string): unknown {
  return key.split('.').reduce((node, part) => (node && typeof node === 'object' ? node[part] : undefined), messages);
}

const emitted = new Map<string, Record<string, string | number>>();
/** The rules that gave a finding: a table rule's finding is titled by its signal, not by the rule. */
const fired = new Set<string>();

for (const name of [...SCENARIO_NAMES, 'large-300']) {
  for (const shape of ['kubectl', 'steve'] as Shape[]) {
    const report = diagnoseScenario(buildScenario(name), shape);

    for (const r of report.records) {
      for (const f of r.findings) {
        emitted.set(f.titleKey, f.args);
        fired.add(f.rule);
        emitted.set(f.causeKey, f.args);
        f.fix.forEach((s) => emitted.set(s.key, s.args ?? {}));
      }
      r.notes.forEach((n) => emitted.set(n.key, n.args ?? {}));
    }
    for (const f of report.clusters.flatMap((c) => c.findings)) {
      emitted.set(f.titleKey, f.args);
      fired.add(f.rule);
      emitted.set(f.causeKey, f.args);
      f.fix.forEach((s) => emitted.set(s.key, s.args ?? {}));
    }
  }
}
// The safety net: a reason no rule knows.
// The host rules and the confirmations need host reports.
const ghost = buildScenario('ghost-etcd');
const every = buildScenario('every-failure');

for (const [s, docs] of [[ghost, [ghostHostReport(ghost)]], [every, everyFailureHostReports(every)]] as const) {
  for (const r of diagnoseScenario(s, 'kubectl', { hostReports: docs.map(readHostReport) }).records) {
    for (const f of r.findings) {
      emitted.set(f.titleKey, f.args);
      fired.add(f.rule);
      emitted.set(f.causeKey, f.args);
      f.fix.forEach((step) => emitted.set(step.key, step.args ?? {}));
      if (f.confirmation) {
        emitted.set(f.confirmation.key, f.confirmation.args ?? {});
      }
    }
  }
}

const quota = buildScenario('healthy');
const quotaObjects = JSON.parse(JSON.stringify(quota.objects)).map((o: any) => {
  if (o.kind === 'Machine') {
    o.status.conditions = o.status.conditions.map((c: any) => (c.type === 'BootstrapReady' ? {
      ...c, status: 'False', reason: 'Quota', message: 'quota'
    } : c));
  }

  return o;
});

for (const r of diagnose(quotaObjects, { now: quota.now }).records) {
  for (const f of r.findings) {
    emitted.set(f.titleKey, f.args);
    fired.add(f.rule);
    emitted.set(f.causeKey, f.args);
    f.fix.forEach((s) => emitted.set(s.key, s.args ?? {}));
  }
}
// Notes that need unreadable inputs or broken objects to appear.
diagnose([{
  apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Machine', metadata: { name: 'm', namespace: 'n' }
}], { now: 0 })
  .records.forEach((r) => r.notes.forEach((n) => emitted.set(n.key, n.args ?? {})));

describe.each(['en-us', 'zh-hans'])('engine messages in %s', (locale) => {
  const messages = l10n(locale);
  const t = createTranslator(messages, locale);

  it('covers every rule of the catalogue: each gives a finding in some scenario', () => {
    expect(RULE_IDS.filter((id) => !fired.has(id))).toStrictEqual([]);
  });

  it('has every emitted key, and each formats without leaving a placeholder', () => {
    const problems: string[] = [];

    for (const [key, args] of emitted) {
      if (typeof lookup(messages, key) !== 'string') {
        problems.push(`missing ${ key }`);
        continue;
      }
      const text = t(key, args);

      if (/\{[a-zA-Z]+\}/.test(text) || text === key) {
        problems.push(`${ key } → ${ text }`);
      }
    }
    expect(problems).toStrictEqual([]);
  });
});
