/**
 * Quoting for the two shells a command is pasted into: the registration command and the fix steps' commands.
 * Every value that comes from a user or from the cluster goes through one of these, validated or not, so no
 * value can end its argument. It lives in the engine because the rules build commands too.
 *
 * Control characters are not left in the text: a pasted Ctrl-U, DEL or ESC is acted on by the terminal or
 * the line editor before the shell parses anything (DEL can erase the opening quote), so they are spelled
 * out with an expression that produces the same character when the shell evaluates it.
 */

/** Characters a terminal or line editor may act on. Newline is safe inside POSIX single quotes. */
const POSIX_SPELLED_OUT = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/; // eslint-disable-line no-control-regex
const POWERSHELL_SPELLED_OUT = /[\x00-\x1f\x7f-\x9f]/; // eslint-disable-line no-control-regex

/**
 * PowerShell ends a single-quoted string at any of these, not only at the ASCII apostrophe; inside the
 * string, two of them in a row stand for the second one.
 */
const POWERSHELL_SINGLE_QUOTES = /['\u2018\u2019\u201A\u201B]/g;

function utf8Octal(char: string): string {
  const codePoint = char.codePointAt(0) ?? 0;
  const bytes = codePoint < 0x80 ? [codePoint] : [0xC0 | (codePoint >> 6), 0x80 | (codePoint & 0x3F)];

  return bytes.map((b) => `\\${ b.toString(8).padStart(3, '0') }`).join('');
}

/**
 * One POSIX shell word that the shell turns back into exactly `value`.
 * Single quotes keep everything literal; a `'` inside becomes `'\''`.
 * Throws for NUL, which no command-line argument can carry.
 */
export function quotePosix(value: string): string {
  if (value.includes('\0')) {
    throw new RangeError('a NUL character cannot be part of a command-line argument');
  }
  if (!POSIX_SPELLED_OUT.test(value)) {
    return `'${ value.replace(/'/g, `'\\''`) }'`;
  }

  let word = '';
  let literal = '';
  let spelled = '';
  const flushLiteral = () => {
    if (literal) {
      word += `'${ literal.replace(/'/g, `'\\''`) }'`;
      literal = '';
    }
  };
  const flushSpelled = () => {
    if (spelled) {
      // printf's format is built here from octal escapes only, never from the value's own text.
      word += `"$(printf '${ spelled }')"`;
      spelled = '';
    }
  };

  for (const char of value) {
    if (POSIX_SPELLED_OUT.test(char)) {
      flushLiteral();
      spelled += utf8Octal(char);
    } else {
      flushSpelled();
      literal += char;
    }
  }
  flushLiteral();
  flushSpelled();

  return word;
}

function powerShellLiteral(text: string): string {
  return `'${ text.replace(POWERSHELL_SINGLE_QUOTES, (quote) => quote + quote) }'`;
}

/**
 * One PowerShell argument (or expression) that evaluates to exactly `value`: a single-quoted string in
 * which every single-quote character, ASCII or typographic, is doubled. Values with control characters
 * become `(''+[char]10+'...')`; the leading '' makes `+` concatenate strings rather than add numbers.
 */
export function quotePowerShell(value: string): string {
  if (!POWERSHELL_SPELLED_OUT.test(value)) {
    return powerShellLiteral(value);
  }

  const parts: string[] = [`''`];
  let literal = '';

  for (const char of value) {
    if (POWERSHELL_SPELLED_OUT.test(char)) {
      if (literal) {
        parts.push(powerShellLiteral(literal));
        literal = '';
      }
      parts.push(`[char]${ char.charCodeAt(0) }`);
    } else {
      literal += char;
    }
  }
  if (literal) {
    parts.push(powerShellLiteral(literal));
  }

  return `(${ parts.join('+') })`;
}

/** Whether a value has characters the validators reject (control characters, including newlines). */
export function hasControlCharacter(value: string): boolean {
  return POWERSHELL_SPELLED_OUT.test(value);
}
