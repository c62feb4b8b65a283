/**
 * Durations in the user's language. The engine writes them compactly (2d 4h), as the command line prints
 * them; the tab says them with the units of the language the user chose (2天4小时).
 */
import { durationParts, parseDuration } from '../engine';
import type { DurationPart, MessageArgs } from '../engine';
import type { Translate } from './rows';

export function sayDuration(parts: DurationPart[], t: Translate): string {
  const words = parts.map((p) => t(`nodeHealth.unit.${ p.unit }`, { n: p.value }));

  return words.length > 1 ? t('nodeHealth.unit.pair', { first: words[0], second: words[1] }) : words[0];
}

export function sayDurationMs(ms: number, t: Translate): string {
  return sayDuration(durationParts(ms), t);
}

/** The arguments of a message, with a `duration` the engine wrote said in the user's language. */
export function localizeDurations(args: MessageArgs | undefined, t: Translate): MessageArgs | undefined {
  const text = args?.duration;
  const parts = typeof text === 'string' ? parseDuration(text) : null;

  return parts ? { ...args, duration: sayDuration(parts, t) } : args;
}
