/**
 * The Windows host check, without PowerShell (there is none in CI): a tokenizer reads windows.ps1 the way
 * PowerShell's would (comments, the four kinds of string, variables, brackets) and the tests check that it
 * is well formed, uses only reading cmdlets and syntax Windows PowerShell 5.1 has, and writes the same report
 * fields as the Linux script. The shape of its output is covered by the ingestion fixtures
 * (scenarios/host-reports.ts, windowsHostReport).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_SIGNATURES } from '@pkg/node-health/engine';
import { runHostCheck } from './fixture-host';
import { HOSTS } from './hosts';

const SCRIPT = readFileSync(join(__dirname, '..', '..', '..', 'pkg', 'node-health', 'host-check', 'windows.ps1'), 'utf8');

type TokenKind = 'comment' | 'string' | 'variable' | 'open' | 'close' | 'word' | 'operator' | 'newline';

interface Token {
  kind: TokenKind;
  text: string;
  line: number;
}

class TokenizeError extends Error {}

/** PowerShell's lexical structure, as far as a well-formedness check needs it. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  const push = (kind: TokenKind, start: number) => {
    const text = source.slice(start, i);

    tokens.push({
      kind, text, line
    });
    line += (text.match(/\n/g) ?? []).length;
  };
  const fail = (what: string, at: number): never => {
    throw new TokenizeError(`${ what } at line ${ source.slice(0, at).split('\n').length }`);
  };

  while (i < source.length) {
    const c = source[i];
    const start = i;

    if (c === '\n') {
      i++;
      push('newline', start);
    } else if (/\s/.test(c)) {
      i++;
    } else if (source.startsWith('<#', i)) {
      const end = source.indexOf('#>', i + 2);

      i = end < 0 ? fail('unterminated block comment', start) : end + 2;
      push('comment', start);
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') {
        i++;
      }
      push('comment', start);
    } else if (source.startsWith("@'\n", i) || source.startsWith('@"\n', i)) {
      const close = `\n${ source[i + 1] }@`;
      const end = source.indexOf(close, i + 3);

      i = end < 0 ? fail('unterminated here-string', start) : end + close.length;
      push('string', start);
    } else if (c === "'") {
      i++;
      for (;;) {
        if (i >= source.length) {
          fail('unterminated single-quoted string', start);
        }
        if (source[i] === "'" && source[i + 1] === "'") {
          i += 2;
        } else if (source[i] === "'") {
          i++;
          break;
        } else {
          i++;
        }
      }
      push('string', start);
    } else if (c === '"') {
      i++;
      let depth = 0;

      for (;;) {
        if (i >= source.length) {
          fail('unterminated double-quoted string', start);
        }
        const d = source[i];

        if (d === '`') {
          i += 2;
        } else if (source.startsWith('$(', i)) {
          depth++;
          i += 2;
        } else if (d === ')' && depth > 0) {
          depth--;
          i++;
        } else if (d === '"' && depth === 0) {
          i++;
          break;
        } else {
          i++;
        }
      }
      push('string', start);
    } else if (c === '$') {
      i++;
      if (source[i] === '{') {
        const end = source.indexOf('}', i);

        i = end < 0 ? fail('unterminated braced variable', start) : end + 1;
      } else {
        while (i < source.length && /[\w:?]/.test(source[i])) {
          i++;
        }
      }
      push('variable', start);
    } else if ('({['.includes(c) || source.startsWith('@{', i) || source.startsWith('@(', i)) {
      i += c === '@' ? 2 : 1;
      push('open', start);
    } else if (')}]'.includes(c)) {
      i++;
      push('close', start);
    } else if (c === '`') {
      i += 2;
    } else if (/[\w.\\-]/.test(c)) {
      while (i < source.length && /[\w.\\:-]/.test(source[i])) {
        i++;
      }
      push('word', start);
    } else {
      while (i < source.length && /[^\w\s$'"(){}[\]#@`]/.test(source[i])) {
        i++;
      }
      if (i === start) {
        i++;
      }
      push('operator', start);
    }
  }

  return tokens;
}

const tokens = tokenize(SCRIPT);
const code = tokens.filter((t) => t.kind !== 'comment' && t.kind !== 'string');

/** Cmdlets that only read (or shape data in memory); anything else needs a reason to be here. */
const READING_CMDLETS = new Set([
  'Get-Service', 'Get-CimInstance', 'Get-Process', 'Get-Content', 'Get-Item', 'Get-WinEvent', 'Test-Path', 'ConvertFrom-Json', 'ConvertTo-Json',
  'ForEach-Object', 'Where-Object', 'Sort-Object', 'New-Object', 'Invoke-WebRequest', 'Convert-ToUtc', 'Protect-Line', 'Get-ServiceFacts',
  'Read-Events', 'Get-Count',
]);

describe('the Windows host check (tokenizer)', () => {
  it('tokenizes completely: no unterminated string, comment or here-string', () => {
    expect(tokens.length).toBeGreaterThan(500);
    expect(() => tokenize('$a = "unterminated')).toThrow(TokenizeError);
    expect(() => tokenize("Write-Output 'it''s")).toThrow(TokenizeError);
    expect(() => tokenize('<# never closed')).toThrow(TokenizeError);
  });

  it('has balanced brackets, braces and parentheses', () => {
    const stack: Token[] = [];
    const pairs: Record<string, string> = {
      '(': ')', '@(': ')', '{': '}', '@{': '}', '[': ']'
    };

    for (const t of code) {
      if (t.kind === 'open') {
        stack.push(t);
      } else if (t.kind === 'close') {
        const open = stack.pop();

        expect(open && pairs[open.text]).toBe(t.text);
      }
    }
    expect(stack).toEqual([]);
  });

  it('calls only cmdlets and functions that read', () => {
    const defined = new Set(code.flatMap((t, i) => (t.text === 'function' ? [code[i + 1].text] : [])));
    const commands = new Set(code.filter((t) => t.kind === 'word' && /^[A-Z][a-z]+-[A-Z][A-Za-z]+$/.test(t.text)).map((t) => t.text));

    expect([...defined].sort()).toEqual(['Convert-ToUtc', 'Get-Count', 'Get-ServiceFacts', 'Protect-Line', 'Read-Events']);
    expect([...commands].filter((c) => !READING_CMDLETS.has(c))).toEqual([]);
    expect(SCRIPT).not.toMatch(/\b(Set|Remove|Stop|Start|Restart|Clear|Rename|Move|Copy)-[A-Z]|New-Item|Out-File|Invoke-Expression|\biex\b/);
    // The one request is a HEAD for the Date header.
    expect(SCRIPT.match(/Invoke-WebRequest[^\n]*/g)).toEqual([expect.stringContaining('-Method Head')]);
  });

  it('uses only syntax Windows PowerShell 5.1 has', () => {
    const operators = code.filter((t) => t.kind === 'operator').map((t) => t.text);

    for (const op of ['??', '?.', '&&', '||', '??=']) {
      expect(operators).not.toContain(op);
    }
    expect(SCRIPT).not.toMatch(/-AsHashtable|-AsByteStream|ForEach-Object -Parallel|\bclean\s*\{/);
  });

  it('writes the same report fields as the Linux script and knows the same signatures', () => {
    const linux = runHostCheck(HOSTS.healthy).json;
    const report = SCRIPT.slice(SCRIPT.indexOf('$report = [ordered]@{'));
    const keys = [...report.matchAll(/^ {2}(\w+) = /gm)].map((m) => m[1]);

    expect(keys).toEqual(Object.keys(linux));
    for (const [field, value] of Object.entries(linux)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        for (const key of Object.keys(value)) {
          expect(SCRIPT).toMatch(new RegExp(`\\b${ key } = `));
        }
      }
      expect(field).toBeTruthy();
    }
    const ids = [...SCRIPT.matchAll(/@\{ id = '([a-z-]+)'/g)].map((m) => m[1]);

    expect(ids.sort()).toEqual([...HOST_SIGNATURES].sort());
  });

  it('never reads the kubeconfig beyond its server line, nor the config\'s tokens', () => {
    expect(SCRIPT).not.toMatch(/\.token\b|agent-token|\$parsed\.kubeConfig\s*[^-]*\|\s*ConvertTo-Json/);
    expect(SCRIPT).toMatch(/\$ci\.server = \$Matches\[1\] \+ \$Matches\[2\]/);
  });
});
