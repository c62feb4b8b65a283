/**
 * The row detail leads with one plan, in words: in every scenario, for every record with a finding, the plan is
 * the first section, its root cause is said, and no step is said twice (in the plan or anywhere in the detail).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { mount, RouterLinkStub } from '@vue/test-utils';
import NodeDetail from '@pkg/node-health/components/NodeDetail.vue';
import type { NodeRecord } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';
import { buildScenario, SCENARIO_NAMES } from '../../scenarios/catalog';
import { diagnoseScenario } from '../unit/engine/helpers';
import { providedContext } from './record-context';

const en = createTranslator(load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');

function mountDetail(record: NodeRecord, now: string) {
  return mount(NodeDetail, {
    props:  { record },
    global: {
      provide: providedContext(Date.parse(now)),
      mocks:   { t: (key: string, args?: Record<string, any>) => en(key, args) },
      stubs:   { 'router-link': RouterLinkStub },
    },
  });
}

describe('the row detail\'s plan', () => {
  for (const name of SCENARIO_NAMES) {
    it(`${ name }: leads every record with a problem, and says each step once`, () => {
      const s = buildScenario(name);
      const report = diagnoseScenario(s);

      for (const r of report.records.filter((x) => x.findings.some((f) => f.fix.length))) {
        const wrapper = mountDetail(r, s.now);
        const first = wrapper.find('section');

        expect(first.attributes('data-testid')).toBe('node-health-plan');
        expect(wrapper.find('[data-testid="node-health-plan-root"]').text()).toMatch(/^Root cause: \S/);
        const said = wrapper.findAll('ol.fix-steps > li > span').map((x) => x.text());
        const twice = said.filter((text, i) => said.indexOf(text) !== i);

        expect({ record: r.key, twice }).toEqual({ record: r.key, twice: [] });
        wrapper.unmount();
      }
    });
  }
});
