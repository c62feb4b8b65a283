/**
 * The tab against the embedded Rancher API itself rather than the Steve stand-in: `management/request` goes over
 * HTTP to a running mock-rancher (in either of Steve's modes, as any of its users), answered as Rancher would,
 * rejected the way the shell rejects (the error body, its status out of sight).
 */
import { request as httpRequest } from 'http';
import { startMockRancher } from '../../mock-rancher/server';
import type { MockRancher } from '../../mock-rancher/server';
import type { Scenario } from '../../scenarios/types';
import type { MountedTab } from './tab-harness';
import type { FakeSteve } from './tab-steve';

/** Serves the scenario (and others beside it, on the same clock) as of the scenario's own time. */
export async function startEmbedded(scenario: Scenario, sqlCache: boolean, others: string[] = []): Promise<MockRancher> {
  return startMockRancher({
    scenarios: [scenario.name, ...others], logRequests: 'none', sqlCache, now: new Date(scenario.now)
  });
}

function send(mock: MockRancher, user: string, payload: { url: string, method?: string, data?: unknown }): Promise<any> {
  const url = /^https?:/.test(payload.url) ? payload.url : `${ mock.url }${ payload.url }`;
  const body = payload.data === undefined ? undefined : JSON.stringify(payload.data);

  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method:  payload.method ?? 'GET',
      headers: { 'x-mock-user': user, ...(body ? { 'content-type': 'application/json' } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];

      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const parsed = text ? JSON.parse(text) : {};

        if ((res.statusCode ?? 500) >= 400) {
          Object.defineProperty(parsed, '_status', { value: res.statusCode });
          reject(parsed);
        } else {
          resolve(parsed);
        }
      });
    });

    req.on('error', reject);
    req.end(body);
  });
}

/** A Steve for mountTab's `steve` option, backed by the running embedded API. */
export function embeddedSteve(mock: MockRancher, user = 'admin'): FakeSteve {
  const urls: string[] = [];
  const reviews: Record<string, string>[] = [];
  const responses: { url: string; body: unknown }[] = [];
  const actions: { type: string; payload: any }[] = [];

  return {
    urls,
    reviews,
    responses,
    actions,
    local:      [],
    downstream: {},
    options:    { sqlCache: mock.cacheMode === 'sql' },
    async dispatch(type: string, payload?: any) {
      if (type !== 'management/request') {
        actions.push({ type, payload });

        return undefined;
      }
      if (String(payload.url).includes('selfsubjectaccessreviews')) {
        reviews.push(payload.data?.spec?.resourceAttributes ?? {});
      } else {
        actions.push({ type, payload });
        urls.push(payload.url);
      }
      const body = await send(mock, user, payload);

      responses.push({ url: payload.url, body });

      return body;
    },
  };
}

/** Lets a load over HTTP finish: answers arrive on the network's time, not on microtasks. */
export async function loaded(tab: MountedTab): Promise<void> {
  for (let i = 0; i < 400; i++) {
    await tab.settle();
    const vm = tab.wrapper.vm as any;

    if (!vm.refreshing && (vm.phase === 'ready' || vm.phase === 'error' || vm.phase === 'unregistered')) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the tab did not finish loading from the embedded API');
}
