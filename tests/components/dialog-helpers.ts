// Shared by the dialog tests: a translator that records every key a dialog asked for (so the tests can
// check they all exist in en-us.yaml), and a store whose dispatch answers like the dashboard's.
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';

export const usedKeys = new Set<string>();

/** `%key%`, with the arguments appended when there are any, so a test sees both. */
export function translate(key: string, args?: Record<string, unknown>): string {
  usedKeys.add(key);

  return args && Object.keys(args).length ? `%${ key }% ${ JSON.stringify(args) }` : `%${ key }%`;
}

export function missingExtensionKeys(): string[] {
  const en = load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/en-us.yaml'), 'utf8'));
  const has = (key: string) => key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), en) !== undefined;

  return [...usedKeys].filter((key) => key.startsWith('nodeHealth.') && !has(key)).sort();
}

export type Answer = (payload: any) => unknown;

/** A store that answers management/request with `answer` and accepts everything else. */
export function dialogStore(answer: Answer) {
  const dispatch = jest.fn(async(type: string, payload?: any) => {
    if (type === 'management/request') {
      return answer(payload);
    }

    return undefined;
  });

  return {
    dispatch,
    commit:  jest.fn(),
    getters: {
      'i18n/t':      (key: string) => key,
      'i18n/exists': () => false,
    },
    requests: () => dispatch.mock.calls.filter(([type]) => type === 'management/request').map(([, payload]) => payload),
  };
}

/** The rejection the dashboard store produces for an HTTP error: the body with its status alongside. */
export function httpError(status: number, body: Record<string, unknown> = { message: 'refused' }): Record<string, unknown> {
  return Object.defineProperty({ ...body }, '_status', { value: status });
}

export function networkError(): Error {
  return Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK', isAxiosError: true });
}
