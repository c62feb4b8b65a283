/**
 * Every translation key the extension's code names, anywhere in pkg/ (engine, tab, components, actions, dialogs,
 * registration, export), exists in both languages. Keys are read from the source: string literals, and template
 * literals with their key-prefix constants (`const K = 'nodeHealth.export'`, `${ K }.title`) put in. A key with a
 * part chosen at run time (`nodeHealth.rules.${ key }.title`) must match at least one key in each language.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '../../..');
const PKG = join(ROOT, 'pkg/node-health');
const LOCALES = ['en-us', 'zh-hans'];
const KEY = /^nodeHealth(\.[A-Za-z0-9_-]+)+$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);

    if (statSync(path).isDirectory()) {
      return entry === 'l10n' || entry === 'node_modules' || entry.startsWith('.') ? [] : sourceFiles(path);
    }

    return /\.(ts|vue)$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

function leaves(tree: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (tree && typeof tree === 'object') {
    Object.entries(tree as Record<string, unknown>).forEach(([k, v]) => leaves(v, prefix ? `${ prefix }.${ k }` : k, out));
  } else {
    out.add(prefix);
  }

  return out;
}

const files = sourceFiles(PKG).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
const PREFIX_CONST = /(export )?const ([A-Za-z_][A-Za-z0-9_]*) = '(nodeHealth(?:\.[A-Za-z0-9_-]+)+)';/g;
/** Key prefixes the code names once and builds keys from (`const K = 'nodeHealth.export'`): exported ones, by name. */
const exported = new Map<string, string>();

for (const { text } of files) {
  for (const m of text.matchAll(PREFIX_CONST)) {
    if (m[1]) {
      exported.set(m[2], m[3]);
    }
  }
}

/** The prefixes a file sees: the exported ones and its own. */
function prefixesOf(text: string): Map<string, string> {
  const out = new Map(exported);

  for (const m of text.matchAll(PREFIX_CONST)) {
    out.set(m[2], m[3]);
  }

  return out;
}

interface Use { file: string; key: string; pattern?: RegExp }

function usesIn(file: string, text: string): Use[] {
  const uses: Use[] = [];
  const prefixes = prefixesOf(text);
  const prefixValues = new Set(prefixes.values());

  for (const m of text.matchAll(/'(nodeHealth\.[^'\s]+)'|"(nodeHealth\.[^"\s]+)"/g)) {
    const key = m[1] ?? m[2];

    if (KEY.test(key) && !prefixValues.has(key)) {
      uses.push({ file, key });
    }
  }
  for (const m of text.matchAll(/`([^`]*)`/g)) {
    const resolved = m[1].replace(/\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g, (whole, name) => prefixes.get(name) ?? whole);

    if (!resolved.startsWith('nodeHealth.') || /\s/.test(resolved.replace(/\$\{[^}]*\}/g, ''))) {
      continue;
    }
    if (resolved.includes('${')) {
      const source = resolved.split(/\$\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[A-Za-z0-9_-]+');

      uses.push({
        file, key: resolved, pattern: new RegExp(`^${ source }(\\.[A-Za-z0-9_-]+)*$`)
      });
    } else if (KEY.test(resolved)) {
      uses.push({ file, key: resolved });
    }
  }

  return uses;
}

const uses = files.flatMap(({ path, text }) => usesIn(path, text));

describe('translation keys used in pkg/', () => {
  it('are found in the code: literal keys, keys built on prefix constants, and keys with a run-time part', () => {
    expect(exported.size).toBeGreaterThan(0);
    expect(uses.some((u) => u.file.includes('dialog/') && !u.pattern)).toBe(true);
    expect(uses.some((u) => u.file.includes('actions/') && !u.pattern)).toBe(true);
    expect(uses.some((u) => u.pattern)).toBe(true);
    expect(uses.length).toBeGreaterThan(200);
  });

  it.each(LOCALES)('all exist in %s', (locale) => {
    const keys = leaves(load(readFileSync(join(PKG, 'l10n', `${ locale }.yaml`), 'utf8')));
    const missing = uses.filter((u) => (u.pattern ? ![...keys].some((k) => u.pattern!.test(k)) : !keys.has(u.key)))
      .map((u) => `${ u.file }: ${ u.key }`);

    expect([...new Set(missing)].sort()).toStrictEqual([]);
  });
});
