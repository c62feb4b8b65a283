/**
 * Kubernetes versions compared the way Rancher's planner compares them (kubeletVersionUpToDate in
 * pkg/capr/planner/planner.go): parsed as semantic versions after a leading "v", and equal when major, minor
 * and patch are, whatever the pre-release (`-rc1`) and build (`+rke2r1`) parts say. A cluster on
 * `v1.24.7-rc1+rke2r1` whose kubelet reports `v1.24.7+rke2r1` is up to date.
 */

export interface Release {
  major: number;
  minor: number;
  patch: number;
}

// Masterminds/semver's loose form: minor and patch may be left out; pre-release and build are dot-separated words.
const VERSION = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** The release a version names, or null when it is not a version the planner could parse. */
export function releaseOf(version: string | null | undefined): Release | null {
  const m = typeof version === 'string' ? VERSION.exec(version.trim()) : null;

  return m ? {
    major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0)
  } : null;
}

// A cluster's nodes run a handful of versions: each is parsed once, not once per node and rule.
const PARSED = new Map<string, Release | null>();
const PARSED_MAX = 256;

function cachedRelease(version: string | null | undefined): Release | null {
  if (typeof version !== 'string') {
    return null;
  }
  let release = PARSED.get(version);

  if (release === undefined) {
    if (PARSED.size >= PARSED_MAX) {
      PARSED.clear();
    }
    release = releaseOf(version);
    PARSED.set(version, release);
  }

  return release;
}

/**
 * Whether a kubelet runs the release the cluster wants: true or false as the planner decides, or null when either
 * version does not parse (the planner then waits for ever; the comparison cannot judge).
 */
export function sameRelease(kubelet: string | null | undefined, wanted: string | null | undefined): boolean | null {
  const a = cachedRelease(kubelet);
  const b = cachedRelease(wanted);

  if (!a || !b) {
    return null;
  }

  return a.major === b.major && a.minor === b.minor && a.patch === b.patch;
}
