/**
 * The shape of a catalogue entry and the small helpers rules share. A rule sees the whole joined record,
 * returns the evidence it used and its fix steps, and never produces text itself: titles, causes and steps
 * are translation keys (nodeHealth.rules.<ruleKey>.*) so every front end can show them in the user's language.
 */
import type {
  ActionId, ClusterInfo, EngineConfig, Evidence, Finding, FixStep, InputName, KubeObject, NodeRecord, RecordScope, Severity, StepAct
} from '../types';
import type { MessageArgs } from '../vocabulary';
import type { JoinContext } from '../join/result';
import type { CapiObjects } from '../capi-objects';
import type { Condition } from '../conditions';
import { conditionPath } from '../conditions';
import { evidence } from '../evidence';
import { parseTime } from '../fields';
import { quotePosix } from '../shell-quote';

export { evidence, objectLabel } from '../evidence';

export interface RuleContext extends JoinContext {
  now: number;
  config: EngineConfig;
  /** The machines that claim a node name (lower case) in a cluster: by their linked Node, else the name they expect */
  nameClaims(cluster: NodeRecord['cluster'], lowerName: string): NameClaim[];
  /** Only one record's objects were read, with its cluster's etcd and control-plane machines (engine/scoped.ts) */
  scoped?: RecordScope;
  /**
   * Whether the moment `at` (epoch ms) has come. Unlike reading `now`, a "not yet" depends on the time only until
   * then: a refresh says the judgement again up to that moment instead of judging the record at every new time.
   */
  passed(at: number): boolean;
}

/** What a rule about a whole cluster reads: the cluster, its records and the objects it was read from. */
export interface ClusterRuleInput {
  cluster: ClusterInfo;
  /** the cluster's records */
  records: NodeRecord[];
  provisioning?: KubeObject;
  management?: KubeObject;
  /** Cluster API's objects of the cluster (its CAPI Cluster, pools, health checks), where they were read */
  capi: CapiObjects;
}

/**
 * What a cluster rule returns when the records it reads cannot settle its question (a member whose health is not
 * known could tip it either way): the reason, which the cluster shows as a note, so that silence is never health.
 */
export interface NotJudged {
  notJudged: { key: string; args?: MessageArgs };
}

export interface ClusterRule {
  id: string;
  severity: Severity;
  check(input: ClusterRuleInput, ctx: RuleContext): RuleHit | NotJudged | null;
  /** Runs only when no other rule found anything about the cluster: the net under the cluster rules */
  fallback?: boolean;
  /**
   * Judges from every record of the cluster (whether any explains what the cluster says): one record's load
   * (`scoped`) reads only some, so it leaves this rule to the cluster's tab.
   */
  needsEveryRecord?: boolean;
  /** The records whose state makes the finding (an etcd member down): each carries a note that points to it */
  related?(input: ClusterRuleInput, ctx: RuleContext): NodeRecord[];
  /** What a related record's note says of that record besides the finding's own arguments */
  relatedArgs?(record: NodeRecord, input: ClusterRuleInput, ctx: RuleContext): MessageArgs;
  /** false: when another finding of the cluster explains this one, the cluster's plan leaves out its steps (as Rule's) */
  stepsWhenExplained?: false;
}

export interface NameClaim {
  record: NodeRecord;
  /** the claim is a Node linked to the machine, not only the name it expects */
  linked: boolean;
}

export interface RuleHit {
  severity?: Severity;
  args?: MessageArgs;
  evidence: Evidence[];
  fix: FixStep[];
  since: string | null;
  actions?: ActionId[];
  /** The table entry the hit reads (`<table>/<entry>`): the finding takes that entry's words */
  signal?: { id: string; titleKey: string; causeKey: string };
  /** Overrides the rule's `explains` for this hit, where what it explains depends on what it found */
  explains?: string[];
}

export interface Rule {
  id: string;
  severity: Severity;
  /** Inputs the rule cannot judge without; when one is unreadable the rule stays silent */
  needs: InputName[];
  /** Runs only when no other rule found a warning or an error on the record: the net under the catalogue */
  fallback?: boolean;
  /**
   * Rules whose findings are symptoms of this one's on the same record (a machine whose agent never checked in
   * also waits for its Node and holds back the cluster): a record's plan leads with the finding nothing explains.
   */
  explains?: readonly string[];
  /**
   * false: when another finding on the record explains this one, its steps only look for a cause that finding
   * already names (why no Node is linked, why probes fail), and the record's plan leaves them out.
   */
  stepsWhenExplained?: false;
  /**
   * Steps a finding of the whole cluster asks for too (step name: that cluster rule's id): while the record's cluster
   * has that finding, the record's plan leaves them out rather than ask every row for what the cluster asks once.
   */
  stepsTheClusterAsks?: Readonly<Record<string, string>>;
  /** One hit, or one per table entry the record shows (a Node may report several pressures at once) */
  check(record: NodeRecord, ctx: RuleContext): RuleHit | RuleHit[] | null;
}

/** A rule's hit as the finding the report carries: the rule's translation keys, its severity unless the hit says otherwise. */
export function findingOf(rule: Pick<Rule, 'id' | 'severity'>, hit: RuleHit): Finding {
  const key = ruleKey(rule.id);

  return {
    rule:     rule.id,
    severity: hit.severity ?? rule.severity,
    titleKey: hit.signal?.titleKey ?? `nodeHealth.rules.${ key }.title`,
    causeKey: hit.signal?.causeKey ?? `nodeHealth.rules.${ key }.cause`,
    args:     hit.args ?? {},
    evidence: hit.evidence,
    fix:      hit.fix,
    since:    hit.since,
    actions:  hit.actions ?? [],
    ...(hit.signal ? { signal: hit.signal.id } : {}),
    ...(hit.explains ? { explains: hit.explains } : {}),
  };
}

/** The step, marked with what it does so that a plan asks for it once (types.ts StepAct). */
export function acting(act: StepAct, s: FixStep): FixStep {
  return { ...s, act };
}

/** nodeHealth.rules keys are camelCase so that every i18n implementation can address them. */
export function ruleKey(id: string): string {
  return id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function step(ruleId: string, name: string, args?: MessageArgs, command?: string): FixStep {
  const s: FixStep = { key: `nodeHealth.rules.${ ruleKey(ruleId) }.fix.${ name }` };

  if (args && Object.keys(args).length > 0) {
    s.args = args;
  }
  if (command) {
    s.command = command;
  }

  return s;
}

/** Shared steps that several rules point to. */
export function commonStep(name: string, args?: MessageArgs, command?: string): FixStep {
  const s: FixStep = { key: `nodeHealth.fix.${ name }` };

  if (args && Object.keys(args).length > 0) {
    s.args = args;
  }
  if (command) {
    s.command = command;
  }

  return s;
}

export function conditionEvidence(object: string, c: Condition): Evidence[] {
  const path = conditionPath(c);
  const out = [evidence(object, `${ path }.status`, c.status)];

  if (c.reason) {
    out.push(evidence(object, `${ path }.reason`, c.reason));
  }
  if (c.message) {
    out.push(evidence(object, `${ path }.message`, c.message));
  }
  if (c.lastTransitionTime) {
    out.push(evidence(object, `${ path }.lastTransitionTime`, c.lastTransitionTime));
  }

  return out;
}

/**
 * Milliseconds since a timestamp, or null when it is unknown. The clock is read only for a timestamp that is
 * there: a record with none says the same at any time, and is not judged again when only the time moved.
 */
export function age(ctx: RuleContext, iso: string | null | undefined): number | null {
  const t = parseTime(iso);

  return t === null ? null : ctx.now - t;
}

/**
 * Whether a timestamp is more than `ms` old, or null when it is unknown. Asked through `passed`, so that on the
 * healthy path (not old yet) the record's judgement holds until that moment rather than depend on the clock.
 */
export function olderThan(ctx: RuleContext, iso: string | null | undefined, ms: number): boolean | null {
  const t = parseTime(iso);

  return t === null ? null : ctx.passed(t + ms);
}

/** A duration argument (see DURATION_ARGS): milliseconds, never negative, or "?" when unknown. */
export function duration(ms: number | null): number | string {
  return ms === null ? '?' : Math.max(0, ms);
}

/**
 * A shell word for a kubectl command: plain names stay readable, anything else is single-quoted. A word that
 * starts with "-" is quoted too, though quoting alone does not stop kubectl from reading it as an option:
 * names always come after "--" (see kubectl below).
 */
export function sh(value: string | null | undefined): string {
  const v = (value ?? '').replace(/\0/g, '');

  return /^[A-Za-z0-9._/:=@][A-Za-z0-9._/:=@-]*$/.test(v) ? v : quotePosix(v);
}

export interface KubectlOptions {
  namespace?: string | null;
  /** Options of the engine's own making (`-o yaml`, `--wait=false`); they go before the "--" */
  flags?: string[];
  /** Arguments of the engine's own making that follow the names (`key=value` of annotate) */
  after?: string[];
}

/**
 * A kubectl command on named objects. Names come from the cluster (or from a bundle someone sent) and are
 * untrusted: each is one quoted word after "--", so that a name such as `--all` or `-A` is read as a name
 * and never as an option. A namespace that looks like an option is given as --namespace=<word>. A command on no
 * named object (a list) ends with its flags: a "--" with nothing after it only puzzles whoever reads it.
 */
export function kubectl(verb: string, resource: string, names: (string | null | undefined)[], options: KubectlOptions = {}): string {
  const ns = options.namespace;
  const words = ['kubectl'];

  // With no namespace known, none is given (an empty `-n ''` is an error to kubectl).
  if (ns) {
    words.push(!ns.startsWith('-') ? `-n ${ sh(ns) }` : `--namespace=${ sh(ns) }`);
  }
  words.push(verb, resource, ...(options.flags ?? []));
  if (names.length || options.after?.length) {
    words.push('--', ...names.map((n) => sh(n)), ...(options.after ?? []));
  }

  return words.join(' ');
}

/** The pods a Node runs, in every namespace, with where they run: where a drain, a CNI or an eviction is looked at. */
export function podsOnNode(node: string | null | undefined): string {
  return kubectl('get', 'pods', [], { flags: ['-A', '-o wide', `--field-selector spec.nodeName=${ sh(node) }`] });
}

export function kubectlMachine(r: NodeRecord, verb: string, ...flags: string[]): string {
  return kubectl(verb, 'machines.cluster.x-k8s.io', [r.machineName], { namespace: r.machineNamespace, flags });
}
