/**
 * Durations and times as a reader is told them. The engine writes durations into findings as milliseconds; the
 * tab, the reports and the command line say them with the units of the chosen language (2d 4h, 2天4小时). Times
 * stay as Kubernetes wrote them in the engine and in evidence, and read as the timeline shows them in sentences.
 */
import { DURATION_ARGS, TIME_ARGS, durationParts } from '../engine';
import type { DurationPart, MessageArgs } from '../engine';
import type { Translate } from './translate';

export function sayDuration(parts: DurationPart[], t: Translate): string {
  const words = parts.map((p) => t(`nodeHealth.unit.${ p.unit }`, { n: p.value }));

  return words.length > 1 ? t('nodeHealth.unit.pair', { first: words[0], second: words[1] }) : words[0];
}

export function sayDurationMs(ms: number, t: Translate): string {
  return sayDuration(durationParts(ms), t);
}

/** RFC 3339 in UTC, as Kubernetes writes a time (fractions of a second are dropped when said). */
const RFC3339_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;

/** A time as the timeline shows it, "2026-06-02 07:40:00 UTC"; anything else is left as it is. */
export function sayTime(at: string): string {
  const m = RFC3339_UTC.exec(at);

  return m ? `${ m[1] } ${ m[2] } UTC` : at;
}

/** How a reader is told a time: UTC in the reports and the command line (sayTime), the user's format in the dashboard. */
export type SayTime = (at: string) => string;

/**
 * The arguments of a message, with the durations the engine wrote (DURATION_ARGS) said in the user's language
 * and its times (TIME_ARGS) as the timeline shows them.
 */
export function localizeArgs(args: MessageArgs | undefined, t: Translate, say: SayTime = sayTime): MessageArgs | undefined {
  let out = args;

  for (const key of DURATION_ARGS) {
    const ms = args?.[key];

    if (typeof ms === 'number') {
      out = { ...out, [key]: sayDurationMs(ms, t) };
    }
  }
  for (const key of TIME_ARGS) {
    const at = args?.[key];
    const said = typeof at === 'string' ? say(at) : at;

    if (said !== at) {
      out = { ...out, [key]: said as string };
    }
  }

  return out;
}

/** A translator that also says the durations and times in its messages' arguments as its reader is told them. */
export function withLocalArgs(t: Translate, say: SayTime = sayTime): Translate {
  return (key, args) => t(key, localizeArgs(args, t, say));
}
