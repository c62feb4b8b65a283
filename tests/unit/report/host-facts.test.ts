/**
 * A host report's facts, as the row detail and the reports show them: its times as the timeline says times, the
 * rest as the host check wrote it.
 */
import { readHostReport } from '@pkg/node-health/engine/host-report';
import { hostFacts } from '@pkg/node-health/report/host-facts';
import { ghostEtcd } from '../../../scenarios/catalog';
import { ghostHostReport } from '../../../scenarios/host-reports';

describe('host facts', () => {
  const facts = new Map(hostFacts(readHostReport(ghostHostReport(ghostEtcd())), (key) => key).map((f) => [f.key, f.value]));

  it('say when the report was made, since when a service runs, a signature\'s first and last lines and a certificate\'s end as the timeline does', () => {
    expect(facts.get('collectedAt')).toBe('2026-01-15 08:06:00 UTC');
    expect(facts.get('agent')).toBe('rancher-system-agent: activating/auto-restart, restarts 1, since 2026-01-15 08:04:03 UTC');
    expect(facts.get('signature')).toMatch(/^agent-credentials ×1 \(2026-01-15 08:04:03 UTC … 2026-01-15 08:04:03 UTC\)/);
    expect(facts.get('certificate')).toBe('kubelet: 2026-12-01 03:12:45 UTC');
  });

  it('keep what the host wrote otherwise', () => {
    expect(facts.get('hostname')).toBe('dev-k8s-node01');
  });
});
