/**
 * A record's timeline reads its Events and jobs when its row is opened and again at each refresh while open,
 * one read at a time (components/RecordTimeline.vue).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { ref } from 'vue';
import { flushPromises, mount } from '@vue/test-utils';
import RecordTimeline from '@pkg/node-health/components/RecordTimeline.vue';
import type { NodeRecord } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';
import { ghostEtcd, GHOST_MACHINE } from '../../scenarios/catalog';
import { diagnoseScenario } from '../unit/engine/helpers';
import { providedContext } from './record-context';

const en = createTranslator(load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
const s = ghostEtcd();
const records = diagnoseScenario(s).records.filter((r) => r.objects.machine);
const ghost = records.find((r) => r.machineName === GHOST_MACHINE) as NodeRecord;
const other = records.find((r) => r.machineName !== GHOST_MACHINE) as NodeRecord;

/** A store whose requests wait until the test answers them. */
function heldStore() {
  const calls: { url: string; answer: () => void }[] = [];
  const store = {
    getters:  {},
    dispatch: (_type: string, payload: { url: string }) => new Promise((resolve) => {
      calls.push({ url: payload.url, answer: () => resolve({ data: [] }) });
    }),
  };

  return { store, calls };
}

/** What a record's Event reads filter on: its objects' uids, and its Node's name (the kubelet's Events). */
const uidsOf = (r: NodeRecord) => [...Object.values(r.objects).map((o: any) => o?.metadata?.uid), r.objects.node?.metadata?.name]
  .filter(Boolean) as string[];

/** Answers the record's requests, those it makes after an answer too, until it asks for nothing more. */
async function answerAll(calls: ReturnType<typeof heldStore>['calls'], r: NodeRecord) {
  for (;;) {
    const open = calls.filter((c) => uidsOf(r).some((uid) => c.url.includes(encodeURIComponent(uid)) || c.url.includes(uid)));

    calls.splice(0, calls.length, ...calls.filter((c) => !open.includes(c)));
    if (!open.length) {
      return;
    }
    open.forEach((c) => c.answer());
    await flushPromises();
  }
}

describe('the timeline of an open row', () => {
  it('reads once at a time: another row\'s read ending first does not let a refresh start a second read', async() => {
    expect(uidsOf(ghost).length).toBeGreaterThan(0);
    expect(uidsOf(other).length).toBeGreaterThan(0);
    const { store, calls } = heldStore();
    const loadedAt = ref(1000);
    const wrapper = mount(RecordTimeline, {
      props:  { record: ghost },
      global: {
        provide: providedContext(Date.parse(s.now), { loadedAt: () => loadedAt.value }),
        mocks:   { $store: store, t: (key: string, args?: Record<string, any>) => en(key, args) },
      },
    });
    const asked = (r: NodeRecord) => calls.filter((c) => uidsOf(r).some((uid) => c.url.includes(uid))).length;

    await flushPromises();
    expect(asked(ghost)).toBeGreaterThan(0);
    // Another row's record comes while the first read is still out; the first read ends before the second.
    await wrapper.setProps({ record: other });
    await flushPromises();
    const second = asked(other);

    expect(second).toBeGreaterThan(0);
    await answerAll(calls, ghost);
    // A refresh now: the second read is still out, so nothing more is asked for.
    loadedAt.value = 2000;
    await flushPromises();
    expect(asked(other)).toBe(second);
    expect(wrapper.find('[data-testid="node-health-timeline-loading"]').exists()).toBe(true);

    // Once it ends, the next refresh reads again.
    await answerAll(calls, other);
    expect(wrapper.find('[data-testid="node-health-timeline-loading"]').exists()).toBe(false);
    loadedAt.value = 3000;
    await flushPromises();
    expect(asked(other)).toBeGreaterThan(0);
  });
});
