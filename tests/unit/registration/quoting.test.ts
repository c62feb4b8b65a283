import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { buildRegistrationCommand, quotePosix, quotePowerShell } from '@pkg/node-health/registration';
import type { EnvVar, NodeRole, RegistrationOptions, RegistrationToken } from '@pkg/node-health/registration';

// Values are deliberately NOT validated here: the builder must keep any value one literal argument.

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;

  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;

    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);

    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE = [
  '\'', '"', '$', '$(id)', '$' + '{HOME}', '`', '`id`', ';', '|', '&', '&&', '||', '\n', '\r', '\t', '\\', ' ', '*', '?', '~', '#',
  '!', '{', '}', '(', ')', '[', ']', '<', '>', '%', '@', ',', '=', ':', '-', '--', '-Worker', '--%', '\'\'', '\'\\\'\'',
  '\u2018', '\u2019', '\u201A', '\u201B', '\u201C', '\u201D', '\u201E', '\u2013', '\u2014', '\u00A0', '\u2028',
  '\u001B[2J', '\u0015', '\u007F', '\u0003', '\u0004', '\u0085', '\u009B', '$env:PATH', '@(1)', '`n', '`0', '$(reboot)',
  'a', 'Z', '0', 'é', '中', '😀', 'x', 'node', '.', '/',
];

function hostileValue(random: () => number, options: { nul?: boolean } = {}): string {
  const pieces = Math.floor(random() * 12);
  let out = '';

  for (let i = 0; i < pieces; i++) {
    out += random() < 0.03 && options.nul ? '\u0000' : HOSTILE[Math.floor(random() * HOSTILE.length)];
  }

  return out;
}

// ---------------------------------------------------------------------------------------------------------
// POSIX: let real shells evaluate the quoted words and compare the bytes they produce.

const SHELLS = ['sh', 'bash'].filter((shell) => {
  try {
    execFileSync(shell, ['-c', 'true']);

    return true;
  } catch {
    return false;
  }
});

function splitNul(output: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;

  for (let i = 0; i < output.length; i++) {
    if (output[i] === 0) {
      parts.push(output.subarray(start, i));
      start = i + 1;
    }
  }

  return parts;
}

function runScript(shell: string, script: string, env: Record<string, string> = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'nh-quote-'));

  try {
    writeFileSync(join(dir, 'script.sh'), script);

    return execFileSync(shell, [join(dir, 'script.sh')], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, maxBuffer: 64 * 1024 * 1024 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The words a POSIX shell makes of what the builder emits: single-quoted text, `\'`, the
 * `"$(printf '\ooo')"` spelling of control characters, and plain characters from a small alphabet.
 * Checked against real shells below on a sample; used alone on thousands of cases.
 */
const POSIX_PLAIN = /^[A-Za-z0-9_./=:-]$/;

function posixWords(command: string): string[] {
  const words: string[] = [];
  let i = 0;

  while (i < command.length) {
    if (command[i] === ' ') {
      i++;
      continue;
    }
    if (command[i] === '|') {
      words.push('|');
      i++;
      continue;
    }
    const bytes: number[] = [];

    while (i < command.length && command[i] !== ' ') {
      const rest = command.slice(i);
      const printf = /^"\$\(printf '((?:\\[0-7]{3})+)'\)"/.exec(rest);

      if (command[i] === '\'') {
        const end = command.indexOf('\'', i + 1);

        if (end < 0) {
          throw new Error(`unterminated quote at ${ i }`);
        }
        bytes.push(...Buffer.from(command.slice(i + 1, end), 'utf8'));
        i = end + 1;
      } else if (rest.startsWith('\\\'')) {
        bytes.push(...Buffer.from('\''));
        i += 2;
      } else if (printf) {
        bytes.push(...printf[1].split('\\').slice(1).map((octal) => parseInt(octal, 8)));
        i += printf[0].length;
      } else if (POSIX_PLAIN.test(command[i])) {
        bytes.push(...Buffer.from(command[i++], 'utf8'));
      } else {
        throw new Error(`unquoted ${ JSON.stringify(command[i]) } outside quotes at ${ i }`);
      }
    }
    words.push(Buffer.from(bytes).toString('utf8'));
  }

  return words;
}

describe('quotePosix', () => {
  it.each([
    ['', `''`],
    ['plain', `'plain'`],
    ['it\'s', `'it'\\''s'`],
    ['$(id) `id` ; | &', `'$(id) \`id\` ; | &'`],
    ['line\nbreak', `'line\nbreak'`],
    ['a\u0015b', `'a'"$(printf '\\025')"'b'`],
    ['\u007f\u001b', `"$(printf '\\177\\033')"`],
    ['x\u009b', `'x'"$(printf '\\302\\233')"`],
  ])('quotes %j as %s', (value, quoted) => {
    expect(quotePosix(value)).toBe(quoted);
  });

  it('refuses NUL, which no argument can carry', () => {
    expect(() => quotePosix('a\u0000b')).toThrow(RangeError);
  });

  it('never leaves a control character other than newline in the text (a pasted DEL or Ctrl-U acts before the shell parses)', () => {
    const random = mulberry32(7);

    for (let i = 0; i < 3000; i++) {
      // eslint-disable-next-line no-control-regex
      expect(quotePosix(hostileValue(random))).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/);
    }
  });

  it('reads back each of 3000 hostile values through the shell-word model', () => {
    const random = mulberry32(31337);

    for (let i = 0; i < 3000; i++) {
      const value = hostileValue(random);

      expect(posixWords(quotePosix(value))).toStrictEqual([value]);
    }
  });

  it('the model itself catches a value that escapes its quotes', () => {
    expect(() => posixWords(`--node-name 'x'$(reboot)`)).toThrow('outside quotes');
    expect(() => posixWords(`--node-name 'x';reboot`)).toThrow('outside quotes');
    expect(() => posixWords(`--node-name 'x`)).toThrow('unterminated');
  });

  it.each(SHELLS)('round-trips a sample of 200 hostile values byte for byte through %s', (shell) => {
    const random = mulberry32(20240601);
    const values = Array.from({ length: 200 }, () => hostileValue(random));
    const output = runScript(shell, `printf '%s\\0' ${ values.map(quotePosix).join(' ') }\n`);

    expect(splitNul(output)).toStrictEqual(values.map((v) => Buffer.from(v, 'utf8')));
    // the model agrees with the shell
    expect(values.map((v) => posixWords(quotePosix(v))[0])).toStrictEqual(values);
  });
});

// ---------------------------------------------------------------------------------------------------------
// PowerShell: no pwsh here, so a tokenizer that follows PowerShell's rules for what the builder emits:
// single-quoted strings end at any of ' ‘ ’ ‚ ‛ and a doubled one stands for itself; `(''+[char]N+'…')`
// concatenates. Everything outside quotes must be a plain word from a small alphabet.

const PS_SINGLE_QUOTES = ['\'', '\u2018', '\u2019', '\u201A', '\u201B'];
const PS_PLAIN_WORD = /^[A-Za-z0-9._/:-]+$/;

type PsToken = { kind: 'word', text: string } | { kind: 'value', text: string } | { kind: 'assign', name: string } | { kind: 'end' };

function psString(source: string, at: number): { text: string, next: number } {
  let text = '';
  let i = at + 1;

  while (i < source.length) {
    if (PS_SINGLE_QUOTES.includes(source[i])) {
      if (PS_SINGLE_QUOTES.includes(source[i + 1] ?? '')) {
        text += source[i + 1];
        i += 2;
        continue;
      }

      return { text, next: i + 1 };
    }
    text += source[i++];
  }
  throw new Error(`unterminated string at ${ at }`);
}

function psExpression(source: string, at: number): { text: string, next: number } {
  let text = '';
  let i = at + 1;
  let expectOperand = true;

  while (i < source.length) {
    if (expectOperand && PS_SINGLE_QUOTES.includes(source[i])) {
      const str = psString(source, i);

      text += str.text;
      i = str.next;
    } else if (expectOperand && source.startsWith('[char]', i)) {
      const digits = /^[0-9]+/.exec(source.slice(i + 6));

      if (!digits) {
        throw new Error(`bad [char] at ${ i }`);
      }
      text += String.fromCharCode(Number(digits[0]));
      i += 6 + digits[0].length;
    } else if (!expectOperand && source[i] === '+') {
      i++;
      expectOperand = true;
      continue;
    } else if (!expectOperand && source[i] === ')') {
      return { text, next: i + 1 };
    } else {
      throw new Error(`unexpected ${ JSON.stringify(source[i]) } in expression at ${ i }`);
    }
    expectOperand = false;
  }
  throw new Error(`unterminated expression at ${ at }`);
}

function psTokenize(source: string): PsToken[] {
  const tokens: PsToken[] = [];
  let i = 0;

  while (i < source.length) {
    const c = source[i];

    if (c === ' ') {
      i++;
      continue;
    }
    if (c === ';') {
      tokens.push({ kind: 'end' });
      i++;
    } else if (PS_SINGLE_QUOTES.includes(c)) {
      const str = psString(source, i);

      tokens.push({ kind: 'value', text: str.text });
      i = str.next;
    } else if (c === '(') {
      const expr = psExpression(source, i);

      tokens.push({ kind: 'value', text: expr.text });
      i = expr.next;
    } else {
      const assign = /^\$env:([A-Za-z_][A-Za-z0-9_]*)=/.exec(source.slice(i));

      if (assign) {
        tokens.push({ kind: 'assign', name: assign[1] });
        i += assign[0].length;
        if (!PS_SINGLE_QUOTES.includes(source[i]) && source[i] !== '(') {
          throw new Error(`assignment without a quoted value at ${ i }`);
        }
        continue;
      }
      let word = '';

      while (i < source.length && source[i] !== ' ' && source[i] !== ';') {
        word += source[i++];
      }
      if (!PS_PLAIN_WORD.test(word)) {
        throw new Error(`unquoted ${ JSON.stringify(word) } outside quotes`);
      }
      tokens.push({ kind: 'word', text: word });
    }
    // a value must stand alone: in `'a'b` the b would be glued to it outside the quotes
    if (tokens[tokens.length - 1]?.kind === 'value' && i < source.length && source[i] !== ' ' && source[i] !== ';') {
      throw new Error(`text glued to a quoted value at ${ i }`);
    }
  }

  return tokens;
}

/** The statements of a command as lists of strings: plain words as they are, values decoded. */
function psStatements(command: string): { env: EnvVar[], statements: string[][] } {
  const env: EnvVar[] = [];
  const statements: string[][] = [[]];
  const tokens = psTokenize(command);

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];

    if (token.kind === 'assign') {
      const value = tokens[i + 1];

      if (value?.kind !== 'value' || tokens[i + 2]?.kind !== 'end' || statements[statements.length - 1].length) {
        throw new Error('an assignment must be a statement of its own');
      }
      env.push({ name: token.name, value: value.text });
      i += 2;
    } else if (token.kind === 'end') {
      statements.push([]);
    } else {
      statements[statements.length - 1].push(token.text);
    }
  }

  return { env, statements: statements.filter((s) => s.length) };
}

describe('quotePowerShell', () => {
  it.each([
    ['', `''`],
    ['plain', `'plain'`],
    ['it\'s', `'it''s'`],
    ['o\u2019brien \u2018x\u201A\u201B', `'o\u2019\u2019brien \u2018\u2018x\u201A\u201A\u201B\u201B'`],
    ['$env:PATH `n "x"', `'$env:PATH \`n "x"'`],
    ['a\nb', `(''+'a'+[char]10+'b')`],
    ['\u0000', `(''+[char]0)`],
  ])('quotes %j as %s', (value, quoted) => {
    expect(quotePowerShell(value)).toBe(quoted);
  });

  it('decodes back to each of 3000 hostile values, with nothing outside the quotes', () => {
    const random = mulberry32(99);

    for (let i = 0; i < 3000; i++) {
      const value = hostileValue(random, { nul: true });
      const tokens = psTokenize(quotePowerShell(value));

      expect(tokens).toStrictEqual([{ kind: 'value', text: value }]);
    }
  });

  it('the checker itself catches a value that escapes its quotes', () => {
    expect(() => psTokenize(`-NodeName 'x'reboot`)).toThrow('text glued');
    expect(() => psTokenize(`-NodeName 'o’brien'`)).toThrow('text glued');
    expect(() => psTokenize(`-NodeName $(reboot)`)).toThrow('outside quotes');
    expect(() => psTokenize(`-NodeName 'x' \`reboot`)).toThrow('outside quotes');
    // a breakout made only of plain words still shows up as an extra statement
    expect(psStatements(`./install.ps1 -NodeName 'x'; reboot; ''`).statements).toStrictEqual([['./install.ps1', '-NodeName', 'x'], ['reboot'], ['']]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Whole commands built from hostile tokens and options.

function hostileCase(random: () => number, os: 'linux' | 'windows'): { token: RegistrationToken, options: RegistrationOptions } {
  const maybe = () => (random() < 0.6 ? hostileValue(random) || 'v' : undefined);
  const list = () => Array.from({ length: Math.floor(random() * 3) }, () => hostileValue(random) || 'v');
  const roles = (['etcd', 'controlplane', 'worker'] as NodeRole[]).filter(() => random() < 0.5);
  const ca = random() < 0.7 ? hostileValue(random) || 'c' : undefined;
  const token: RegistrationToken = {
    serverUrl:         `https://rancher.example.com${ hostileValue(random) }`.replace(/\/+$/, ''),
    token:             hostileValue(random) || 't',
    agentEnv:          random() < 0.5 ? [{ name: 'CATTLE_AGENT_LOGLEVEL', value: hostileValue(random) }] : [],
    insecureAvailable: true,
    windowsAvailable:  true,
  };

  if (ca) {
    token.caChecksum = ca;
  }

  return {
    token,
    options: {
      os,
      roles,
      nodeName:        maybe(),
      address:         maybe(),
      internalAddress: maybe(),
      labels:          list(),
      taints:          list(),
      insecure:        random() < 0.5,
      httpProxy:       maybe(),
      httpsProxy:      maybe(),
      noProxy:         maybe(),
    },
  };
}

function expectedEnv(token: RegistrationToken, options: RegistrationOptions): EnvVar[] {
  const env = [...token.agentEnv];

  if (options.httpProxy) {
    env.push({ name: 'HTTP_PROXY', value: options.httpProxy });
  }
  if (options.httpsProxy) {
    env.push({ name: 'HTTPS_PROXY', value: options.httpsProxy });
  }
  if (options.noProxy) {
    env.push({ name: 'NO_PROXY', value: options.noProxy });
  }

  return env;
}

function expectedLinux(token: RegistrationToken, options: RegistrationOptions): { curl: string[], sudo: string[] } {
  const env = expectedEnv(token, options).map((e) => `${ e.name }=${ e.value }`);
  const nodeName = options.nodeName?.toLowerCase();

  return {
    curl: [...env, 'curl', ...(options.insecure ? ['--insecure'] : []), '-fL', `${ token.serverUrl }/system-agent-install.sh`],
    sudo: [
      'sudo', ...env, 'sh', '-s', '-',
      '--server', token.serverUrl, '--label', 'cattle.io/os=linux', '--token', token.token,
      ...(token.caChecksum ? ['--ca-checksum', token.caChecksum] : []),
      ...(['etcd', 'controlplane', 'worker'] as NodeRole[]).filter((r) => options.roles.includes(r)).map((r) => `--${ r }`),
      ...(options.address ? ['--address', options.address] : []),
      ...(options.internalAddress ? ['--internal-address', options.internalAddress] : []),
      ...(nodeName ? ['--node-name', nodeName] : []),
      ...options.labels.flatMap((l) => ['--label', l]),
      ...options.taints.flatMap((t) => ['--taints', t]),
    ],
  };
}

describe('Linux commands', () => {
  it('keep every value of 2000 hostile cases one literal word, with nothing unquoted but the command’s own words', () => {
    const random = mulberry32(4243);

    for (let n = 0; n < 2000; n++) {
      const { token, options } = hostileCase(random, 'linux');
      const built = buildRegistrationCommand(token, options);
      const expected = expectedLinux(token, options);

      expect(posixWords(built.command)).toStrictEqual([...expected.curl, '|', ...expected.sudo]);
      if (n % 10 === 0) {
        expect(posixWords(built.maskedCommand)).toHaveLength(expected.curl.length + 1 + expected.sudo.length);
      }
    }
  });

  const ENV_NAMES = ['CATTLE_AGENT_LOGLEVEL', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];
  // curl and sudo replaced by functions that record exactly the arguments and environment they get
  const PRELUDE = [
    `curl() { { ${ ENV_NAMES.map((n) => `printf '%s=%s\\0' ${ n } "\${${ n }-}"; `).join('') }printf '%s\\0' "$@"; } > "$OUT.curl"; }`,
    `sudo() { printf '%s\\0' "$@" > "$OUT.sudo"; }`,
  ].join('\n');

  it.each(SHELLS.map((shell) => [shell, shell === 'sh' ? 30 : 15]))('run by %s: a sample of %d hostile cases gives curl and sudo exactly the expected arguments', (shell, count) => {
    const random = mulberry32(4242);
    const cases = Array.from({ length: count as number }, () => hostileCase(random, 'linux'))
      .map((c) => ({ ...c, command: buildRegistrationCommand(c.token, c.options).command }));
    const dir = mkdtempSync(join(tmpdir(), 'nh-cmd-'));

    try {
      runScript(shell as string, `${ PRELUDE }\n${ cases.map((c, i) => `OUT=${ quotePosix(join(dir, String(i))) }\n${ c.command }`).join('\n') }\n`);
      cases.forEach(({ token, options }, i) => {
        const env = expectedEnv(token, options);
        const expected = expectedLinux(token, options);
        const envSeen = ENV_NAMES.map((n) => `${ n }=${ env.find((e) => e.name === n)?.value ?? '' }`);
        const curlArgs = [...envSeen, ...expected.curl.slice(expected.curl.indexOf('curl') + 1)];

        expect(splitNul(readFileSync(join(dir, `${ i }.sudo`)))).toStrictEqual(expected.sudo.slice(1).map((a) => Buffer.from(a, 'utf8')));
        expect(splitNul(readFileSync(join(dir, `${ i }.curl`)))).toStrictEqual(curlArgs.map((a) => Buffer.from(a, 'utf8')));
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Windows commands read by PowerShell’s quoting rules', () => {
  it('keeps every value of 2000 hostile cases one literal argument, with nothing unquoted but the command’s own words', () => {
    const random = mulberry32(777);

    for (let n = 0; n < 2000; n++) {
      const { token, options } = hostileCase(random, 'windows');
      const built = buildRegistrationCommand(token, options);
      const nodeName = options.nodeName?.toLowerCase();
      const env = [...expectedEnv(token, options), ...(nodeName ? [{ name: 'CATTLE_NODE_NAME', value: nodeName }] : [])];

      for (const command of n % 10 === 0 ? [built.command, built.maskedCommand] : [built.command]) {
        const parsed = psStatements(command);
        const masked = command === built.maskedCommand;

        if (!masked) {
          expect(parsed.env).toStrictEqual(env);
        }
        expect(parsed.statements).toStrictEqual([
          ['curl.exe', ...(options.insecure ? ['--insecure'] : []), '-fL', `${ token.serverUrl }/wins-agent-install.ps1`, '-o', 'install.ps1'],
          ['Set-ExecutionPolicy', 'Bypass', '-Scope', 'Process', '-Force'],
          [
            './install.ps1', '-Server', token.serverUrl, '-Label', ['cattle.io/os=windows', ...options.labels].join(','),
            '-Token', masked ? '••••••••' : token.token, '-Worker',
            ...(token.caChecksum ? ['-CaChecksum', token.caChecksum] : []),
            ...(options.address ? ['-Address', options.address] : []),
            ...(options.internalAddress ? ['-InternalAddress', options.internalAddress] : []),
            ...(nodeName ? ['-NodeName', nodeName] : []),
            ...(options.taints.length ? ['-Taint', options.taints.join(',')] : []),
          ],
        ]);
      }
    }
  });
});
