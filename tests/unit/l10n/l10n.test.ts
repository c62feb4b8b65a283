import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { parse, MessageFormatElement, TYPE } from 'intl-messageformat-parser';

// Rancher ships two UI languages; every key the extension uses must exist, non-empty, in both, and
// each message must be one that shell's translator (intl-messageformat) can format with the same arguments.
const L10N_DIR = join(__dirname, '../../../pkg/node-health/l10n');
const LOCALES = ['en-us', 'zh-hans'] as const;
const PREFIX = 'nodeHealth';

type Flat = Map<string, unknown>;

function flatten(tree: unknown, prefix = '', out: Flat = new Map()): Flat {
  if (tree !== null && typeof tree === 'object' && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
      flatten(value, prefix ? `${ prefix }.${ key }` : key, out);
    }
  } else {
    out.set(prefix, tree);
  }

  return out;
}

function keyDifferences(a: Flat, b: Flat): { onlyInFirst: string[]; onlyInSecond: string[] } {
  return {
    onlyInFirst:  [...a.keys()].filter((k) => !b.has(k)).sort(),
    onlyInSecond: [...b.keys()].filter((k) => !a.has(k)).sort(),
  };
}

function emptyOrNonText(flat: Flat): string[] {
  return [...flat.entries()].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k).sort();
}

function argumentNames(elements: MessageFormatElement[], names = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) {
      continue;
    }
    names.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      Object.values(el.options).forEach((option) => argumentNames(option.value, names));
    }
  }

  return names;
}

function messageArguments(message: string): string[] {
  // Shell formats only messages containing '{'; the rest are shown verbatim.
  return message.includes('{') ? [...argumentNames(parse(message))].sort() : [];
}

function loadLocale(locale: string): Flat {
  return flatten(load(readFileSync(join(L10N_DIR, `${ locale }.yaml`), 'utf8')));
}

describe('l10n checks themselves', () => {
  it('report keys missing on either side', () => {
    const en = flatten({ nodeHealth: { a: 'A', group: { b: 'B', c: 'C' } } });
    const zh = flatten({ nodeHealth: { a: '甲', group: { b: '乙' } }, other: '丁' });

    expect(keyDifferences(en, zh)).toEqual({ onlyInFirst: ['nodeHealth.group.c'], onlyInSecond: ['other'] });
  });

  it('report empty, blank and non-text values', () => {
    const values = {
      ok:    'text',
      blank: '  ',
      none:  null,
      num:   3,
      list:  ['a'],
    };

    expect(emptyOrNonText(flatten({ x: values }))).toEqual(['x.blank', 'x.list', 'x.none', 'x.num']);
  });

  it('collect arguments, including those inside plural branches', () => {
    expect(messageArguments('{count, plural, one {# node on {cluster}} other {# nodes}} since {since}'))
      .toEqual(['cluster', 'count', 'since']);
    expect(messageArguments('no arguments here')).toEqual([]);
    expect(() => messageArguments('broken {name')).toThrow();
  });
});

describe('pkg/node-health/l10n', () => {
  const [en, zh] = LOCALES.map(loadLocale);
  const byLocale = [[LOCALES[0], en], [LOCALES[1], zh]] as const;

  it('en-us and zh-hans have exactly the same keys', () => {
    const { onlyInFirst, onlyInSecond } = keyDifferences(en, zh);

    expect({ missingInZhHans: onlyInFirst, missingInEnUs: onlyInSecond }).toEqual({ missingInZhHans: [], missingInEnUs: [] });
  });

  it.each(byLocale)('%s has no empty values', (_locale, flat) => {
    expect(emptyOrNonText(flat)).toEqual([]);
  });

  it.each(byLocale)(`%s keeps every key under "${ PREFIX }."`, (_locale, flat) => {
    expect([...flat.keys()].filter((k) => !k.startsWith(`${ PREFIX }.`))).toEqual([]);
    expect(flat.get(`${ PREFIX }.tabLabel`)).toEqual(expect.any(String));
  });

  it('every message parses and uses the same arguments in both languages', () => {
    const problems: string[] = [];

    for (const key of en.keys()) {
      const messages = [en.get(key), zh.get(key)];

      if (!messages.every((m): m is string => typeof m === 'string')) {
        continue; // reported by the tests above
      }
      try {
        const [enArgs, zhArgs] = messages.map(messageArguments);

        if (enArgs.join() !== zhArgs.join()) {
          problems.push(`${ key }: en-us {${ enArgs.join(', ') }} vs zh-hans {${ zhArgs.join(', ') }}`);
        }
      } catch (e) {
        problems.push(`${ key }: ${ (e as Error).message }`);
      }
    }

    expect(problems).toEqual([]);
  });
});
