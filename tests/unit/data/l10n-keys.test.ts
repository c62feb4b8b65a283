import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { actionOffers } from '@pkg/node-health/data';
import type { IssueKind } from '@pkg/node-health/data';
import type { ActionId, ChainLink, InputName, NodeRecord } from '@pkg/node-health/engine';

// Every key the tab asks for exists in both languages: the literal ones found in its sources, and the
// ones it builds from a value (an input, a failure kind, an action) for every value that value can take.
const ROOT = join(__dirname, '../../..');
const SOURCES = [
  'pkg/node-health/tabs',
  'pkg/node-health/data',
  ...['NodeDetail', 'NodeTable', 'SummaryStrip', 'UpdatedAgo', 'BlockingBanner', 'LoadNotices', 'LoadFailure'].map((c) => `pkg/node-health/components/${ c }.vue`),
  'pkg/node-health/index.ts',
];

function files(path: string): string[] {
  const full = join(ROOT, path);

  try {
    return readdirSync(full).map((f) => join(full, f));
  } catch {
    return [full];
  }
}

function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce((node: any, part) => (node && typeof node === 'object' ? node[part] : undefined), tree);
}

const locales = ['en-us', 'zh-hans'].map((l) => [l, load(readFileSync(join(ROOT, 'pkg/node-health/l10n', `${ l }.yaml`), 'utf8'))] as const);

const INPUTS: InputName[] = ['machines', 'planSecrets', 'bootstraps', 'infraMachines', 'mgmtNodes', 'nodes'];
const KINDS: IssueKind[] = ['unauthorized', 'forbidden', 'hidden', 'not-found', 'server', 'network', 'unknown'];
const ACTIONS: ActionId[] = ['remove-finalizers', 'etcd-force-remove', 're-register'];
const LINK_STATES: ChainLink['state'][] = ['present', 'missing', 'waiting', 'failed', 'unreadable', 'not-loaded', 'not-applicable', 'unlinked'];
const LINK_KINDS: ChainLink['kind'][] = ['machine', 'planSecret', 'bootstrap', 'infraMachine', 'mgmtNode', 'node'];

function denialKeys(): string[] {
  const finding = {
    actions: ACTIONS, rule: 'x', severity: 'error', titleKey: '', causeKey: '', args: {}, evidence: [], fix: [], since: null
  } as any;
  const withObjects = (objects: NodeRecord['objects']) => actionOffers(finding, { objects } as NodeRecord).map((o) => o.reasonKey);

  return [
    ...withObjects({}),
    ...withObjects({ machine: { links: {} }, bootstrap: { links: {} } }),
  ].filter((k): k is string => !!k);
}

const literalKeys = [...new Set(SOURCES.flatMap(files).flatMap((file) => {
  const text = readFileSync(file, 'utf8');

  return [...text.matchAll(/['"`](nodeHealth\.[A-Za-z0-9_.-]+[A-Za-z0-9_-])['"`]/g)].map((m) => m[1]);
}))];

const builtKeys = [
  ...INPUTS.flatMap((i) => [`nodeHealth.tab.unavailable.input.${ i }`, `nodeHealth.tab.unavailable.impact.${ i }`]),
  ...KINDS.flatMap((k) => [`nodeHealth.tab.unavailable.reason.${ k }`, `nodeHealth.tab.error.${ k }`, `nodeHealth.fleet.error.${ k }`]),
  ...ACTIONS.flatMap((a) => [`nodeHealth.tab.actions.${ a }`, `nodeHealth.tab.actionNames.${ a }`]),
  ...denialKeys(),
  ...['planSecret', 'namespace', 'machineId', 'hostname', 'externalAddress', 'internalAddress'].map((f) => `nodeHealth.tab.detail.fact.${ f }`),
  ...['healthy', 'warning', 'error', 'unknown'].map((s) => `nodeHealth.status.${ s }`),
  ...['error', 'warning', 'info'].map((s) => `nodeHealth.severity.${ s }`),
  ...LINK_KINDS.map((k) => `nodeHealth.chain.kind.${ k }`),
  ...LINK_STATES.map((s) => `nodeHealth.chain.state.${ s }`),
  ...['etcd', 'controlplane', 'worker'].map((r) => `nodeHealth.registration.role.${ r }`),
  ...['linux', 'windows'].map((o) => `nodeHealth.registration.os.${ o }`),
];

describe('the tab\'s translation keys', () => {
  it('are found in the sources (the scan itself works)', () => {
    expect(literalKeys).toEqual(expect.arrayContaining(['nodeHealth.tab.retry', 'nodeHealth.tabLabel', 'nodeHealth.tab.detail.noFindings']));
    expect(denialKeys()).toEqual(expect.arrayContaining(['nodeHealth.tab.actions.notLoaded.machine', 'nodeHealth.tab.actions.noPermission.bootstrap']));
  });

  it.each(locales)('all exist as text in %s', (_locale, messages) => {
    const missing = [...literalKeys, ...builtKeys].filter((key) => typeof lookup(messages, key) !== 'string');

    expect(missing).toEqual([]);
  });
});
