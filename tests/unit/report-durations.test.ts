import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { durationParts, formatDuration, parseDuration } from '../../pkg/node-health/engine';
import { localizeDurations, sayDurationMs } from '../../pkg/node-health/report/durations';
import { createTranslator } from '../../pkg/node-health/report/translate';
import type { Translate } from '../../pkg/node-health/report/translate';

/** The extension's own messages in one language, formatted as the shell's translator formats them. */
function translator(locale: 'en-us' | 'zh-hans'): Translate {
  return createTranslator(load(readFileSync(join(__dirname, `../../pkg/node-health/l10n/${ locale }.yaml`), 'utf8')), locale);
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('durations', () => {
  it('keep the one or two largest units, as the command line prints them', () => {
    expect(formatDuration(2 * DAY + 4 * HOUR + 5 * MIN)).toBe('2d 4h');
    expect(formatDuration(3 * HOUR + 58 * MIN)).toBe('3h 58m');
    expect(formatDuration(40 * MIN + 30_000)).toBe('40m');
    expect(formatDuration(12_999)).toBe('12s');
    expect(formatDuration(-1)).toBe('0s');
    expect(durationParts(DAY)).toEqual([{ value: 1, unit: 'd' }]);
  });

  it('read back only what formatDuration writes', () => {
    for (const ms of [0, 59_000, 5 * MIN, 3 * HOUR + MIN, 400 * DAY + 23 * HOUR]) {
      expect(parseDuration(formatDuration(ms))).toEqual(durationParts(ms));
    }
    for (const text of ['', '?', '5', '2h 3d', '1d 2h 3m', 'node-5m', '5m ', '3 h']) {
      expect(parseDuration(text)).toBeNull();
    }
  });

  it('are said in the language the user chose', () => {
    const en = translator('en-us');
    const zh = translator('zh-hans');

    expect(sayDurationMs(2 * DAY + 4 * HOUR, en)).toBe('2d 4h');
    expect(sayDurationMs(2 * DAY + 4 * HOUR, zh)).toBe('2天4小时');
    expect(sayDurationMs(3 * HOUR + 58 * MIN, zh)).toBe('3小时58分钟');
    expect(sayDurationMs(0, zh)).toBe('0秒');
    expect(zh('nodeHealth.tab.header.updated', { ago: sayDurationMs(12_000, zh) })).toBe('12秒前更新');
  });

  it('replace only the duration argument of an engine message, and only when it is one', () => {
    const zh = translator('zh-hans');

    expect(localizeDurations({ duration: '2h 5m', since: '2024-05-02T10:00:00Z' }, zh)).toEqual({ duration: '2小时5分钟', since: '2024-05-02T10:00:00Z' });
    // A machine could be called "5m"; only the argument the engine fills with a duration is read as one.
    expect(localizeDurations({ machine: '5m' }, zh)).toEqual({ machine: '5m' });
    expect(localizeDurations({ duration: '?' }, zh)).toEqual({ duration: '?' });
    expect(localizeDurations(undefined, zh)).toBeUndefined();
  });
});
