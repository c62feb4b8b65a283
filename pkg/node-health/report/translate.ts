/**
 * Translation outside the dashboard (command line, exports, tests), with the same message syntax and key
 * lookup as the shell's i18n store, so the same l10n files read the same everywhere.
 */
import IntlMessageFormat from 'intl-messageformat';
import type { Translate } from '../engine';

export type { Translate };

function lookup(messages: unknown, key: string): unknown {
  let node: any = messages;

  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') {
      return undefined;
    }
    node = node[part];
  }

  return node;
}

/** A translator over one locale's messages, falling back to another locale's, then to the key itself. */
export function createTranslator(messages: unknown, locale = 'en-us', fallback?: unknown): Translate {
  const cache = new Map<string, IntlMessageFormat | string>();

  return (key, args) => {
    let formatter = cache.get(key);

    if (formatter === undefined) {
      let msg = lookup(messages, key);

      if (typeof msg !== 'string' && fallback) {
        msg = lookup(fallback, key);
      }
      if (typeof msg !== 'string') {
        return key;
      }
      formatter = msg.includes('{') ? new IntlMessageFormat(msg, locale) : msg;
      cache.set(key, formatter);
    }

    return typeof formatter === 'string' ? formatter : String(formatter.format(args ?? {}));
  };
}
