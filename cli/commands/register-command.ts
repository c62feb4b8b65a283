/**
 * `node-health register-command`: prints the registration command for a host, built from a cluster
 * registration token saved as JSON or YAML (kubectl get clusterregistrationtoken -o yaml, or the Rancher
 * API's /v3/clusterregistrationtokens). Same builder and validation as the extension's dialog.
 *
 * stdout carries only the command (with the real token), so it can be piped or captured; problems go to
 * stderr as one line, exit status 2.
 */
import { parseArgs } from 'node:util';
import { loadAll } from 'js-yaml';

import {
  buildRegistrationCommand, hasErrors, isTokenError, readRegistrationToken, validateRegistrationOptions
} from '../../pkg/node-health/registration';
import type { Translate } from '../../pkg/node-health/report/translate';
import { cliTranslator } from '../l10n';
import type { CliIo } from '../io';
import type {
  MessageArgs, Role, ProblemField, RegistrationOptions, TargetOs, ValidationProblem
} from '../../pkg/node-health/registration';

/** Printing a command needs no file writes. */
export type RegisterCommandIo = Pick<CliIo, 'stdout' | 'stderr' | 'readFile'>;

export const EXIT_OK = 0;
export const EXIT_USAGE = 2;

export const REGISTER_COMMAND_USAGE = `Usage: node-health register-command --token <file> --os linux|windows [options]

Prints the command that registers a host with a Rancher RKE2/K3s custom cluster.

  --token <file>            cluster registration token, JSON or YAML (kubectl or /v3/clusterregistrationtokens)
  --cluster <c-m-xxxx>      the cluster whose token to use, when the file holds several clusters' tokens
  --os linux|windows
  --role etcd|controlplane|worker   repeatable; Windows nodes are workers
  --node-name <name>        lower-cased, as Kubernetes registers it
  --address <ip|host>[,<ip|host>]
  --internal-address <ip|host>[,<ip|host>]
  --label <key=value>       repeatable
  --taint <key=value:Effect>  repeatable; Effect is NoSchedule, PreferNoSchedule or NoExecute
  --insecure                download the installer without checking Rancher's certificate
  --http-proxy <url>  --https-proxy <url>  --no-proxy <list>
`;

const OPTION_OF_FIELD: Record<ProblemField, string> = {
  os:              '--os',
  roles:           '--role',
  nodeName:        '--node-name',
  hostname:        '--node-name',
  address:         '--address',
  internalAddress: '--internal-address',
  labels:          '--label',
  taints:          '--taint',
  httpProxy:       '--http-proxy',
  httpsProxy:      '--https-proxy',
  noProxy:         '--no-proxy',
};

let english: Translate | null = null;

/** The extension's English texts through the shell's message syntax, so the command line says what the dialog says. */
export function formatMessage(key: string, args: MessageArgs = {}): string {
  english = english ?? cliTranslator('en-us');

  return english(key, args);
}

function describeProblem(problem: ValidationProblem): string {
  let text = formatMessage(problem.messageKey, problem.args);

  if (problem.args.suggestion !== undefined) {
    text += ` ${ formatMessage('nodeHealth.registration.validation.suggestion', { suggestion: problem.args.suggestion }) }`;
  }

  return `${ OPTION_OF_FIELD[problem.field] }: ${ text }`;
}

class UsageError extends Error {}

function parseTokenFile(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // not JSON: kubectl's YAML, possibly several documents
  }
  try {
    const docs = loadAll(text).filter((doc) => doc !== null && doc !== undefined);

    return docs.length === 1 ? docs[0] : docs;
  } catch (e) {
    throw new UsageError(`--token: ${ path } is neither JSON nor YAML (${ (e as Error).message.split('\n')[0] })`);
  }
}

function optionsFrom(argv: string[]): { options: RegistrationOptions, tokenPath: string, cluster?: string, help: boolean } {
  let parsed;

  try {
    parsed = parseArgs({
      args:    argv,
      strict:  true,
      options: {
        token:              { type: 'string' },
        cluster:            { type: 'string' },
        os:                 { type: 'string' },
        role:               { type: 'string', multiple: true },
        'node-name':        { type: 'string' },
        address:            { type: 'string' },
        'internal-address': { type: 'string' },
        label:              { type: 'string', multiple: true },
        taint:              { type: 'string', multiple: true },
        insecure:           { type: 'boolean' },
        'http-proxy':       { type: 'string' },
        'https-proxy':      { type: 'string' },
        'no-proxy':         { type: 'string' },
        help:               { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
  const values = parsed.values;

  if (values.help) {
    return {
      options: {
        os: 'linux', roles: [], labels: [], taints: [], insecure: false
      },
      tokenPath: '',
      help:      true
    };
  }
  if (!values.token) {
    throw new UsageError('--token <file> is required');
  }
  if (values.os === undefined) {
    throw new UsageError('--os linux|windows is required');
  }
  const options: RegistrationOptions = {
    os:       values.os as TargetOs,
    roles:    (values.role ?? []) as Role[],
    labels:   values.label ?? [],
    taints:   values.taint ?? [],
    insecure: !!values.insecure,
  };
  const optional: [keyof RegistrationOptions, string | undefined][] = [
    ['nodeName', values['node-name']],
    ['address', values.address],
    ['internalAddress', values['internal-address']],
    ['httpProxy', values['http-proxy']],
    ['httpsProxy', values['https-proxy']],
    ['noProxy', values['no-proxy']],
  ];

  for (const [key, value] of optional) {
    if (value !== undefined) {
      if (value === '') {
        throw new UsageError(`${ OPTION_OF_FIELD[key as ProblemField] } needs a value`);
      }
      (options as unknown as Record<string, unknown>)[key] = value;
    }
  }
  // Windows nodes are workers: asking for no role there means the only one there is.
  if (options.os === 'windows' && !options.roles.length) {
    options.roles = ['worker'];
  }

  return {
    options, tokenPath: values.token, cluster: values.cluster, help: false
  };
}

export async function runRegisterCommand(argv: string[], io: RegisterCommandIo): Promise<number> {
  try {
    const {
      options, tokenPath, cluster, help
    } = optionsFrom(argv);

    if (help) {
      io.stdout(REGISTER_COMMAND_USAGE);

      return EXIT_OK;
    }
    const problems = validateRegistrationOptions(options);

    if (hasErrors(problems)) {
      throw new UsageError(problems.filter((p) => p.severity === 'error').map((p) => describeProblem(p).replace(/\.$/, '')).join('; '));
    }
    let text: string;

    try {
      text = io.readFile(tokenPath);
    } catch (e) {
      throw new UsageError(`--token: cannot read ${ tokenPath } (${ (e as NodeJS.ErrnoException).code || (e as Error).message })`);
    }
    const token = readRegistrationToken(parseTokenFile(text, tokenPath), { clusterId: cluster });

    if (isTokenError(token)) {
      throw new UsageError(`--token: ${ formatMessage(token.error.messageKey, token.error.args) }`);
    }
    if (options.os === 'windows' && !token.windowsAvailable) {
      io.stderr(`warning: the token has no Windows command: Rancher offers Windows workers only for RKE2 clusters\n`);
    }
    for (const warning of problems) {
      io.stderr(`warning: ${ describeProblem(warning) }\n`);
    }
    io.stdout(`${ buildRegistrationCommand(token, options).command }\n`);

    return EXIT_OK;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`node-health register-command: ${ e.message.replace(/\s*[\r\n]+\s*/g, ' ') }\n`);

      return EXIT_USAGE;
    }
    throw e;
  }
}
