import { downstreamClusterIdFromLinks, saysInfrastructureGone } from '@pkg/node-health/engine/objects';

describe('downstream cluster of an object loaded through the cluster proxy', () => {
  const withSelf = (self: unknown) => ({ links: { self } });

  it.each([
    ['https://rancher.example.com/k8s/clusters/c-m-abc12/v1/nodes/worker-1', 'c-m-abc12'],
    ['/k8s/clusters/c-m-x%2Fy/v1/nodes/n', 'c-m-x/y'],
    ['https://rancher.example.com/v1/nodes/worker-1', null],
    ['https://rancher.example.com/k8s/clusters/', null],
    ['https://rancher.example.com/k8s/clusters//v1/nodes/n', null],
    ['/k8s/clusters/c-m-%E0%A4%A/v1/nodes/n', null],
    [42, null],
  ])('reads %j as %j', (self, id) => {
    expect(downstreamClusterIdFromLinks(withSelf(self))).toBe(id);
  });

  it('gives null without links', () => {
    expect(downstreamClusterIdFromLinks({ metadata: { name: 'n' } })).toBeNull();
  });
});

describe('messages that say the VM is gone', () => {
  it.each([
    ['VM not found', true],
    ['no VM found for machine worker-1', true],
    ['InvalidInstanceID.NotFound: The instance ID does not exist', true],
    ['waiting for VM to be created', false],
    [null, false],
  ])('%j → %j', (message, gone) => {
    expect(saysInfrastructureGone({ message })).toBe(gone);
  });
});
