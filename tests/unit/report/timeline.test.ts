/**
 * The text and Markdown reports tell each unhealthy record's story from the objects and the Events given with
 * them (kubectl output, a bundle), newest first; a bundle keeps the Events it was made from.
 */
import { diagnose } from '@pkg/node-health/engine';
import { createBundle } from '@pkg/node-health/export';
import { renderText, REPORT_TIMELINE_ENTRIES } from '@pkg/node-health/report/render';
import { renderMarkdown } from '@pkg/node-health/report/markdown';
import { cliTranslator } from '../../../cli/l10n';
import { buildScenario, MHC_BLOCKED_MACHINES } from '../../../scenarios/catalog';
import { clusterObjects } from '../engine/helpers';

const t = cliTranslator('en-us');

function objectsOf(name: string) {
  const s = buildScenario(name);

  return { s, objects: JSON.parse(JSON.stringify(s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId)))) };
}

describe('a record\'s story in the reports', () => {
  const { s, objects } = objectsOf('health-check-blocked');
  const machine = MHC_BLOCKED_MACHINES[0];

  it('the text report: the newest entries first, the health check\'s Event with its count', () => {
    const text = renderText(diagnose(objects, { now: s.now }), t);
    const section = text.slice(text.indexOf(`] ${ machine }`));
    const lines = section.slice(section.indexOf('What happened')).split('\n').slice(1, REPORT_TIMELINE_ENTRIES + 1);

    expect(lines[0]).toBe(`    2026-07-02 14:04:00 UTC  Event  Machine fleet-default/${ machine }: DetectedUnhealthy: Machine fleet-default/${ machine } has unhealthy Node ${ machine } (29 times since 2026-07-02 13:35:00 UTC)`);
    expect(lines.map((l) => l.trim().slice(0, 20))).toEqual([...lines.map((l) => l.trim().slice(0, 20))].sort().reverse());
    expect(section).toContain(`Event  Node ${ machine }: NodeNotReady: Node ${ machine } status is now: NodeNotReady`);
  });

  it('Markdown: the same story, its cluster text kept from breaking the markup', () => {
    const md = renderMarkdown(diagnose(objects, { now: s.now }), t);

    expect(md).toContain(`- \`2026-07-02 14:04:00 UTC\` Event — Machine fleet-default/${ machine }: DetectedUnhealthy: Machine fleet-default/${ machine } has unhealthy Node ${ machine }`);
  });

  it('without Events, the story is still told from the objects', () => {
    const text = renderText(diagnose(objects.filter((o: any) => o.kind !== 'Event'), { now: s.now }), t);

    expect(text).toContain('What happened');
    expect(text).not.toContain('DetectedUnhealthy');
  });

  it('a bundle keeps the Events, with only the fields the timeline reads, and tells the same story', () => {
    const bundle = createBundle({
      objects, now: s.now, t, rancherVersion: 'v2.12.2', extensionVersion: '0.1.0'
    });
    const events = bundle.objects.filter((o: any) => o.kind === 'Event');

    expect(events).toHaveLength(4);
    expect(Object.keys(events[0]).sort()).toEqual(expect.not.arrayContaining(['reportingInstance']));
    const again = renderText(diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability }), t);

    expect(again).toContain(`DetectedUnhealthy: Machine fleet-default/${ machine } has unhealthy Node`);
  });

  it('a bundle redacts a credential planted in an Event\'s message', () => {
    const canary = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IkNBTkFSWSJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlLWNhbmFyeQ';
    const planted = objects.map((o: any) => (o.kind === 'Event' ? { ...o, message: `${ o.message } token=${ canary }` } : o));
    const bundle = createBundle({
      objects: planted, now: s.now, t, rancherVersion: 'v2.12.2', extensionVersion: '0.1.0'
    });

    expect(JSON.stringify(bundle)).not.toContain(canary);
    expect(renderText(diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability }), t)).not.toContain(canary);
  });

  it('each finding says which entry of the story it started with, in the text and Markdown reports and in Chinese', () => {
    const report = diagnose(objects, { now: s.now });
    const text = renderText(report, t);
    const section = text.slice(text.indexOf(`] ${ machine }`));

    // The Node went NotReady at 13:30; the node controller's Event says so at that moment.
    expect(section).toContain(`  ERROR node-not-ready: Node not ready\n    Since 2026-07-02 13:30:00 UTC, when: NodeNotReady: Node ${ machine } status is now: NodeNotReady (Node ${ machine })`);
    expect(renderMarkdown(report, t)).toContain(`_Since 2026-07-02 13:30:00 UTC, when: NodeNotReady: Node ${ machine } status is now: NodeNotReady (Node ${ machine })_`);
    expect(renderText(report, cliTranslator('zh-hans'))).toContain(`自 2026-07-02 13:30:00 UTC 起，当时：NodeNotReady：Node ${ machine } status is now: NodeNotReady（Node ${ machine }）`);
  });
});
