import { releaseOf, sameRelease } from '@pkg/node-health/engine/versions';

describe('Kubernetes versions, compared as the planner does', () => {
  it.each([
    // The release candidate a cluster asks for and the version its kubelet then reports (rancher#39386).
    ['v1.24.7+rke2r1', 'v1.24.7-rc1+rke2r1', true],
    ['v1.30.4+k3s1', 'v1.30.4+k3s2', true],
    ['v1.27.13+rke2r1', 'v1.27.13+rke2r1', true],
    ['v1.26.15+rke2r1', 'v1.27.13+rke2r1', false],
    // A prefix is not a release: 1.30.1 is not 1.30.10.
    ['v1.30.10+rke2r1', 'v1.30.1+rke2r1', false],
    ['v1.30.1+rke2r1', 'v1.30.10+rke2r1', false],
    ['1.29.6', 'v1.29.6+k3s1', true],
  ])('%s runs the release of %s: %s', (kubelet, wanted, same) => {
    expect(sameRelease(kubelet, wanted)).toBe(same);
  });

  it('cannot judge a version that does not parse', () => {
    expect(sameRelease('latest', 'v1.29.6+k3s1')).toBeNull();
    expect(sameRelease('v1.29.6+k3s1', '')).toBeNull();
    expect(sameRelease(null, 'v1.29.6')).toBeNull();
    expect(releaseOf('v1.29.06')).toBeNull();
  });

  it('reads a short version as Masterminds/semver does, minor and patch 0', () => {
    expect(releaseOf('v1.29')).toEqual({
      major: 1, minor: 29, patch: 0
    });
  });
});
