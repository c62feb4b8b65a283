/**
 * zh-hans says each term one way, Rancher's way (pkg/node-health/glossary/zh-hans.yaml): no message uses a
 * rendering the glossary avoids, and every message whose English says a term says the glossary's word for it.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { parse, MessageFormatElement, TYPE } from 'intl-messageformat-parser';

const PKG = join(__dirname, '../../../pkg/node-health');

interface Term {
  en: string;
  zh: string;
  rancher: string;
  avoid: string[];
}

const GLOSSARY = (load(readFileSync(join(PKG, 'glossary/zh-hans.yaml'), 'utf8')) as { terms: Term[] }).terms;

function flatten(tree: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (tree !== null && typeof tree === 'object') {
    for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
      flatten(value, prefix ? `${ prefix }.${ key }` : key, out);
    }
  } else {
    out.set(prefix, String(tree));
  }

  return out;
}

function literals(elements: MessageFormatElement[], out: string[] = []): string[] {
  for (const el of elements) {
    if (el.type === TYPE.literal) {
      out.push(el.value);
    } else if (el.type === TYPE.plural || el.type === TYPE.select) {
      Object.values(el.options).forEach((option) => literals(option.value, out));
    }
  }

  return out;
}

/** The words a message says itself: its literal text (not its arguments), without quoted English (log lines, Rancher's messages). */
function said(message: string): string {
  const text = message.includes('{') ? literals(parse(message)).join(' ') : message;

  return text.replace(/"[^"]*"/g, ' ');
}

function messages(locale: string): Map<string, string> {
  const flat = flatten(load(readFileSync(join(PKG, `l10n/${ locale }.yaml`), 'utf8')));

  return new Map([...flat].map(([key, message]) => [key, said(message)]));
}

const EN = messages('en-us');
const ZH = messages('zh-hans');

describe('the glossary', () => {
  it('names a word, a source in Rancher\'s translations and the renderings to avoid for each term', () => {
    expect(GLOSSARY.length).toBeGreaterThanOrEqual(4);
    for (const term of GLOSSARY) {
      expect(term.zh).toBeTruthy();
      expect(term.rancher).toBeTruthy();
      expect(term.avoid.length).toBeGreaterThan(0);
      // the glossary's own word is never one it avoids
      expect(term.avoid.filter((a) => new RegExp(a).test(term.zh))).toEqual([]);
    }
  });

  it('catches what it is meant to catch', () => {
    const avoided = (text: string) => GLOSSARY.filter((t) => t.avoid.some((a) => new RegExp(a).test(said(text)))).map((t) => t.zh);

    expect(avoided('这台机器的 agent 从未签到')).toEqual(['Machine', '签入']);
    expect(avoided('集群的 Updated Condition 点名了此 Node')).toEqual(['节点', '状况']);
    expect(avoided('操作系统机器 ID 相同；NodeHealthy 为 False；日志 "Node password rejected"')).toEqual([]);
  });
});

describe.each(GLOSSARY.map((t) => [t.zh, t] as const))('zh-hans says %s', (_zh, term) => {
  it('and none of the renderings the glossary avoids', () => {
    const found = [...ZH].flatMap(([key, text]) => term.avoid.filter((a) => new RegExp(a).test(text)).map((a) => `${ key }: /${ a }/ in ${ text.trim() }`));

    expect(found).toEqual([]);
  });

  it('wherever the English says the term', () => {
    const english = new RegExp(`\\b(${ term.en })\\b`, 'i');
    const missing = [...EN].filter(([key, text]) => english.test(text) && ZH.has(key) && !ZH.get(key)?.includes(term.zh)).map(([key]) => key);

    expect(missing).toEqual([]);
  });
});
