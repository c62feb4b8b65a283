/**
 * The record tab on a Machine's or a Node's page: which cluster the object belongs to and which row is its record.
 */
import { clusterOfMgmtId, machineClusterId, recordSubject, subjectRow } from '@pkg/node-health/data/record-target';
import type { NodeRow } from '@pkg/node-health/data';

const row = (key: string, machine: string, node: string) => ({
  key, machine, node
} as NodeRow);

describe('the record tab\'s subject', () => {
  it('a Machine (store model or plain object) and a downstream Node; nothing else', () => {
    expect(recordSubject({ type: 'cluster.x-k8s.io.machine', metadata: { name: 'm1', namespace: 'fleet-default' } })).toEqual({
      kind: 'machine', name: 'm1', namespace: 'fleet-default'
    });
    expect(recordSubject({
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }
    })).toEqual({
      kind: 'node', name: 'n1', namespace: null
    });
    expect(recordSubject({
      type: 'management.cattle.io.node', kind: 'Node', apiVersion: 'management.cattle.io/v3', metadata: { name: 'machine-x', namespace: 'c-m-1' }
    })).toBeNull();
    expect(recordSubject({ type: 'cluster.x-k8s.io.machine', metadata: {} })).toBeNull();
  });

  it('a Machine\'s cluster is its cluster-name label in its namespace; a Node\'s, the provisioning cluster of the Explorer\'s cluster id', () => {
    expect(machineClusterId({
      metadata: {
        name: 'm1', namespace: 'fleet-default', labels: { 'cluster.x-k8s.io/cluster-name': 'dev-k3s' }
      }
    })).toBe('fleet-default/dev-k3s');
    expect(machineClusterId({ metadata: { name: 'm1', namespace: 'fleet-default' } })).toBeNull();
    const clusters = [{ metadata: { name: 'a' }, status: { clusterName: 'c-m-1' } }, { metadata: { name: 'b' }, status: { clusterName: 'c-m-2' } }];

    expect(clusterOfMgmtId(clusters, 'c-m-2')).toBe(clusters[1]);
    expect(clusterOfMgmtId(clusters, 'c-m-3')).toBeNull();
  });

  it('a Node\'s row is its Machine\'s record where one holds it, else the Node\'s own', () => {
    const rows = [row('node:c-m-1/n1', '', 'n1'), row('machine:fleet-default/m1', 'm1', 'n1'), row('node:c-m-1/n2', '', 'n2')];

    expect(subjectRow(rows, {
      kind: 'node', name: 'n1', namespace: null
    })?.key).toBe('machine:fleet-default/m1');
    expect(subjectRow(rows, {
      kind: 'node', name: 'n2', namespace: null
    })?.key).toBe('node:c-m-1/n2');
    expect(subjectRow(rows, {
      kind: 'machine', name: 'm1', namespace: 'fleet-default'
    })?.key).toBe('machine:fleet-default/m1');
    expect(subjectRow(rows, {
      kind: 'machine', name: 'm1', namespace: 'other'
    })).toBeNull();
  });
});
