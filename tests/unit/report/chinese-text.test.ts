/**
 * The Chinese reports read as Chinese is written: a space between Chinese and a Latin word (a kind, a name, a
 * command) wherever the texts put one together, and the full-width colon and parentheses, as the tab writes them.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { renderText } from '@pkg/node-health/report/render';
import { renderMarkdown } from '@pkg/node-health/report/markdown';
import { createTranslator } from '@pkg/node-health/report/translate';
import { buildScenario, SCENARIO_NAMES } from '../../../scenarios/catalog';
import { diagnoseScenario } from '../engine/helpers';
import { readHostReport } from '@pkg/node-health/engine';
import { everyFailureHostReports, ghostHostReport } from '../../../scenarios/host-reports';

const zh = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/zh-hans.yaml'), 'utf8')), 'zh-hans');
const HAN = '\\u4e00-\\u9fff';
// A Han character next to a Latin letter, either way round.
const UNSPACED = new RegExp(`[${ HAN }][A-Za-z]|[A-Za-z][${ HAN }]`, 'g');
// A label in Chinese followed by an ASCII colon, or ASCII parentheses around Chinese's neighbour.
const ASCII_COLON = new RegExp(`[${ HAN }）]:`, 'g');
const ASCII_PARENTHESES = new RegExp(`[${ HAN }] ?\\(|\\)[${ HAN }]`, 'g');

function around(text: string, re: RegExp): string[] {
  return [...text.matchAll(re)].map((m) => text.slice(Math.max(0, (m.index ?? 0) - 20), (m.index ?? 0) + 20).replace(/\n/g, '⏎'));
}

describe('the Chinese text and Markdown reports', () => {
  it.each(SCENARIO_NAMES.filter((n) => !/^(large|huge|fleet)/.test(n)))('on %s: a space between Chinese and Latin words, a full-width colon after labels', (name) => {
    const report = diagnoseScenario(buildScenario(name));

    for (const text of [renderText(report, zh), renderMarkdown(report, zh)]) {
      expect(around(text, UNSPACED)).toEqual([]);
      expect(around(text, ASCII_COLON)).toEqual([]);
      expect(around(text, ASCII_PARENTHESES)).toEqual([]);
    }
  });

  it('with the hosts\' own reports: their confirmations and facts too', () => {
    const ghost = buildScenario('ghost-etcd');
    const every = buildScenario('every-failure');

    const reports = ([[ghost, [ghostHostReport(ghost)]], [every, everyFailureHostReports(every)]] as const)
      .map(([s, docs]) => diagnoseScenario(s, 'kubectl', { hostReports: docs.map(readHostReport) }));

    expect(reports.flatMap((report) => report.records).some((r) => r.findings.some((f) => f.confirmation))).toBe(true);
    for (const report of reports) {
      for (const text of [renderText(report, zh), renderMarkdown(report, zh)]) {
        expect(around(text, UNSPACED)).toEqual([]);
        expect(around(text, ASCII_COLON)).toEqual([]);
        expect(around(text, ASCII_PARENTHESES)).toEqual([]);
      }
    }
  });
});
