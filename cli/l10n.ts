import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { createTranslator, Translate } from '../pkg/node-health/report/translate';

const L10N_DIR = join(__dirname, '..', 'pkg', 'node-health', 'l10n');

export const LOCALES = ['en-us', 'zh-hans'];

export function loadMessages(locale: string): unknown {
  return load(readFileSync(join(L10N_DIR, `${ locale }.yaml`), 'utf8'));
}

/** The extension's own messages, so the command line reads like the tab in either language. */
export function cliTranslator(locale = 'en-us'): Translate {
  if (!LOCALES.includes(locale)) {
    throw new RangeError(`unknown language ${ locale } (use ${ LOCALES.join(' or ') })`);
  }

  return createTranslator(loadMessages(locale), locale, locale === 'en-us' ? undefined : loadMessages('en-us'));
}
