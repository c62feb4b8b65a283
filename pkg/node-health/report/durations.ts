/**
 * Durations in the reader's language. The engine writes them into findings as milliseconds; the tab, the
 * reports and the command line say them with the units of the chosen language (2d 4h, 2天4小时).
 */
import { DURATION_ARGS, durationParts } from '../engine';
import type { DurationPart, MessageArgs } from '../engine';
import type { Translate } from './translate';

export function sayDuration(parts: DurationPart[], t: Translate): string {
  const words = parts.map((p) => t(`nodeHealth.unit.${ p.unit }`, { n: p.value }));

  return words.length > 1 ? t('nodeHealth.unit.pair', { first: words[0], second: words[1] }) : words[0];
}

export function sayDurationMs(ms: number, t: Translate): string {
  return sayDuration(durationParts(ms), t);
}

/** The arguments of a message, with the durations the engine wrote (DURATION_ARGS) said in the user's language. */
export function localizeDurations(args: MessageArgs | undefined, t: Translate): MessageArgs | undefined {
  let out = args;

  for (const key of DURATION_ARGS) {
    const ms = args?.[key];

    if (typeof ms === 'number') {
      out = { ...out, [key]: sayDurationMs(ms, t) };
    }
  }

  return out;
}

/** A translator that also says the durations in its messages' arguments in its own language. */
export function withLocalDurations(t: Translate): Translate {
  return (key, args) => t(key, localizeDurations(args, t));
}
