/**
 * The one translator of the extension's components. The shell's `t(key, args)` returns HTML-escaped text, and
 * Vue escapes `{{ }}` and bound attributes again: "machine's" would show as "machine&#39;s". Here the shell's
 * translation is taken raw, so the text is escaped once, by Vue, where it is shown; and the durations the engine
 * writes (milliseconds) are said in the reader's language, its times as the timeline shows them. A message the
 * shell cannot format (an argument it names is missing) throws there; here it reads as its key and the console says
 * why, rather than leave a page blank.
 *
 *   setup() { return useTranslator(); }      then   {{ tr('nodeHealth.…', args) }}   or   this.tr(…)
 */
import { getCurrentInstance } from 'vue';
import { dateTimeFormat } from '@shell/utils/time';
import { DATE_FORMAT, TIME_FORMAT } from '@shell/store/prefs';
import { sayTime, withLocalArgs } from '../report/durations';
import type { SayTime } from '../report/durations';
import type { MessageArgs } from '../engine';
import type { Translate } from '../report/translate';

/** The `t` the shell's i18n plugin gives every component: escaped unless `raw`. */
type ShellTranslate = (key: string, args?: Record<string, unknown>, raw?: boolean) => string;

/** The text of `key` with `args`, unescaped, its durations in the reader's language. */
export type ComponentTranslate = (key: string, args?: Record<string, unknown>) => string;

export interface Translator {
  tr: ComponentTranslate;
  /** A time (RFC 3339) as the dashboard shows times: the user's date and time formats, in the browser's zone */
  sayAt: SayTime;
}

/**
 * The dashboard's own way with a time (shell utils/time dateTimeFormat: the user's DATE_FORMAT and TIME_FORMAT
 * preferences); where there is no store with preferences (a test, a page outside the dashboard), as the reports say it.
 */
function dashboardTime(store: any, at: string): string {
  const pref = store?.getters?.['prefs/get'];

  if (typeof pref !== 'function' || typeof pref(DATE_FORMAT) !== 'string' || typeof pref(TIME_FORMAT) !== 'string' || Number.isNaN(Date.parse(at))) {
    return sayTime(at);
  }
  try {
    return dateTimeFormat(at, store) || sayTime(at);
  } catch {
    return sayTime(at);
  }
}

export function useTranslator(): Translator {
  const instance = getCurrentInstance();

  if (!instance?.proxy) {
    throw new Error('useTranslator() must be called from a component\'s setup()');
  }
  // Read at each call: the shell (and a test's mocks) may put `t` on the component after setup() ran.
  const proxy = instance.proxy as unknown as { t: ShellTranslate; $store?: unknown };
  const raw: Translate = (key, args) => proxy.t(key, args, true);
  // The store too is read at each call, as `t` is.
  const sayAt: SayTime = (at) => dashboardTime(proxy.$store, at);
  const localized = withLocalArgs(raw, sayAt);

  return {
    sayAt,
    tr: (key, args) => {
      try {
        return localized(key, args as MessageArgs | undefined);
      } catch (e) {
        console.error(`Node Health: ${ key } cannot be translated`, e); // eslint-disable-line no-console

        return key;
      }
    }
  };
}
