/**
 * The report file (report/html) as the dashboard makes it, for the tab's export and the fleet page: the
 * extension's messages in both languages as the shell loads them, the language the user reads now, Rancher's
 * version. The diagnosis given is already sanitized (export/sanitizeDiagnosis), as in a bundle.
 */
import { getVersionInfo } from '@shell/utils/version';
import { createTranslator } from '../report/translate';
import type { Translate } from '../report/translate';
import { HTML_REPORT_LANGUAGES, renderHtmlReport } from '../report/html';
import type { HtmlReportLanguage, HtmlReportSource } from '../report/html';
import type { SanitizedDiagnosis } from '../export';
import extensionPackage from '../package.json';

/** The part of the dashboard store read here. */
export interface DashboardStore {
  state?: any;
  getters?: Record<string, any>;
}

/** Rancher's version, from the server-version setting; null when it cannot be told. */
export function rancherVersionOf(store: DashboardStore | undefined): string | null {
  try {
    const version = getVersionInfo(store).fullVersion;

    return version && version !== 'unknown' ? version : null;
  } catch {
    return null;
  }
}

/** The report file's language: the user's, where the file offers it, else English. */
export function reportLanguageOf(store: DashboardStore | undefined): HtmlReportLanguage {
  const locale = String(store?.getters?.['i18n/current']?.() ?? 'en-us');

  return (HTML_REPORT_LANGUAGES as readonly string[]).includes(locale) ? locale as HtmlReportLanguage : 'en-us';
}

/**
 * A translator per language of the report file, from the extension's messages as the shell loads them; the
 * language shown now at least, through the component's own translation.
 */
export async function htmlReportTranslators(
  store: DashboardStore | undefined, current: HtmlReportLanguage, tr: Translate
): Promise<Partial<Record<HtmlReportLanguage, Translate>>> {
  const state: any = store?.state;
  const messagesOf = async(lang: string): Promise<any> => {
    const loaded = state?.i18n?.translations?.[lang];

    if (loaded?.nodeHealth) {
      return loaded;
    }
    const loaders: (() => Promise<any>)[] = state?.$extension?.getDynamic?.('l10n', lang) ?? [];
    const modules = await Promise.all(loaders.map((load) => load().catch(() => null)));

    return modules.reduce((all, m) => Object.assign(all, m?.default ?? m ?? {}), {});
  };
  const english = await messagesOf('en-us').catch(() => ({}));
  const out: Partial<Record<HtmlReportLanguage, Translate>> = { [current]: tr };

  for (const lang of HTML_REPORT_LANGUAGES) {
    const messages = lang === current ? null : await messagesOf(lang).catch(() => null);

    if (messages?.nodeHealth) {
      out[lang] = createTranslator(messages, lang, lang === 'en-us' ? undefined : english);
    }
  }

  return out;
}

/** The report file of a sanitized diagnosis, made where `from` says, in the user's language and the other. */
export async function htmlReportFile(
  store: DashboardStore | undefined, sanitized: SanitizedDiagnosis, from: HtmlReportSource['from'], cluster: string | null, tr: Translate, rancherVersion = rancherVersionOf(store)
): Promise<string> {
  const lang = reportLanguageOf(store);

  return renderHtmlReport({
    report:      sanitized.report,
    lang,
    translators: await htmlReportTranslators(store, lang, tr),
    source:      {
      from,
      cluster,
      createdAt:        sanitized.report.now,
      rancherVersion,
      extensionVersion: extensionPackage.version ?? null,
      obfuscated:       sanitized.obfuscated,
      redactions:       { ...sanitized.redactions },
    },
  });
}
