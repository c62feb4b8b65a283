/**
 * Fixture hosts for the Linux host check: a fake root directory (NODE_HEALTH_HOST_ROOT) with the files the
 * check reads, and a PATH holding only the tools it may use: coreutils and sed from this machine, and
 * systemctl, journalctl, openssl and curl shims that answer from the fixture.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const LINUX_SCRIPT = join(__dirname, '..', '..', '..', 'pkg', 'node-health', 'host-check', 'linux.sh');

/** What the check may find on PATH besides the shims: coreutils and sed. */
const REAL_TOOLS = ['cat', 'tr', 'sed', 'date', 'wc', 'cut', 'head', 'tail', 'df', 'id', 'uname', 'mktemp', 'mkdir', 'chmod', 'rm'];

export interface ServiceFixture {
  ActiveState: string;
  SubState: string;
  NRestarts?: number;
  /** as `systemctl show --timestamp=utc` prints it, e.g. "Thu 2026-01-15 08:04:08 UTC" */
  StateChangeTimestamp?: string;
}

export interface HostFixture {
  hostname: string;
  files?: Record<string, string>;
  /** unit name (without .service) to its state; units not listed are not installed */
  services?: Record<string, ServiceFixture>;
  /** unit name to its journal, in `journalctl -o short-iso` form */
  journal?: Record<string, string[]>;
  /** path of a certificate under the root to its notAfter as openssl prints it */
  certificates?: Record<string, string>;
  /** the Date header the Rancher server answers with */
  serverDate?: string;
  /** shims to leave out, as if the host did not have the tool */
  without?: string[];
}

const SHIMS: Record<string, string> = {
  systemctl: `#!/bin/sh
# systemctl show UNIT.service [--timestamp=utc] -p PROP...
[ "$1" = show ] || exit 1
unit=\${2%.service}
shift 2
file="$FIXTURE/services/$unit"
while [ $# -gt 0 ]; do
  case $1 in
    -p) shift
        if [ -r "$file" ]; then sed -n "s/^$1=/$1=/p" "$file"; elif [ "$1" = LoadState ]; then echo LoadState=not-found; else echo "$1="; fi ;;
  esac
  shift
done
`,
  journalctl: `#!/bin/sh
# journalctl -u UNIT... -n N --no-pager -o short-iso
n=500
units=''
while [ $# -gt 0 ]; do
  case $1 in
    -u) shift; units="$units $1" ;;
    -n) shift; n=$1 ;;
  esac
  shift
done
for u in $units; do [ -r "$FIXTURE/journal/$u" ] && cat "$FIXTURE/journal/$u"; done | tail -n "$n"
`,
  openssl: `#!/bin/sh
# openssl x509 -noout -enddate -in FILE
while [ $# -gt 0 ]; do
  case $1 in -in) shift; file=$1 ;; esac
  shift
done
sed -n 's/^# notAfter: /notAfter=/p' "$file"
`,
  curl: `#!/bin/sh
printf 'HTTP/1.1 200 OK\\r\\n'
printf 'Date: %s\\r\\n' "$(cat "$FIXTURE/server-date")"
printf '\\r\\n'
`,
};

export interface HostRun {
  stdout: string;
  stderr: string;
  json: Record<string, any>;
  root: string;
}

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

export function makeHost(fixture: HostFixture): { root: string; path: string; fixtureDir: string } {
  const base = mkdtempSync(join(tmpdir(), 'node-health-host-'));
  const root = join(base, 'root');
  const bin = join(base, 'bin');
  const fixtureDir = join(base, 'fixture');

  mkdirSync(root, { recursive: true });
  mkdirSync(bin, { recursive: true });
  mkdirSync(fixtureDir, { recursive: true });
  write(join(root, 'proc/sys/kernel/hostname'), `${ fixture.hostname }\n`);
  for (const [path, content] of Object.entries(fixture.files ?? {})) {
    write(join(root, path), content);
  }
  for (const [path, notAfter] of Object.entries(fixture.certificates ?? {})) {
    write(join(root, path), `# notAfter: ${ notAfter }\n-----BEGIN CERTIFICATE-----\nMIIBfixture\n-----END CERTIFICATE-----\n`);
  }
  for (const [unit, s] of Object.entries(fixture.services ?? {})) {
    write(join(fixtureDir, 'services', unit), `${ [
      'LoadState=loaded', `ActiveState=${ s.ActiveState }`, `SubState=${ s.SubState }`, `NRestarts=${ s.NRestarts ?? 0 }`,
      `StateChangeTimestamp=${ s.StateChangeTimestamp ?? '' }`,
    ].join('\n') }\n`);
  }
  for (const [unit, lines] of Object.entries(fixture.journal ?? {})) {
    write(join(fixtureDir, 'journal', unit), lines.map((l) => `${ l }\n`).join(''));
  }
  write(join(fixtureDir, 'server-date'), fixture.serverDate ?? new Date().toUTCString());
  for (const tool of REAL_TOOLS) {
    const real = execFileSync('/bin/sh', ['-c', `command -v ${ tool }`], { encoding: 'utf8' }).trim();

    symlinkSync(real, join(bin, tool));
  }
  for (const [name, text] of Object.entries(SHIMS)) {
    if (fixture.without?.includes(name)) {
      continue;
    }
    write(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }

  return {
    root, path: bin, fixtureDir
  };
}

/** Runs the Linux host check against a fixture host with POSIX sh, as root would run it. */
export function runHostCheck(fixture: HostFixture, args: string[] = ['--offline']): HostRun {
  const { root, path, fixtureDir } = makeHost(fixture);
  let stderr = '';
  const stdout = execFileSync('/bin/sh', [LINUX_SCRIPT, ...args], {
    encoding: 'utf8',
    env:      {
      PATH: path, NODE_HEALTH_HOST_ROOT: root, FIXTURE: fixtureDir
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  try {
    return {
      stdout, stderr, json: JSON.parse(stdout), root
    };
  } catch (e) {
    stderr = String(e);
    throw new Error(`the host check printed no JSON document: ${ stderr }\n${ stdout }`);
  }
}
