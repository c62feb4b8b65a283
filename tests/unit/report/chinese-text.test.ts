/**
 * The Chinese reports read as Chinese is written: a space between Chinese and a Latin word (a kind, a name, a
 * command) wherever the texts put one together, and the full-width colon and parentheses, as the tab writes them.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import IntlMessageFormat from 'intl-messageformat';
import { hostMatchText, renderText } from '@pkg/node-health/report/render';
import { renderMarkdown } from '@pkg/node-health/report/markdown';
import { htmlLocaleData } from '@pkg/node-health/report/html/data';
import { sayObject } from '@pkg/node-health/report/objects';
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
// One space between two Chinese words: Chinese puts none there.
const SPACED_HAN = new RegExp(`[${ HAN }] [${ HAN }]`, 'g');

function around(text: string, re: RegExp): string[] {
  return [...text.matchAll(re)].map((m) => text.slice(Math.max(0, (m.index ?? 0) - 20), (m.index ?? 0) + 20).replace(/\n/g, '⏎'));
}

/** The report's text and Markdown in Chinese, each written as Chinese is written. */
function expectWrittenAsChinese(report: ReturnType<typeof diagnoseScenario>): void {
  for (const text of [renderText(report, zh), renderMarkdown(report, zh)]) {
    expect(around(text, UNSPACED)).toEqual([]);
    expect(around(text, ASCII_COLON)).toEqual([]);
    expect(around(text, ASCII_PARENTHESES)).toEqual([]);
    expect(around(text, SPACED_HAN)).toEqual([]);
  }
}

describe('the Chinese text and Markdown reports', () => {
  it.each(SCENARIO_NAMES.filter((n) => !/^(large|huge|fleet)/.test(n)))('on %s: a space between Chinese and Latin words, a full-width colon after labels', (name) => {
    expectWrittenAsChinese(diagnoseScenario(buildScenario(name)));
  });

  it('with the hosts\' own reports: their confirmations and facts too', () => {
    const ghost = buildScenario('ghost-etcd');
    const every = buildScenario('every-failure');

    const reports = ([[ghost, [ghostHostReport(ghost)]], [every, everyFailureHostReports(every)]] as const)
      .map(([s, docs]) => diagnoseScenario(s, 'kubectl', { hostReports: docs.map(readHostReport) }));

    expect(reports.flatMap((report) => report.records).some((r) => r.findings.some((f) => f.confirmation))).toBe(true);
    reports.forEach(expectWrittenAsChinese);
  });
});

describe('a host report\'s match', () => {
  const host = {
    host: 'win-worker-01', secretName: 'custom-6a3d0f9e2b58-machine-plan', namespace: 'fleet-default', machineId: 'a1b2', collectedAt: null, matched: 'custom-6a3d0f9e2b58'
  };

  it('says by what it was joined, a Chinese word without a space before it and a Latin one with', () => {
    expect(hostMatchText({ ...host, by: 'machine-id' }, zh)).toBe(`已通过机器 ID 关联到 custom-6a3d0f9e2b58`);
    expect(hostMatchText({ ...host, by: 'plan-secret' }, zh)).toBe(`已通过 Plan Secret 关联到 custom-6a3d0f9e2b58`);
  });
});

describe('Rancher\'s node, named in Chinese', () => {
  const SOURCE = {
    from: 'kubectl', cluster: null, createdAt: '2026-06-15T14:00:00Z', rancherVersion: null, extensionVersion: null, obfuscated: false, redactions: {}
  } as const;

  it('as the chain names it, in the evidence and the story of every scenario\'s text, Markdown and report file', () => {
    let named = 0;

    for (const name of SCENARIO_NAMES.filter((n) => !/^(large|huge|fleet)/.test(n))) {
      const report = diagnoseScenario(buildScenario(name));

      for (const text of [renderText(report, zh), renderMarkdown(report, zh), JSON.stringify(htmlLocaleData(report, zh, 'zh-hans', SOURCE))]) {
        expect({ name, english: text.match(/.{0,30}Rancher node.{0,30}/g) }).toEqual({ name, english: null });
        named += (text.match(new RegExp(`${ zh('nodeHealth.chain.kind.mgmtNode') } c-`, 'g')) ?? []).length;
      }
    }
    expect(named).toBeGreaterThan(0);
  });

  it('replaces only the kind\'s words, keeping the name, and leaves Kubernetes kinds and look-alikes alone', () => {
    expect(sayObject('Rancher node c-m-r5n8d3kx/machine-7fjxs', zh)).toBe('Rancher 节点 c-m-r5n8d3kx/machine-7fjxs');
    expect(sayObject('Rancher node', zh)).toBe('Rancher 节点');
    expect(sayObject('Rancher nodes-pool x', zh)).toBe('Rancher nodes-pool x');
    expect(sayObject('Node mc-t-001-node1', zh)).toBe('Node mc-t-001-node1');
    expect(sayObject('Machine fleet-default/custom-1', zh)).toBe('Machine fleet-default/custom-1');
  });

  it('in the report file\'s findings of a whole cluster too', () => {
    const report = diagnoseScenario(buildScenario('etcd-quorum'));
    const finding = report.clusters.flatMap((c) => c.findings ?? []).find((f) => f.evidence.length > 0);

    expect(finding).toBeDefined();
    (finding as NonNullable<typeof finding>).evidence[0].object = 'Rancher node c-m-r5n8d3kx/machine-7fjxs';
    const objects = htmlLocaleData(report, zh, 'zh-hans', SOURCE).report.clusters.flatMap((c) => c.findings.flatMap((f) => f.evidence.map((e) => e.object)));

    expect(objects).toContain('Rancher 节点 c-m-r5n8d3kx/machine-7fjxs');
  });
});

/**
 * Every Chinese message, read statically: across each choice of its selects and plurals, no Chinese character
 * meets a Latin letter, whether in its own text or where a name or other Latin value goes. The scenarios above only
 * reach the choices they happen to make.
 */
describe('every zh-hans message', () => {
  type CharClass = 'han' | 'latin' | 'other';
  // [first, last] character class of one way an element can read; null for an element that reads empty.
  type Reading = [CharClass, CharClass] | null;

  // Arguments whose value is Chinese text in Chinese (a translated part, a duration); every other argument is a
  // name, an address, a command or a message from the cluster: Latin.
  const CHINESE_ARGS = new Set(['duration', 'ago', 'age', 'median', 'leaseAge', 'title', 'label', 'severity', 'list', 'first', 'second', 'next', 'shared', 'note']);
  // A number of a unit: "{n}天" is how Rancher's own Chinese writes a duration.
  const NUMBER_ARGS = new Set(['n']);
  const messages = load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/zh-hans.yaml'), 'utf8'));

  const classOf = (ch: string): CharClass => (new RegExp(`[${ HAN }]`).test(ch) ? 'han' : /[A-Za-z]/.test(ch) ? 'latin' : 'other');
  const clash = (a: CharClass, b: CharClass) => (a === 'han' && b === 'latin') || (a === 'latin' && b === 'han');

  function strings(node: unknown, path: string[] = []): [string, string][] {
    if (typeof node === 'string') {
      return [[path.join('.'), node]];
    }

    return node && typeof node === 'object' ? Object.entries(node).flatMap(([k, v]) => strings(v, [...path, k])) : [];
  }

  /** The ways a sequence of elements can read, each as its first and last class; clashes between elements are noted. */
  function readings(elements: any[], clashes: string[], where: string): Reading[] {
    let states = new Map<string, Reading>([['', null]]);

    for (const el of elements) {
      const next = new Map<string, Reading>();

      for (const state of states.values()) {
        for (const alt of alternatives(el, clashes, where)) {
          if (alt && state && clash(state[1], alt[0])) {
            clashes.push(`${ where }: ${ state[1] } before ${ el.type === 0 ? JSON.stringify(el.value) : `{${ el.value }}` }`);
          }
          const reading: Reading = alt ? [state ? state[0] : alt[0], alt[1]] : state;

          next.set(String(reading), reading);
        }
      }
      states = next;
    }

    return [...states.values()];
  }

  function alternatives(el: any, clashes: string[], where: string): Reading[] {
    switch (el.type) {
    case 0: {
      const text = el.value as string;

      for (let i = 1; i < text.length; i++) {
        if (clash(classOf(text[i - 1]), classOf(text[i]))) {
          clashes.push(`${ where }: ${ JSON.stringify(text.slice(Math.max(0, i - 8), i + 8)) }`);
        }
      }

      return text ? [[classOf(text[0]), classOf(text[text.length - 1])]] : [null];
    }
    case 1: {
      const cls: CharClass = CHINESE_ARGS.has(el.value) ? 'han' : NUMBER_ARGS.has(el.value) ? 'other' : 'latin';

      return [[cls, cls]];
    }
    case 5: case 6:
      return Object.values(el.options as Record<string, { value: any[] }>).flatMap((o) => readings(o.value, clashes, where));
    default:
      return [['other', 'other']];
    }
  }

  it('sets a space wherever Chinese meets a Latin word or a Latin value', () => {
    const clashes: string[] = [];

    for (const [key, text] of strings(messages)) {
      if (text.includes('{')) {
        readings(new IntlMessageFormat(text, 'zh-hans').getAst() as any[], clashes, key);
      } else {
        alternatives({ type: 0, value: text }, clashes, key);
      }
    }
    expect([...new Set(clashes)]).toEqual([]);
  });

  it('sets no space between a duration, which ends in its Chinese unit ("2天", "25分钟"), and the Chinese after it', () => {
    const spaced = strings(messages).flatMap(([key, text]) => [...text.matchAll(new RegExp(`\\{(?:duration|age|median|leaseAge|ago)\\} [${ HAN }]`, 'g'))]
      .map((m) => `${ key }: ${ m[0] }`));

    expect(spaced).toEqual([]);
  });
});
