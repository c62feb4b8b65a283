/**
 * The lint rule that keeps import cycles out, type imports included (eslint-rules/no-cycle-counting-types.js):
 * import/no-cycle passes a cycle closed by `import type`, this rule must not.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// eslint 7 ships no type declarations.
const { ESLint } = require('eslint');

interface LintResult {
  filePath: string;
  messages: { line: number; ruleId: string | null; message: string }[];
}

const RULES_DIR = join(__dirname, '../../../eslint-rules');

async function lint(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'nh-cycle-'));

  try {
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
    }
    const eslint = new ESLint({
      cwd:         dir,
      useEslintrc: false,
      rulePaths:   [RULES_DIR],
      baseConfig:  {
        parser:        require.resolve('@typescript-eslint/parser'),
        parserOptions: { sourceType: 'module', ecmaVersion: 2020 },
        plugins:       ['import'],
        settings:      {
          'import/parsers':  { [require.resolve('@typescript-eslint/parser')]: ['.ts'] },
          'import/resolver': { node: { extensions: ['.ts'] } },
        },
        rules: { 'no-cycle-counting-types': 'error', 'import/no-cycle': 'error' },
      },
      resolvePluginsRelativeTo: join(__dirname, '../../..'),
    });
    const results: LintResult[] = await eslint.lintFiles(Object.keys(files).map((f) => join(dir, f)));

    return results.flatMap((r) => r.messages.map((m) => `${ r.filePath.slice(dir.length + 1) }:${ m.line } ${ m.ruleId }: ${ m.message.split(dir).join('') }`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('no-cycle-counting-types', () => {
  it('reports a cycle closed by a type import, which import/no-cycle passes', async() => {
    const messages = await lint({
      'a.ts': `import { b } from './b';\n\nexport const a = b + 1;\n`,
      'b.ts': `import type { A } from './c';\n\nexport const b = 1;\nexport type B = A;\n`,
      'c.ts': `import { a } from './a';\n\nexport type A = typeof a;\n`,
    });

    expect(messages).toEqual([
      'a.ts:1 no-cycle-counting-types: Import cycle, type imports included: a.ts → b.ts → c.ts → a.ts',
      'b.ts:1 no-cycle-counting-types: Import cycle, type imports included: b.ts → c.ts → a.ts → b.ts',
      'c.ts:1 no-cycle-counting-types: Import cycle, type imports included: c.ts → a.ts → b.ts → c.ts',
    ]);
  });

  it('reports a cycle of value imports as import/no-cycle does', async() => {
    const messages = await lint({
      'a.ts': `import { b } from './b';\n\nexport const a = b + 1;\n`,
      'b.ts': `import { a } from './a';\n\nexport const b = 1;\nexport const twice = () => a * 2;\n`,
    });

    expect(messages).toEqual([
      'a.ts:1 import/no-cycle: Dependency cycle detected.',
      'a.ts:1 no-cycle-counting-types: Import cycle, type imports included: a.ts → b.ts → a.ts',
      'b.ts:1 import/no-cycle: Dependency cycle detected.',
      'b.ts:1 no-cycle-counting-types: Import cycle, type imports included: b.ts → a.ts → b.ts',
    ]);
  });

  it('passes modules that only import one way', async() => {
    expect(await lint({
      'a.ts': `import type { B } from './b';\nimport { c } from './c';\n\nexport const a: B = c;\n`,
      'b.ts': `import { c } from './c';\n\nexport type B = typeof c;\n`,
      'c.ts': `export const c = 1;\n`,
    })).toEqual([]);
  });
});
