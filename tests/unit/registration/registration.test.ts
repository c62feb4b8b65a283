import { readFileSync } from 'fs';
import { resolve } from 'path';
import { load } from 'js-yaml';

import {
  buildRegistrationCommand, prefillFromMachine, readRegistrationToken, validateRegistrationOptions, isTokenError,
  effectiveNodeName, hasErrors, TOKEN_MASK, TOKEN_ERROR_CODES, VALIDATION_CODES
} from '@pkg/node-health/registration';
import type { RegistrationOptions, RegistrationToken, ValidationProblem } from '@pkg/node-health/registration';
import { formatMessage } from '../../../cli/commands/register-command';

// Shaped after Rancher's output (pkg/controllers/dashboard/clusterregistrationtoken/status.go); made-up values.
const SERVER = 'https://rancher.example.com';
const TOKEN = 'kq8vxx4n9gdz7p2hqj9z6b5c8xwsl5nzqtfbp4h6vmtnwdx2jk7r6c';
const CA = '5c02c9d41756c2cae614be39ac9444ec093d3a69a7b1edc931223a7f5391353c';
const CLUSTER = 'c-m-abcd1234';

function linuxCommand(opts: { insecure?: boolean, env?: string, token?: string, ca?: boolean } = {}): string {
  const env = opts.env ? `${ opts.env } ` : '';
  const ca = opts.ca === false ? '' : ` --ca-checksum ${ CA }`;

  return `${ env }curl ${ opts.insecure ? '--insecure ' : '' }-fL ${ SERVER }/system-agent-install.sh | sudo ${ env } sh -s - --server ${ SERVER } --label 'cattle.io/os=linux' --token ${ opts.token ?? TOKEN }${ ca }`;
}

function windowsCommand(opts: { insecure?: boolean, env?: string, token?: string } = {}): string {
  return `${ opts.env ?? '' } curl.exe ${ opts.insecure ? '--insecure ' : '' }-fL ${ SERVER }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ SERVER } -Label 'cattle.io/os=windows' -Token ${ opts.token ?? TOKEN } -Worker -CaChecksum ${ CA }`;
}

function normanToken(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type:                       'clusterRegistrationToken',
    id:                         `${ CLUSTER }:default-token`,
    name:                       'default-token',
    clusterId:                  CLUSTER,
    command:                    `kubectl apply -f ${ SERVER }/v3/import/${ TOKEN }_${ CLUSTER }.yaml`,
    manifestUrl:                `${ SERVER }/v3/import/${ TOKEN }_${ CLUSTER }.yaml`,
    nodeCommand:                ` ${ linuxCommand() }`,
    insecureNodeCommand:        ` ${ linuxCommand({ insecure: true }) }`,
    windowsNodeCommand:         windowsCommand(),
    insecureWindowsNodeCommand: windowsCommand({ insecure: true }),
    token:                      TOKEN,
    ...extra,
  };
}

function kubeToken(status: Record<string, unknown>, name = 'default-token'): Record<string, unknown> {
  return {
    apiVersion: 'management.cattle.io/v3',
    kind:       'ClusterRegistrationToken',
    metadata:   { name, namespace: CLUSTER },
    spec:       { clusterName: CLUSTER },
    status,
  };
}

function readOk(input: unknown, clusterId?: string): RegistrationToken {
  const result = readRegistrationToken(input, { clusterId });

  if (isTokenError(result)) {
    throw new Error(`unexpected token error ${ result.error.code }`);
  }

  return result;
}

function readError(input: unknown, clusterId?: string): string {
  const result = readRegistrationToken(input, { clusterId });

  if (!isTokenError(result)) {
    throw new Error('expected a token error');
  }

  return result.error.code;
}

const token: RegistrationToken = {
  serverUrl: SERVER, token: TOKEN, caChecksum: CA, agentEnv: [], insecureAvailable: true, windowsAvailable: true
};

function options(extra: Partial<RegistrationOptions> = {}): RegistrationOptions {
  return {
    os: 'linux', roles: ['etcd', 'controlplane', 'worker'], labels: [], taints: [], insecure: false, ...extra
  };
}

const LINUX_BASE = `curl -fL '${ SERVER }/system-agent-install.sh' | sudo sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --ca-checksum '${ CA }'`;
const WINDOWS_INSTALL = `curl.exe -fL '${ SERVER }/wins-agent-install.ps1' -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server '${ SERVER }'`;
const WINDOWS_TAIL = `-Token '${ TOKEN }' -Worker -CaChecksum '${ CA }'`;

describe('readRegistrationToken', () => {
  it('reads Norman’s flat object', () => {
    expect(readOk(normanToken())).toStrictEqual({
      serverUrl:         SERVER,
      token:             TOKEN,
      caChecksum:        CA,
      agentEnv:          [],
      clusterId:         CLUSTER,
      name:              'default-token',
      insecureAvailable: true,
      windowsAvailable:  true,
    });
  });

  it('reads the Kubernetes object with the commands under status', () => {
    const read = readOk(kubeToken({ nodeCommand: linuxCommand(), token: TOKEN }));

    expect(read).toMatchObject({
      serverUrl: SERVER, token: TOKEN, caChecksum: CA, clusterId: CLUSTER, name: 'default-token', windowsAvailable: false, insecureAvailable: false
    });
  });

  it('reads the Steve object', () => {
    const steve = {
      ...kubeToken({
        nodeCommand: linuxCommand(), windowsNodeCommand: windowsCommand(), token: TOKEN
      }),
      type: 'management.cattle.io.clusterregistrationtoken',
      id:   `${ CLUSTER }/default-token`
    };

    expect(readOk(steve)).toMatchObject({
      serverUrl: SERVER, token: TOKEN, windowsAvailable: true
    });
  });

  it('reads Norman’s flat object even when it carries an unrelated status', () => {
    expect(readOk(normanToken({ status: { conditions: [] } })).token).toBe(TOKEN);
  });

  it('takes the token from the command when the token field is absent', () => {
    expect(readOk(normanToken({ token: undefined })).token).toBe(TOKEN);
  });

  it('has no CA checksum when Rancher uses a publicly trusted certificate', () => {
    const read = readOk(normanToken({
      nodeCommand: linuxCommand({ ca: false }), windowsNodeCommand: '', insecureWindowsNodeCommand: ''
    }));

    expect(read.caChecksum).toBeUndefined();
    expect(read.windowsAvailable).toBe(false);
  });

  it('picks default-token of the cluster from a Norman collection', () => {
    const collection = {
      type: 'collection',
      data: [
        normanToken({
          id: `${ CLUSTER }:crt-x`, name: 'crt-x', token: 'othertoken', nodeCommand: linuxCommand({ token: 'othertoken' })
        }),
        normanToken(),
      ]
    };

    expect(readOk(collection).token).toBe(TOKEN);
  });

  it('takes the first token with a node command when none is named default-token', () => {
    const collection = {
      type: 'collection',
      data: [
        normanToken({
          name: 'crt-a', nodeCommand: '', insecureNodeCommand: ''
        }),
        normanToken({
          name: 'crt-b', token: 'tokenb', nodeCommand: linuxCommand({ token: 'tokenb' })
        }),
      ]
    };

    expect(readOk(collection)).toMatchObject({ name: 'crt-b', token: 'tokenb' });
  });

  it('needs the cluster when a collection holds several clusters’ tokens', () => {
    const collection = {
      type: 'collection',
      data: [normanToken(), normanToken({
        clusterId: 'c-m-other', id: 'c-m-other:default-token', token: 'tokenother'
      })]
    };

    expect(readError(collection)).toBe('ambiguousCluster');
    expect(readOk(collection, 'c-m-other').token).toBe('tokenother');
    expect(readError(collection, 'c-m-missing')).toBe('clusterNotFound');
  });

  it('reads the token from a Secret in the same kubectl List (Rancher 2.14+ keeps `{token}` in the commands)', () => {
    const list = {
      apiVersion: 'v1',
      kind:       'List',
      items:      [
        kubeToken({ nodeCommand: linuxCommand({ token: '{token}' }), tokenSecretName: 'default-token-secret' }),
        {
          apiVersion: 'v1', kind: 'Secret', metadata: { name: 'default-token-secret', namespace: CLUSTER }, data: { token: btoa(TOKEN) }
        },
      ],
    };

    expect(readOk(list).token).toBe(TOKEN);
    expect(readError({ ...list, items: [list.items[0]] })).toBe('tokenInSecret');
  });

  it('reads the cluster’s agent env vars that Rancher puts in front of its commands', () => {
    const env = 'HTTP_PROXY="http://proxy.corp:3128" NO_PROXY="127.0.0.0/8,10.0.0.0/8,.svc"';

    expect(readOk(normanToken({ nodeCommand: linuxCommand({ env }) })).agentEnv).toStrictEqual([
      { name: 'HTTP_PROXY', value: 'http://proxy.corp:3128' },
      { name: 'NO_PROXY', value: '127.0.0.0/8,10.0.0.0/8,.svc' },
    ]);
    const windowsOnlyEnv = normanToken({ windowsNodeCommand: windowsCommand({ env: '$env:HTTPS_PROXY="http://proxy.corp:3128";' }) });

    expect(readOk(windowsOnlyEnv).agentEnv).toStrictEqual([{ name: 'HTTPS_PROXY', value: 'http://proxy.corp:3128' }]);
  });

  it.each([
    ['an empty collection', { type: 'collection', data: [] }, 'noTokens'],
    ['an unrelated object', {
      kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x' }
    }, 'notAToken'],
    ['a token without node commands', normanToken({ nodeCommand: '', insecureNodeCommand: '' }), 'nodeCommandMissing'],
    ['an RKE1 docker command', normanToken({ nodeCommand: `sudo docker run -d --privileged rancher/rancher-agent:v2.6.9 --server ${ SERVER } --token ${ TOKEN } --ca-checksum ${ CA }` }), 'nodeCommandUnrecognised'],
    ['a server URL that tries to break out', normanToken({ nodeCommand: linuxCommand().replace(`--server ${ SERVER }`, `--server "${ SERVER }';calc;'"`) }), 'serverInvalid'],
    ['a token placeholder and no secret name', normanToken({ token: '{token}', nodeCommand: linuxCommand({ token: '{token}' }) }), 'tokenMissing'],
    ['a malformed CA checksum', normanToken({ nodeCommand: linuxCommand().replace(CA, 'abc') }), 'caChecksumInvalid'],
  ])('refuses %s', (_, input, code) => {
    expect(readError(input)).toBe(code);
  });

  it('says what is missing in words, not only a code', () => {
    const result = readRegistrationToken(normanToken({ nodeCommand: '', insecureNodeCommand: '' }));

    expect(isTokenError(result) && formatMessage(result.error.messageKey, result.error.args)).toBe(
      `Token default-token of cluster ${ CLUSTER } has no nodeCommand. Rancher fills it in only when its server-url setting is set and the token's secret exists: check the setting, or read the token through /v3/clusterregistrationtokens.`
    );
  });
});

describe('buildRegistrationCommand, Linux', () => {
  it('builds Rancher’s command with the roles, everything quoted', () => {
    expect(buildRegistrationCommand(token, options()).command).toBe(`${ LINUX_BASE } --etcd --controlplane --worker`);
  });

  it('emits roles in Rancher’s order, once each', () => {
    expect(buildRegistrationCommand(token, options({ roles: ['worker', 'etcd', 'worker'] })).command).toBe(`${ LINUX_BASE } --etcd --worker`);
  });

  it('uses curl --insecure and keeps the CA checksum, as Rancher does', () => {
    expect(buildRegistrationCommand(token, options({ roles: ['worker'], insecure: true })).command).toBe(
      `curl --insecure -fL '${ SERVER }/system-agent-install.sh' | sudo sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --ca-checksum '${ CA }' --worker`
    );
  });

  it('leaves out --ca-checksum when the token has none', () => {
    const { caChecksum, ...withoutCa } = token;

    expect(caChecksum).toBe(CA);
    expect(buildRegistrationCommand(withoutCa, options({ roles: ['worker'] })).command).toBe(
      `curl -fL '${ SERVER }/system-agent-install.sh' | sudo sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --worker`
    );
  });

  it('adds address, internal address, node name, labels and taints in Rancher’s order', () => {
    const built = buildRegistrationCommand(token, options({
      roles:           ['worker'],
      nodeName:        'worker-01',
      address:         '203.0.113.10',
      internalAddress: '10.0.0.10,fd00::10',
      labels:          ['env=prod', 'example.com/tier=web'],
      taints:          ['dedicated=gpu:NoSchedule', 'maintenance=:NoExecute'],
    }));

    expect(built.command).toBe(`${ LINUX_BASE } --worker --address '203.0.113.10' --internal-address '10.0.0.10,fd00::10' --node-name 'worker-01' --label 'env=prod' --label 'example.com/tier=web' --taints 'dedicated=gpu:NoSchedule' --taints 'maintenance=:NoExecute'`);
    expect(built.nodeName).toBe('worker-01');
  });

  it('lower-cases the node name', () => {
    const built = buildRegistrationCommand(token, options({ roles: ['worker'], nodeName: 'Worker-01' }));

    expect(built.command).toBe(`${ LINUX_BASE } --worker --node-name 'worker-01'`);
    expect(built.nodeName).toBe('worker-01');
  });

  it('passes proxies to curl and, through sudo, to the installer', () => {
    const built = buildRegistrationCommand(token, options({
      roles: ['worker'], httpProxy: 'http://proxy.corp:3128', httpsProxy: 'http://proxy.corp:3128', noProxy: '127.0.0.1,10.0.0.0/8,.svc,.corp'
    }));
    const env = `HTTP_PROXY='http://proxy.corp:3128' HTTPS_PROXY='http://proxy.corp:3128' NO_PROXY='127.0.0.1,10.0.0.0/8,.svc,.corp'`;

    expect(built.command).toBe(`${ env } curl -fL '${ SERVER }/system-agent-install.sh' | sudo ${ env } sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --ca-checksum '${ CA }' --worker`);
  });

  it('keeps the cluster’s agent env vars and lets an explicit proxy replace the cluster’s', () => {
    const withEnv = {
      ...token,
      agentEnv: [{ name: 'HTTPS_PROXY', value: 'http://old:3128' }, { name: 'CATTLE_AGENT_LOGLEVEL', value: 'debug' }]
    };
    const built = buildRegistrationCommand(withEnv, options({ roles: ['worker'], httpsProxy: 'http://new:3128' }));
    const env = `CATTLE_AGENT_LOGLEVEL='debug' HTTPS_PROXY='http://new:3128'`;

    expect(built.command).toBe(`${ env } curl -fL '${ SERVER }/system-agent-install.sh' | sudo ${ env } sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --ca-checksum '${ CA }' --worker`);
  });

  it('never emits an env var whose name would need quoting', () => {
    const hostile = { ...token, agentEnv: [{ name: 'X;reboot', value: 'a' }, { name: 'OK_NAME', value: 'b' }] };

    expect(buildRegistrationCommand(hostile, options({ roles: ['worker'] })).command).toMatch(/^OK_NAME='b' curl /);
  });

  it('shows a masked token and proxy password on screen, the real ones on the clipboard', () => {
    const built = buildRegistrationCommand(token, options({ roles: ['worker'], httpsProxy: 'http://svc-reg:S3cret@proxy.corp:3128' }));

    expect(built.command).toContain(`--token '${ TOKEN }'`);
    expect(built.command).toContain('http://svc-reg:S3cret@proxy.corp:3128');
    expect(built.maskedCommand).toBe(built.command.split(TOKEN).join(TOKEN_MASK).split('S3cret').join(TOKEN_MASK));
    expect(built.maskedCommand).not.toContain(TOKEN);
    expect(built.maskedCommand).not.toContain('S3cret');
  });

  it('quotes hostile values instead of letting them run', () => {
    const built = buildRegistrationCommand(token, options({
      roles: ['worker'], nodeName: `x'; reboot; '`, labels: ['a=$(id)`id`']
    }));

    expect(built.command).toBe(`${ LINUX_BASE } --worker --node-name 'x'\\''; reboot; '\\''' --label 'a=$(id)\`id\`'`);
  });
});

describe('buildRegistrationCommand, Windows', () => {
  const windows = (extra: Partial<RegistrationOptions> = {}) => options({
    os: 'windows', roles: ['worker'], ...extra
  });

  it('builds Rancher’s PowerShell command', () => {
    expect(buildRegistrationCommand(token, windows()).command).toBe(`${ WINDOWS_INSTALL } -Label 'cattle.io/os=windows' ${ WINDOWS_TAIL }`);
  });

  it('uses curl.exe --insecure when asked', () => {
    expect(buildRegistrationCommand(token, windows({ insecure: true })).command).toBe(
      `curl.exe --insecure -fL '${ SERVER }/wins-agent-install.ps1' -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server '${ SERVER }' -Label 'cattle.io/os=windows' ${ WINDOWS_TAIL }`
    );
  });

  it('always registers a worker, whatever roles were passed unvalidated', () => {
    expect(buildRegistrationCommand(token, windows({ roles: ['etcd'] })).command).toBe(`${ WINDOWS_INSTALL } -Label 'cattle.io/os=windows' ${ WINDOWS_TAIL }`);
  });

  it('lower-cases an upper-case node name and sets CATTLE_NODE_NAME too', () => {
    const built = buildRegistrationCommand(token, windows({ nodeName: 'WIN-WORKER-01' }));

    expect(built.command).toBe(`$env:CATTLE_NODE_NAME='win-worker-01'; ${ WINDOWS_INSTALL } -Label 'cattle.io/os=windows' ${ WINDOWS_TAIL } -NodeName 'win-worker-01'`);
    expect(built.nodeName).toBe('win-worker-01');
  });

  it('names the node after an upper-case host name when no node name is given', () => {
    expect(buildRegistrationCommand(token, windows({ hostname: 'WIN-WORKER-02' })).command).toBe(
      `$env:CATTLE_NODE_NAME='win-worker-02'; ${ WINDOWS_INSTALL } -Label 'cattle.io/os=windows' ${ WINDOWS_TAIL } -NodeName 'win-worker-02'`
    );
    expect(buildRegistrationCommand(token, windows({ hostname: 'win-worker-02' })).nodeName).toBeUndefined();
  });

  it('puts all labels into one -Label and all taints into one -Taint, as the installer takes a single string', () => {
    const built = buildRegistrationCommand(token, windows({
      labels: ['env=prod', 'tier=web'], taints: ['os=windows:NoSchedule', 'gpu=true:NoExecute'], address: '203.0.113.20', internalAddress: '10.0.0.20'
    }));

    expect(built.command).toBe(`${ WINDOWS_INSTALL } -Label 'cattle.io/os=windows,env=prod,tier=web' ${ WINDOWS_TAIL } -Address '203.0.113.20' -InternalAddress '10.0.0.20' -Taint 'os=windows:NoSchedule,gpu=true:NoExecute'`);
  });

  it('sets proxies as $env: variables before curl.exe', () => {
    const built = buildRegistrationCommand(token, windows({ httpProxy: 'http://proxy.corp:3128', noProxy: '10.0.0.0/8' }));

    expect(built.command).toBe(`$env:HTTP_PROXY='http://proxy.corp:3128'; $env:NO_PROXY='10.0.0.0/8'; ${ WINDOWS_INSTALL } -Label 'cattle.io/os=windows' ${ WINDOWS_TAIL }`);
  });

  it('doubles typographic single quotes, which PowerShell also ends strings at', () => {
    const built = buildRegistrationCommand(token, windows({ nodeName: 'o’brien' }));

    expect(built.command).toContain(`-NodeName 'o’’brien'`);
  });

  it('masks the token', () => {
    const built = buildRegistrationCommand(token, windows());

    expect(built.maskedCommand).toBe(`${ WINDOWS_INSTALL } -Label 'cattle.io/os=windows' -Token '${ TOKEN_MASK }' -Worker -CaChecksum '${ CA }'`);
  });
});

describe('validateRegistrationOptions', () => {
  const codes = (extra: Partial<RegistrationOptions>) => validateRegistrationOptions(options(extra)).map((p) => `${ p.field }:${ p.code }`);
  const only = (extra: Partial<RegistrationOptions>): ValidationProblem => {
    const problems = validateRegistrationOptions(options(extra));

    expect(problems).toHaveLength(1);

    return problems[0];
  };
  const message = (p: ValidationProblem) => formatMessage(p.messageKey, p.args);

  it('accepts a complete, valid set of options', () => {
    expect(validateRegistrationOptions(options({
      nodeName:        'worker-01.example.com',
      address:         '203.0.113.10,2001:db8::10',
      internalAddress: 'node01.internal',
      labels:          ['env=prod', 'example.com/tier=web', 'empty='],
      taints:          ['dedicated=gpu:NoSchedule', 'k=:PreferNoSchedule'],
      httpProxy:       'http://proxy.corp:3128',
      httpsProxy:      'https://user:pw@proxy.corp:3129/',
      noProxy:         'localhost,127.0.0.1,10.0.0.0/8,fd00::/8,.svc,.cluster.local,*.corp,registry:5000',
    }))).toStrictEqual([]);
  });

  it('explains upper case in a node name as a warning and says which name the command uses', () => {
    const problem = only({
      os: 'windows', roles: ['worker'], nodeName: 'WIN-WORKER-01'
    });

    expect(problem).toMatchObject({
      field: 'nodeName', code: 'nodeNameUpperCase', severity: 'warning'
    });
    expect(message(problem)).toBe('"WIN-WORKER-01" has upper case letters: Kubernetes lower-cases node names, so the command registers win-worker-01.');
    expect(hasErrors([problem])).toBe(false);
  });

  it.each([
    ['win worker', 'nodeNameSpace', 'Node name "win worker" contains a space: only lower case letters, digits, "-" and "." are allowed.', 'win-worker'],
    ['worker_01', 'nodeNameCharacter', 'Node name "worker_01" contains "_": only lower case letters, digits, "-" and "." are allowed.', 'worker-01'],
    ['-worker', 'nodeNameEdge', 'Part "-worker" of node name "-worker" must start and end with a letter or digit.', 'worker'],
    ['worker..example', 'nodeNameEmptyPart', 'Node name "worker..example" has an empty part between dots, or starts or ends with a dot.', 'worker.example'],
    [`${ 'a'.repeat(64) }.example`, 'nodeNamePartTooLong', `Part "${ 'a'.repeat(64) }" of node name "${ 'a'.repeat(64) }.example" has 64 characters; each part between dots may have at most 63.`, undefined],
    [`${ 'a'.repeat(60) }.example`, 'nodeNameTooLongForLabel', `Node name "${ 'a'.repeat(60) }.example" has 68 characters: Rancher stores it in the label rke.cattle.io/node-name, whose values may have at most 63.`, undefined],
    [Array(5).fill('a'.repeat(60)).join('.'), 'nodeNameTooLong', `Node name "${ Array(5).fill('a'.repeat(60)).join('.') }" has 304 characters; at most 253 are allowed.`, undefined],
  ])('says which node name rule %s breaks', (nodeName, code, text, suggestion) => {
    const problem = only({ nodeName });

    expect(problem).toMatchObject({
      field: 'nodeName', code, severity: 'error'
    });
    expect(message(problem)).toBe(text);
    expect(problem.args.suggestion).toBe(suggestion);
  });

  it('warns about upper case and still reports the rule the lower-cased name breaks', () => {
    expect(codes({ nodeName: 'WIN_01' })).toStrictEqual(['nodeName:nodeNameUpperCase', 'nodeName:nodeNameCharacter']);
  });

  it('checks an upper-case host name only when it would become the node name', () => {
    expect(codes({ hostname: 'WIN_01' })).toStrictEqual(['hostname:nodeNameUpperCase', 'hostname:nodeNameCharacter']);
    expect(codes({ hostname: 'win_01' })).toStrictEqual([]);
    expect(codes({ hostname: 'WIN_01', nodeName: 'win-01' })).toStrictEqual([]);
    expect(effectiveNodeName({ hostname: 'WIN-01' })).toBe('win-01');
  });

  it('checks roles', () => {
    expect(codes({ roles: [] })).toStrictEqual(['roles:rolesEmpty']);
    expect(codes({ roles: ['master' as never, 'worker'] })).toStrictEqual(['roles:roleUnknown']);
    expect(codes({ os: 'windows', roles: ['worker'] })).toStrictEqual([]);
    expect(codes({ os: 'windows', roles: [] })).toStrictEqual([]);
    const problem = only({ os: 'windows', roles: ['etcd', 'controlplane', 'worker'] });

    expect(message(problem)).toBe('Windows nodes can only be workers; remove etcd, controlplane.');
    expect(codes({ os: 'macos' as never })).toStrictEqual(['os:osUnknown']);
  });

  it.each([
    ['env', 'labelFormat', 'Label "env" has no "=": write it as key=value.'],
    ['=prod', 'labelKeyEmpty', 'The label key is empty.'],
    ['Example.com/env=prod', 'labelKeyPrefix', 'Label key "Example.com/env": the prefix "Example.com" before "/" must be a DNS name (lower case letters, digits, "-" and ".").'],
    [`${ 'k'.repeat(64) }=v`, 'labelKeyNameTooLong', `Label key "${ 'k'.repeat(64) }": the name "${ 'k'.repeat(64) }" has 64 characters; at most 63 are allowed.`],
    ['env-=prod', 'labelKeyName', 'Label key "env-": the name "env-" may only contain letters, digits, "-", "_" and ".", and must start and end with a letter or digit.'],
    [`env=${ 'v'.repeat(64) }`, 'labelValueTooLong', 'Label "env": the value has 64 characters; at most 63 are allowed.'],
    ['env=pr od', 'labelValue', 'Label "env": the value "pr od" may only contain letters, digits, "-", "_" and ".", and must start and end with a letter or digit.'],
    ['cattle.io/os=windows', 'labelReserved', 'The command sets the label cattle.io/os itself, from the operating system chosen; remove it.'],
  ])('says what is wrong with label %s', (label, code, text) => {
    const problem = only({ labels: ['ok=1', label] });

    expect(problem).toMatchObject({
      field: 'labels', code, index: 1
    });
    expect(message(problem)).toBe(text);
  });

  it('reports a label key given twice', () => {
    expect(codes({ labels: ['env=a', 'env=b'] })).toStrictEqual(['labels:labelDuplicate']);
  });

  it.each([
    ['dedicated:NoSchedule', 'taintFormat', 'Taint "dedicated:NoSchedule" must be key=value:Effect (the value may be empty, the "=" may not): Rancher silently drops taints in any other form.'],
    ['dedicated=gpu', 'taintFormat', 'Taint "dedicated=gpu" must be key=value:Effect (the value may be empty, the "=" may not): Rancher silently drops taints in any other form.'],
    ['dedicated=gpu:NoScheduled', 'taintEffect', 'Taint "dedicated=gpu:NoScheduled": the effect "NoScheduled" must be one of NoSchedule, PreferNoSchedule, NoExecute.'],
    ['Bad.Prefix/k=v:NoSchedule', 'taintKeyPrefix', 'Taint key "Bad.Prefix/k": the prefix "Bad.Prefix" before "/" must be a DNS name (lower case letters, digits, "-" and ".").'],
    ['k=v v:NoSchedule', 'taintValue', 'Taint "k": the value "v v" may only contain letters, digits, "-", "_" and ".", and must start and end with a letter or digit.'],
  ])('says what is wrong with taint %s', (taint, code, text) => {
    const problem = only({ taints: [taint] });

    expect(problem).toMatchObject({
      field: 'taints', code, index: 0
    });
    expect(message(problem)).toBe(text);
  });

  it('reports the same taint key and effect twice', () => {
    expect(codes({ taints: ['k=a:NoSchedule', 'k=b:NoExecute', 'k=c:NoSchedule'] })).toStrictEqual(['taints:taintDuplicate']);
  });

  it.each([
    ['203.0.113.300', 'addressInvalid'],
    ['10.0.0.1,', 'addressEmptyEntry'],
    ['10.0.0.1, 10.0.0.2', 'addressSpace'],
    ['2001:db8:::1', 'addressInvalid'],
    ['host_name', 'addressInvalid'],
  ])('refuses address %s', (address, code) => {
    expect(codes({ address })).toStrictEqual([`address:${ code }`]);
    expect(codes({ internalAddress: address })).toStrictEqual([`internalAddress:${ code }`]);
  });

  it.each(['10.0.0.1', '::1', '2001:db8::1', '::ffff:192.0.2.1', 'fe80::1:2:3:4', 'node-1.example.com', 'Node1'])('accepts address %s', (address) => {
    expect(codes({ address })).toStrictEqual([]);
  });

  it.each([
    ['proxy.corp:3128', 'proxyScheme', 'Proxy "proxy.corp:3128" must start with http:// or https://.'],
    ['socks5://proxy.corp:1080', 'proxyScheme', 'Proxy "socks5://proxy.corp:1080" must start with http:// or https://.'],
    ['http://proxy.corp:3128/path', 'proxyPath', 'Proxy "http://proxy.corp:3128/path" must be only scheme, host and port, such as http://proxy.example.com:3128.'],
    ['http://', 'proxyInvalid', 'Proxy "http://" is not a valid URL with a host name or IP address.'],
    ['http://proxy corp', 'proxySpace', 'Proxy "http://proxy corp" contains a space.'],
  ])('refuses proxy %s', (httpProxy, code, text) => {
    const problem = only({ httpProxy });

    expect(problem).toMatchObject({ field: 'httpProxy', code });
    expect(message(problem)).toBe(text);
    expect(only({ httpsProxy: httpProxy }).field).toBe('httpsProxy');
  });

  it.each([
    ['10.0.0.0/8, .svc', 'noProxySpace'],
    ['10.0.0.0/8,,.svc', 'noProxyEmptyEntry'],
    ['10.0.0.0/33', 'noProxyEntry'],
    ['bad_host', 'noProxyEntry'],
  ])('refuses no-proxy list %s', (noProxy, code) => {
    expect(codes({ noProxy })).toStrictEqual([`noProxy:${ code }`]);
  });

  it('refuses control characters in every free-text field', () => {
    const evil = 'a\nb';

    expect(codes({
      nodeName: evil, address: evil, internalAddress: evil, labels: [`k=${ evil }`], taints: [`k=${ evil }:NoSchedule`], httpProxy: evil, httpsProxy: evil, noProxy: evil
    })).toStrictEqual([
      'nodeName:controlCharacter', 'address:controlCharacter', 'internalAddress:controlCharacter', 'labels:controlCharacter',
      'taints:controlCharacter', 'httpProxy:controlCharacter', 'httpsProxy:controlCharacter', 'noProxy:controlCharacter',
    ]);
    expect(codes({ nodeName: 'a\u001bb' })).toStrictEqual(['nodeName:controlCharacter']);
    expect(codes({ labels: ['k=a\u007fb'] })).toStrictEqual(['labels:controlCharacter']);
  });
});

describe('translations', () => {
  const l10n = (locale: string) => load(readFileSync(resolve(__dirname, `../../../pkg/node-health/l10n/${ locale }.yaml`), 'utf8')) as any;
  const flatten = (node: any, prefix: string): string[] => Object.entries(node).flatMap(([k, v]) => (v && typeof v === 'object' ? flatten(v, `${ prefix }.${ k }`) : [`${ prefix }.${ k }`]));
  const lookup = (root: any, key: string) => key.split('.').reduce((node, part) => (node ? node[part] : undefined), root);
  const en = l10n('en-us');
  const zh = l10n('zh-hans');

  it('has the same registration keys in English and Chinese', () => {
    expect(flatten(zh.nodeHealth.registration, 'registration').sort()).toStrictEqual(flatten(en.nodeHealth.registration, 'registration').sort());
  });

  it('has a text in both locales for every problem and token error the code can produce', () => {
    for (const root of [en, zh]) {
      for (const code of VALIDATION_CODES) {
        expect([code, typeof lookup(root, `nodeHealth.registration.validation.${ code }`)]).toStrictEqual([code, 'string']);
      }
      for (const code of TOKEN_ERROR_CODES) {
        expect([code, typeof lookup(root, `nodeHealth.registration.token.error.${ code }`)]).toStrictEqual([code, 'string']);
      }
    }
  });

  it('uses the same placeholders in both locales', () => {
    for (const key of flatten(en.nodeHealth.registration, 'nodeHealth.registration')) {
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

      expect([key, names(lookup(zh, key))]).toStrictEqual([key, names(lookup(en, key))]);
    }
  });
});

describe('prefillFromMachine', () => {
  const machine = {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind:       'Machine',
    metadata:   {
      name:        'custom-2d74d4c9a104',
      namespace:   'fleet-default',
      labels:      {
        'cattle.io/os':                     'linux',
        'cluster.x-k8s.io/cluster-name':    'prod',
        'cluster.x-k8s.io/control-plane':   'true',
        'rke.cattle.io/cluster-name':       'prod',
        'rke.cattle.io/control-plane-role': 'true',
        'rke.cattle.io/etcd-role':          'true',
        'rke.cattle.io/machine-id':         '6f0c1e',
        'rke.cattle.io/node-name':          'cp-01',
        env:                                'prod',
      },
      annotations: { 'rke.cattle.io/taints': '[{"key":"dedicated","value":"cp","effect":"NoSchedule"}]' },
    },
    status: { nodeRef: { kind: 'Node', name: 'cp-01-from-ref' } },
  };
  const planSecret = {
    apiVersion: 'v1',
    kind:       'Secret',
    type:       'rke.cattle.io/machine-plan',
    metadata:   {
      name:        'custom-2d74d4c9a104-machine-plan',
      annotations: {
        'rke.cattle.io/address':          '203.0.113.10',
        'rke.cattle.io/internal-address': '10.0.0.10',
        'rke.cattle.io/labels':           '{"cattle.io/os":"linux","env":"prod","rke.cattle.io/x":"y","zone":"a"}',
      },
    },
    data: { plan: 'c2VjcmV0' },
  };

  it('recovers how the node was registered', () => {
    expect(prefillFromMachine({ machine, planSecret })).toStrictEqual({
      os:              'linux',
      roles:           ['etcd', 'controlplane'],
      nodeName:        'cp-01',
      address:         '203.0.113.10',
      internalAddress: '10.0.0.10',
      labels:          ['env=prod', 'zone=a'],
      taints:          ['dedicated=cp:NoSchedule'],
      insecure:        false,
    });
  });

  it('produces options that validate and build', () => {
    const prefilled = prefillFromMachine({ machine, planSecret });

    expect(validateRegistrationOptions(prefilled)).toStrictEqual([]);
    expect(buildRegistrationCommand(token, prefilled).command).toBe(
      `${ LINUX_BASE } --etcd --controlplane --address '203.0.113.10' --internal-address '10.0.0.10' --node-name 'cp-01' --label 'env=prod' --label 'zone=a' --taints 'dedicated=cp:NoSchedule'`
    );
  });

  it('falls back to the given node name, the Node, then the node reference', () => {
    const unnamed = { ...machine, metadata: { ...machine.metadata, labels: { 'rke.cattle.io/worker-role': 'true' } } };

    expect(prefillFromMachine({ machine: unnamed, nodeName: 'given' }).nodeName).toBe('given');
    expect(prefillFromMachine({ machine: unnamed, node: { metadata: { name: 'from-node' } } }).nodeName).toBe('from-node');
    expect(prefillFromMachine({ machine: unnamed }).nodeName).toBe('cp-01-from-ref');
  });

  it('reads a Windows worker from the Steve shape', () => {
    const steve = {
      id:       'fleet-default/custom-aa',
      type:     'cluster.x-k8s.io.machine',
      metadata: {
        name:   'custom-aa',
        labels: {
          'cattle.io/os': 'windows', 'rke.cattle.io/worker-role': 'true', 'rke.cattle.io/node-name': 'WIN-WORKER-01'
        },
        state: { name: 'provisioning' }
      },
    };
    const prefilled = prefillFromMachine({ machine: steve });

    expect(prefilled).toStrictEqual({
      os: 'windows', roles: ['worker'], nodeName: 'WIN-WORKER-01', labels: [], taints: [], insecure: false
    });
    expect(buildRegistrationCommand(token, prefilled).nodeName).toBe('win-worker-01');
  });

  it('tolerates missing and malformed fields', () => {
    expect(prefillFromMachine({})).toStrictEqual({
      os: 'linux', roles: [], labels: [], taints: [], insecure: false
    });
    expect(prefillFromMachine({
      machine:    { metadata: { labels: null, annotations: { 'rke.cattle.io/taints': 'not json' } }, status: 'x' },
      planSecret: { metadata: { annotations: { 'rke.cattle.io/labels': '["a"]' } } },
    })).toStrictEqual({
      os: 'linux', roles: [], labels: [], taints: [], insecure: false
    });
    expect(prefillFromMachine(null as never).roles).toStrictEqual([]);
  });
});
