/**
 * The action catalogue is the one place an action is declared: each entry's dialog exists, its button label,
 * log name and refusal reasons are translated in both languages, and opening it goes to its dialog.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import {
  ACTION_CATALOGUE, ACTION_IDS, ACTION_LOG_NAMES, actionEntry, actionOffers, openAction, recordAction
} from '@pkg/node-health/actions';
import type { ActionContext } from '@pkg/node-health/actions';
import type { NodeRecord } from '@pkg/node-health/engine';
import { MACHINE, stuckRecord } from './fixtures';

const ROOT = join(__dirname, '../../..');
const locales = ['en-us', 'zh-hans'].map((l) => [l, load(readFileSync(join(ROOT, 'pkg/node-health/l10n', `${ l }.yaml`), 'utf8'))] as const);

function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce((node: any, part) => (node && typeof node === 'object' ? node[part] : undefined), tree);
}

const context: ActionContext = {
  clusterId: 'c-m-1', user: 'admin', onDone: () => undefined
};

/** An etcd machine stuck deleting: it has a Machine and an RKEBootstrap, the two objects actions write. */
const ghostRecord = (): NodeRecord => stuckRecord({ etcd: true });

describe('the action catalogue', () => {
  it.each(ACTION_IDS)('%s has its dialog, and its texts in both languages', (id) => {
    const entry = ACTION_CATALOGUE[id];

    expect(existsSync(join(ROOT, 'pkg/node-health/dialog', `${ entry.dialog }.vue`))).toBe(true);
    const keys = [
      `nodeHealth.tab.actions.${ id }`,
      `nodeHealth.actions.name.${ entry.logName }`,
      ...(entry.target ? [`nodeHealth.tab.actions.notLoaded.${ entry.target }`, `nodeHealth.tab.actions.noPermission.${ entry.target }`] : []),
    ];

    for (const [locale, tree] of locales) {
      for (const key of keys) {
        expect([locale, key, typeof lookup(tree, key)]).toEqual([locale, key, 'string']);
      }
    }
  });

  it('opens each action on its own dialog, with the record and the context', async() => {
    const record = ghostRecord();

    for (const id of ACTION_IDS) {
      const dispatch = jest.fn().mockResolvedValue(undefined);

      await openAction({ dispatch, getters: {} }, id, {
        record, context, cluster: { mgmtId: 'c-m-1', name: 'dev-k3s' }
      });
      expect(dispatch).toHaveBeenCalledTimes(1);
      expect(dispatch.mock.calls[0][0]).toBe('management/promptModal');
      expect(dispatch.mock.calls[0][1].component).toBe(ACTION_CATALOGUE[id].dialog);
      expect(dispatch.mock.calls[0][1].resources[0]).toMatchObject({ record: { machineName: MACHINE }, context: { clusterId: 'c-m-1', user: 'admin' } });
    }
  });

  it('opens nothing where the view is read-only (a bundle served as a cluster), whatever the page asks', async() => {
    for (const id of ACTION_IDS) {
      const dispatch = jest.fn().mockResolvedValue(undefined);

      await openAction({ dispatch, getters: {} }, id, {
        record: ghostRecord(), context, cluster: { mgmtId: 'c-m-1', name: 'dev-k3s' }, readOnlyKey: 'nodeHealth.bundle.readOnly'
      });
      expect(dispatch).not.toHaveBeenCalled();
    }
  });

  it('opens nothing for an id it does not know', async() => {
    const dispatch = jest.fn();

    await openAction({ dispatch, getters: {} }, 'format-disk', {
      record: ghostRecord(), context, cluster: {}
    });
    expect(dispatch).not.toHaveBeenCalled();
    expect(actionEntry('toString')).toBeNull();
    expect(actionOffers({ actions: ['format-disk' as any] }, ghostRecord())).toEqual([{
      id: 'format-disk', allowed: true, reasonKey: null
    }]);
  });

  it('the action log accepts exactly the catalogue\'s log names', () => {
    expect(ACTION_LOG_NAMES).toEqual(ACTION_IDS.map((id) => ACTION_CATALOGUE[id].logName));
    for (const action of ACTION_LOG_NAMES) {
      expect(recordAction({
        user: 'admin', cluster: 'catalogue-test', action, target: 'Machine x', result: 'cancelled'
      }).action).toBe(action);
    }
    expect(() => recordAction({
      user: 'admin', cluster: 'catalogue-test', action: 're-register' as any, target: 'x', result: 'cancelled'
    })).toThrow(/unknown action/);
  });

  it('offers a writing action only with its object read and updatable (or deletable, for a delete), where "blocked" means not allowed', () => {
    const record = ghostRecord();
    const finding = { actions: ACTION_IDS };
    const links = (link: string | undefined) => ({ links: link === undefined ? {} : { update: link, remove: link } });
    const objects = (link: string | undefined) => ({
      ...record.objects,
      machine:      { ...record.objects.machine, ...links(link) },
      bootstrap:    { ...record.objects.bootstrap, ...links(link) },
      cluster:      { metadata: { name: 'prod', namespace: 'fleet-default' }, ...links(link) },
      infraMachine: {
        kind: 'VmwarevsphereMachine', metadata: { name: 'vs-1', namespace: 'fleet-default' }, ...links(link)
      },
    }) as NodeRecord['objects'];

    const allowed = (update: string | undefined) => actionOffers(finding, { ...record, objects: objects(update) }).map((o) => [o.id, o.allowed]);

    expect(allowed('https://rancher/v1/x')).toEqual(ACTION_IDS.map((id) => [id, true]));
    for (const refused of [undefined, '', 'blocked']) {
      expect(allowed(refused)).toEqual(ACTION_IDS.map((id) => [id, ACTION_CATALOGUE[id].target === null]));
    }
  });

  it('in a read-only view refuses every action, the registration command too, with the view\'s reason, whatever the permissions', () => {
    const record = ghostRecord();
    const link = { links: { update: 'u', remove: 'r' } };
    const everything = {
      ...record,
      objects: {
        ...record.objects,
        machine:      { ...record.objects.machine, ...link },
        bootstrap:    { ...record.objects.bootstrap, ...link },
        cluster:      { metadata: { name: 'prod', namespace: 'fleet-default' }, ...link },
        infraMachine: {
          kind: 'VmwarevsphereMachine', metadata: { name: 'vs-1', namespace: 'fleet-default' }, ...link
        },
      } as NodeRecord['objects'],
    };

    expect(actionOffers({ actions: ACTION_IDS }, everything).every((o) => o.allowed)).toBe(true);
    expect(actionOffers({ actions: ACTION_IDS }, everything, 'nodeHealth.bundleView.readOnly')).toEqual(ACTION_IDS.map((id) => ({
      id, allowed: false, reasonKey: 'nodeHealth.bundleView.readOnly'
    })));
  });

  it('asks to delete the machine only of who may delete it, and says so', () => {
    const record = ghostRecord();
    const withLinks = (links: Record<string, string>) => ({ ...record, objects: { ...record.objects, machine: { ...record.objects.machine, links } } as NodeRecord['objects'] });
    const offer = (links: Record<string, string>) => actionOffers({ actions: ['delete-machine', 'resume-machine'] }, withLinks(links));

    expect(offer({ update: 'u' }).map((o) => [o.id, o.allowed, o.reasonKey])).toEqual([
      ['delete-machine', false, 'nodeHealth.tab.actions.noDeletePermission.machine'], ['resume-machine', true, null],
    ]);
    expect(offer({ remove: 'r' }).map((o) => [o.id, o.allowed, o.reasonKey])).toEqual([
      ['delete-machine', true, null], ['resume-machine', false, 'nodeHealth.tab.actions.noPermission.machine'],
    ]);
  });

  it('offers the registration command only to a user who may update the provisioning cluster, and opens it so', async() => {
    const record = ghostRecord();
    const withCluster = (cluster: Record<string, unknown> | undefined) => ({ ...record, objects: { ...record.objects, cluster } as NodeRecord['objects'] });
    const offer = (cluster: Record<string, unknown> | undefined) => actionOffers({ actions: ['re-register'] }, withCluster(cluster))[0];
    const prod = { metadata: { name: 'prod', namespace: 'fleet-default' } };

    expect(offer({ ...prod, links: { self: '/v1/c', update: '/v1/c' } })).toEqual({
      id: 're-register', allowed: true, reasonKey: null
    });
    expect(offer({ ...prod, links: { self: '/v1/c' } })).toEqual({
      id: 're-register', allowed: false, reasonKey: 'nodeHealth.tab.actions.noPermission.cluster'
    });
    expect(offer(undefined)).toEqual({
      id: 're-register', allowed: false, reasonKey: 'nodeHealth.tab.actions.notLoaded.cluster'
    });
    // Opened anyway (an event from elsewhere): the dialog is told not to ask for the token.
    const dispatch = jest.fn().mockResolvedValue(undefined);

    await openAction({ dispatch, getters: {} }, 're-register', {
      record: withCluster({ ...prod, links: { self: '/v1/c' } }), context, cluster: { mgmtId: 'c-m-1', name: 'prod' }
    });
    expect(dispatch.mock.calls[0][1].resources[0].access).toEqual({ allowed: false, reason: 'noPermission' });
  });
});
