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
import { withLocalArgs } from '../report/durations';
import type { MessageArgs } from '../engine';
import type { Translate } from '../report/translate';

/** The `t` the shell's i18n plugin gives every component: escaped unless `raw`. */
type ShellTranslate = (key: string, args?: Record<string, unknown>, raw?: boolean) => string;

/** The text of `key` with `args`, unescaped, its durations in the reader's language. */
export type ComponentTranslate = (key: string, args?: Record<string, unknown>) => string;

export interface Translator {
  tr: ComponentTranslate;
}

export function useTranslator(): Translator {
  const instance = getCurrentInstance();

  if (!instance?.proxy) {
    throw new Error('useTranslator() must be called from a component\'s setup()');
  }
  // Read at each call: the shell (and a test's mocks) may put `t` on the component after setup() ran.
  const proxy = instance.proxy as unknown as { t: ShellTranslate };
  const raw: Translate = (key, args) => proxy.t(key, args, true);
  const localized = withLocalArgs(raw);

  return {
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
