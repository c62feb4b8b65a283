import { dump } from 'js-yaml';

import { runRegisterCommand } from '../../../cli/commands/register-command';

const SERVER = 'https://rancher.example.com';
const TOKEN = 'kq8vxx4n9gdz7p2hqj9z6b5c8xwsl5nzqtfbp4h6vmtnwdx2jk7r6c';
const CA = '5c02c9d41756c2cae614be39ac9444ec093d3a69a7b1edc931223a7f5391353c';
const CLUSTER = 'c-m-abcd1234';

const linuxNodeCommand = ` curl -fL ${ SERVER }/system-agent-install.sh | sudo  sh -s - --server ${ SERVER } --label 'cattle.io/os=linux' --token ${ TOKEN } --ca-checksum ${ CA }`;
const windowsNodeCommand = ` curl.exe -fL ${ SERVER }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ SERVER } -Label 'cattle.io/os=windows' -Token ${ TOKEN } -Worker -CaChecksum ${ CA }`;

const normanToken = {
  type:        'clusterRegistrationToken',
  id:          `${ CLUSTER }:default-token`,
  name:        'default-token',
  clusterId:   CLUSTER,
  nodeCommand: linuxNodeCommand,
  windowsNodeCommand,
  token:       TOKEN,
};

const kubectlList = {
  apiVersion: 'v1',
  kind:       'List',
  items:      [
    {
      apiVersion: 'management.cattle.io/v3',
      kind:       'ClusterRegistrationToken',
      metadata:   { name: 'default-token', namespace: CLUSTER },
      spec:       { clusterName: CLUSTER },
      status:     { nodeCommand: linuxNodeCommand.replace(TOKEN, '{token}'), tokenSecretName: 'default-token-abc' },
    },
    {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 'default-token-abc', namespace: CLUSTER }, data: { token: btoa(TOKEN) }
    },
  ],
};

const FILES: Record<string, string> = {
  'token.json':     JSON.stringify(normanToken),
  'list.yaml':      dump(kubectlList),
  'no-secret.yaml': dump({ ...kubectlList, items: [kubectlList.items[0]] }),
  'garbage.txt':    '{ not: [json',
  'multi.yaml':     `${ dump(kubectlList.items[0]) }---\n${ dump(kubectlList.items[1]) }`,
};

async function run(...argv: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runRegisterCommand(argv, {
    stdout:   (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    readFile: (path) => {
      if (!(path in FILES)) {
        throw Object.assign(new Error(`ENOENT: no such file or directory, open '${ path }'`), { code: 'ENOENT' });
      }

      return FILES[path];
    },
  });

  return {
    code, stdout, stderr
  };
}

const LINUX = `curl -fL '${ SERVER }/system-agent-install.sh' | sudo sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --ca-checksum '${ CA }'`;

describe('node-health register-command', () => {
  it('prints only the command, with the real token, and exits 0', async() => {
    expect(await run('--token', 'token.json', '--os', 'linux', '--role', 'etcd', '--role', 'controlplane', '--role', 'worker')).toStrictEqual({
      code: 0, stdout: `${ LINUX } --etcd --controlplane --worker\n`, stderr: ''
    });
  });

  it('passes every option through', async() => {
    const result = await run(
      '--token', 'token.json', '--os', 'linux', '--role', 'worker', '--node-name', 'worker-01', '--address', '203.0.113.10',
      '--internal-address', '10.0.0.10', '--label', 'env=prod', '--label', 'tier=web', '--taint', 'dedicated=gpu:NoSchedule',
      '--insecure', '--https-proxy', 'http://proxy.corp:3128', '--no-proxy', '10.0.0.0/8,.corp'
    );
    const env = `HTTPS_PROXY='http://proxy.corp:3128' NO_PROXY='10.0.0.0/8,.corp'`;

    expect(result).toStrictEqual({
      code:   0,
      stdout: `${ env } curl --insecure -fL '${ SERVER }/system-agent-install.sh' | sudo ${ env } sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --ca-checksum '${ CA }' --worker --address '203.0.113.10' --internal-address '10.0.0.10' --node-name 'worker-01' --label 'env=prod' --label 'tier=web' --taints 'dedicated=gpu:NoSchedule'\n`,
      stderr: '',
    });
  });

  it('builds the Windows command, a worker by default, and warns on stderr about the lower-cased name', async() => {
    const result = await run('--token', 'token.json', '--os', 'windows', '--node-name', 'WIN-WORKER-01', '--label', 'env=prod');

    expect(result).toStrictEqual({
      code:   0,
      stdout: `$env:CATTLE_NODE_NAME='win-worker-01'; curl.exe -fL '${ SERVER }/wins-agent-install.ps1' -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server '${ SERVER }' -Label 'cattle.io/os=windows,env=prod' -Token '${ TOKEN }' -Worker -CaChecksum '${ CA }' -NodeName 'win-worker-01'\n`,
      stderr: 'warning: --node-name: "WIN-WORKER-01" has upper case letters: Kubernetes lower-cases node names, so the command registers win-worker-01.\n',
    });
  });

  it('reads a kubectl List in YAML with the token in its Secret, and multi-document YAML', async() => {
    for (const file of ['list.yaml', 'multi.yaml']) {
      expect(await run('--token', file, '--os', 'linux', '--role', 'worker')).toStrictEqual({
        code: 0, stdout: `${ LINUX } --worker\n`, stderr: ''
      });
    }
  });

  it('prints usage for --help', async() => {
    const result = await run('--help');

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: node-health register-command --token <file> --os linux\|windows/);
    expect(result.stderr).toBe('');
  });

  it.each([
    [['--os', 'linux', '--role', 'worker'], '--token <file> is required'],
    [['--token', 'token.json', '--role', 'worker'], '--os linux|windows is required'],
    [['--token', 'token.json', '--os', 'macos', '--role', 'worker'], '--os: Unknown operating system "macos": choose linux or windows'],
    [['--token', 'token.json', '--os', 'linux'], '--role: Choose at least one role'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'master'], '--role: Unknown role "master": the roles are etcd, controlplane, worker'],
    [['--token', 'token.json', '--os', 'windows', '--role', 'etcd', '--role', 'worker'], '--role: Windows nodes can only be workers; remove etcd'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', '--node-name', 'web_01'], '--node-name: Node name "web_01" contains "_": only lower case letters, digits, "-" and "." are allowed. Use web-01'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', '--label', 'env'], '--label: Label "env" has no "=": write it as key=value'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', '--taint', 'gpu:NoSchedule'], '--taint: Taint "gpu:NoSchedule" must be key=value:Effect (the value may be empty, the "=" may not): Rancher silently drops taints in any other form'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', '--http-proxy', 'proxy:3128'], '--http-proxy: Proxy "proxy:3128" must start with http:// or https://'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', '--node-name', ''], '--node-name needs a value'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', '--node-name', 'a\nb'], '--node-name: The value contains a control character (such as a line break or a tab); type it on one line'],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', '--bogus'], 'Unknown option \'--bogus\''],
    [['--token', 'token.json', '--os', 'linux', '--role', 'worker', 'extra'], 'Unexpected argument \'extra\''],
    [['--token', 'missing.json', '--os', 'linux', '--role', 'worker'], '--token: cannot read missing.json (ENOENT)'],
    [['--token', 'garbage.txt', '--os', 'linux', '--role', 'worker'], '--token: garbage.txt is neither JSON nor YAML'],
    [['--token', 'no-secret.yaml', '--os', 'linux', '--role', 'worker'], `--token: The token object keeps its token in Secret ${ CLUSTER }/default-token-abc (Rancher 2.14 and later)`],
    [['--token', 'token.json', '--cluster', 'c-m-other', '--os', 'linux', '--role', 'worker'], `--token: No registration token of cluster c-m-other; the tokens are for ${ CLUSTER }.`],
  ])('refuses %j with exit 2 and one line on stderr', async(argv, message) => {
    const result = await run(...(argv as string[]));

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(`node-health register-command: ${ message }`)).toBe(true);
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.split('\n')).toHaveLength(2);
  });

  it('names every problem on the one line', async() => {
    const result = await run('--token', 'token.json', '--os', 'linux', '--label', 'env', '--taint', 'x');

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'node-health register-command: --role: Choose at least one role; --label: Label "env" has no "=": write it as key=value; --taint: Taint "x" must be key=value:Effect (the value may be empty, the "=" may not): Rancher silently drops taints in any other form\n'
    );
  });

  it('never reads the token file when the options are wrong', async() => {
    const result = await run('--token', 'missing.json', '--os', 'linux');

    expect(result.stderr).toBe('node-health register-command: --role: Choose at least one role\n');
  });
});
