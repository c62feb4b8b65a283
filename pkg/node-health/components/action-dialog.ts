/**
 * What the dialogs that write share (MachineActionDialog, RemoveFinalizersDialog extend it): the shell modal's
 * props, the request's record and context, the machine's name typed before a write, and their frame's props
 * (`frame`, bound on DialogShell): what ended the review, the write's failure, what the server said, Cancel while
 * nothing was tried and Close after, and the typed confirmation while a write is offered. Closing the dialog
 * unused, by its button, Escape or a click outside, records the cancel in the action log (`recordCancelled`).
 *
 * A dialog sets `K` (its translation keys, under which `serverSaid`, `cancel`, `close` and `confirm` are) and
 * `phase` in its data, and gives `machineName`, `outcome`, `asksName` and `recordCancelled` its own way. Vue does
 * not run an extended component's setup(): the dialog's own returns useTranslator() too.
 */
import { defineComponent } from 'vue';
import type { ActionPreflight, NodeRecord } from '../engine';
import { dialogContext, DIALOG_PROPS } from '../actions';
import type { ActionContext, ActionFailure, Eligibility, Message } from '../actions';
import { useTranslator } from '../composables/use-translator';

/** What DialogShell shows of a dialog's state. */
export interface DialogFrame {
  outcome: { text: string; testid: string } | null;
  failure: ActionFailure | null;
  serverSaid: string;
  closeLabel: string;
  confirmLabel: string | null;
  typed: string;
  'onUpdate:typed': (typed: string) => void;
}

export const ACTION_DIALOG = defineComponent({
  props: DIALOG_PROPS,

  emits: ['close'],

  setup() {
    return useTranslator();
  },

  data() {
    return {
      K:           '',
      phase:       'review' as string,
      failure:     null as ActionFailure | null,
      confirmName: '',
      attempted:   false,
    };
  },

  created() {
    if (typeof this.registerBackgroundClosing === 'function') {
      this.registerBackgroundClosing(() => this.recordCancelled());
    }
  },

  computed: {
    request(): Partial<{ record: NodeRecord; context: ActionContext }> {
      return (this.resources[0] ?? {}) as Partial<{ record: NodeRecord; context: ActionContext }>;
    },

    record(): NodeRecord {
      return (this.request.record ?? { findings: [], objects: {} }) as NodeRecord;
    },

    context(): ActionContext {
      return dialogContext(this.request.context, this.record);
    },

    /** The name the user types to confirm */
    machineName(): string {
      return '';
    },

    nameTyped(): boolean {
      return !!this.machineName && this.confirmName.trim() === this.machineName;
    },

    /** What ended the review (an info banner in its place), or null while it goes on */
    outcome(): { text: string; testid: string } | null {
      return null;
    },

    /** A write is offered: the user types the machine's name before it */
    asksName(): boolean {
      return false;
    },

    frame(): DialogFrame {
      const K = this.K;

      return {
        outcome:          this.outcome,
        failure:          this.failure,
        serverSaid:       this.tr(`${ K }.serverSaid`),
        closeLabel:       this.tr(this.phase === 'review' && !this.attempted ? `${ K }.cancel` : `${ K }.close`),
        confirmLabel:     this.asksName ? this.tr(`${ K }.confirm`, { name: this.machineName }) : null,
        typed:            this.confirmName,
        'onUpdate:typed': (typed: string) => {
          this.confirmName = typed;
        },
      };
    },
  },

  methods: {
    text(message: Message | null): string {
      return message ? this.tr(message.key, message.args) : '';
    },

    /**
     * Why a write is refused. When a check the dialog lists above made the refusal, in the same words, the reason
     * points to it rather than say its text a second time; otherwise (a refusal of its own, a check judged again
     * on the object read since) it is said in full, after `prefix` when given.
     */
    refusalText(refusal: Eligibility, listed: ActionPreflight | null, prefix?: Message): string {
      const check = refusal.check;

      if (check && listed?.checks.some((c) => c.id === check.id && c.key === refusal.reason?.key)) {
        return this.tr(`nodeHealth.preflight.refusedBy.${ check.ok === false ? 'failed' : 'unknown' }`, { check: this.tr(`nodeHealth.preflight.${ check.id }.title`) });
      }

      return [prefix ? this.text(prefix) : '', this.text(refusal.reason)].filter(Boolean).join(' ');
    },

    /** Logs the cancel when nothing was tried: the dialog's own */
    recordCancelled(): void {
      return undefined;
    },

    close() {
      this.recordCancelled();
      this.$emit('close');
    },
  },
});
