import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { diagnose, durationParts, formatDuration } from '@pkg/node-health/engine';
import { csvRows } from '@pkg/node-health/report/csv';
import { buildRows } from '@pkg/node-health/data/rows';
import { findingToJson, renderText } from '@pkg/node-health/report/render';
import { renderMarkdown } from '@pkg/node-health/report/markdown';
import { buildScenario, DRAINING_MACHINE } from '../../../scenarios/catalog';
import { clusterObjects } from '../engine/helpers';
import { localizeArgs, sayDurationMs, sayTime, withLocalArgs } from '@pkg/node-health/report/durations';
import { createTranslator } from '@pkg/node-health/report/translate';
import type { Translate } from '@pkg/node-health/report/translate';

/** The extension's own messages in one language, formatted as the shell's translator formats them. */
function translator(locale: 'en-us' | 'zh-hans'): Translate {
  return createTranslator(load(readFileSync(join(__dirname, `../../../pkg/node-health/l10n/${ locale }.yaml`), 'utf8')), locale);
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('durations', () => {
  it('keep the one or two largest units, as the command line prints them', () => {
    expect(formatDuration(2 * DAY + 4 * HOUR + 5 * MIN)).toBe('2d 4h');
    expect(formatDuration(3 * HOUR + 58 * MIN)).toBe('3h 58m');
    expect(formatDuration(40 * MIN + 30_000)).toBe('40m');
    expect(formatDuration(12_999)).toBe('12s');
    expect(formatDuration(-1)).toBe('0s');
    expect(durationParts(DAY)).toEqual([{ value: 1, unit: 'd' }]);
  });

  it('are said in the language the user chose', () => {
    const en = translator('en-us');
    const zh = translator('zh-hans');

    expect(sayDurationMs(2 * DAY + 4 * HOUR, en)).toBe('2d 4h');
    expect(sayDurationMs(2 * DAY + 4 * HOUR, zh)).toBe('2天4小时');
    expect(sayDurationMs(3 * HOUR + 58 * MIN, zh)).toBe('3小时58分钟');
    expect(sayDurationMs(0, zh)).toBe('0秒');
    expect(zh('nodeHealth.tab.header.updated', { ago: sayDurationMs(12_000, zh) })).toBe('12秒前更新');
  });

  it('replace only the duration arguments of an engine message, and only when they hold milliseconds', () => {
    const zh = translator('zh-hans');

    expect(localizeArgs({ duration: 2 * HOUR + 5 * MIN, node: 'n1' }, zh)).toEqual({ duration: '2小时5分钟', node: 'n1' });
    expect(localizeArgs({ age: 3 * DAY, probes: 'kubelet' }, zh)).toEqual({ age: '3天', probes: 'kubelet' });
    // A count is no duration, and a duration the engine could not tell stays as it is.
    expect(localizeArgs({ count: 5 * MIN }, zh)).toEqual({ count: 5 * MIN });
    expect(localizeArgs({ duration: '?' }, zh)).toEqual({ duration: '?' });
    expect(localizeArgs(undefined, zh)).toBeUndefined();
  });

  it('say the times of a message as the timeline shows them, and leave every other value as written', () => {
    const en = translator('en-us');

    expect(sayTime('2024-05-02T10:00:00Z')).toBe('2024-05-02 10:00:00 UTC');
    expect(sayTime('2026-12-06T14:35:10.357Z')).toBe('2026-12-06 14:35:10 UTC');
    // Said once: a said time, another zone, or text that only starts like a time stays as it is.
    expect(sayTime('2024-05-02 10:00:00 UTC')).toBe('2024-05-02 10:00:00 UTC');
    expect(sayTime('2024-05-02T10:00:00+08:00')).toBe('2024-05-02T10:00:00+08:00');
    expect(sayTime('2024-05-02T10:00:00Z; rm -rf /')).toBe('2024-05-02T10:00:00Z; rm -rf /');
    expect(localizeArgs({
      since: '2024-05-02T10:00:00Z', last: '2024-05-02T10:00:00.5Z', message: '2024-05-02T10:00:00Z'
    }, en))
      .toEqual({
        since: '2024-05-02 10:00:00 UTC', last: '2024-05-02 10:00:00 UTC', message: '2024-05-02T10:00:00Z'
      });
    // The blocking banner's sentence, as the tab and the reports say it.
    expect(withLocalArgs(en)('nodeHealth.tab.blocking.since', { duration: 2 * DAY, time: '2026-12-04T14:11:37Z' }))
      .toBe('Waiting for 2d (since 2026-12-04 14:11:37 UTC).');
    // A bundle's banner, as the tab and the bundle view say it.
    expect(withLocalArgs(en)('nodeHealth.bundleView.banner', {
      cluster: 'dev-k3s', madeAt: '2026-01-15T08:10:00.000Z', madeBy: 'Node Health 0.1.0'
    }))
      .toBe('Bundle of cluster dev-k3s, made at 2026-01-15 08:10:00 UTC by Node Health 0.1.0; read-only.');
  });
});

describe('durations in findings', () => {
  // drain-stuck: the worker has drained for five hours.
  const s = buildScenario('drain-stuck');
  const report = diagnose(clusterObjects(s, s.clusters[0].mgmtId), { now: s.now });
  const record = report.records.find((r) => r.machineName === DRAINING_MACHINE)!;
  const finding = record.findings.find((f) => f.rule === 'drain-stuck')!;
  const zh = translator('zh-hans');
  const said = zh(finding.causeKey, { ...finding.args, duration: '5小时' });

  it('are milliseconds in the finding, not text', () => {
    expect(finding.args.duration).toBe(5 * HOUR);
  });

  // No title says a duration today; one that did would be said in the reader's language in the table and the CSV too.
  const titled: Translate = (key, args) => (key === finding.titleKey ? `drained ${ args?.duration }` : zh(key, args));

  it('are said in the reader\'s language by the text, Markdown and CSV renderings', () => {
    expect(said).toContain('5小时');
    expect(renderText(report, zh)).toContain(said);
    expect(renderMarkdown(report, zh)).toContain(said);
    expect(csvRows({ ...report, records: [{ ...record, findings: [finding] }] }, titled)[0]).toContain('drained 5小时');
  });

  it('are said in the reader\'s language in the tab\'s rows', () => {
    const row = buildRows({ ...report, records: [{ ...record, findings: [finding] }] }, titled)[0];

    expect(row.searchText).toContain('drained 5小时');
    expect(row.findingArgs.duration).toBe(5 * HOUR);
  });

  it('are a number next to their compact form in the JSON report', () => {
    const json = findingToJson(finding, zh);

    expect(json.durations).toEqual({ duration: { ms: 5 * HOUR, text: '5h' } });
    expect(json.cause).toBe(said);
  });
});
