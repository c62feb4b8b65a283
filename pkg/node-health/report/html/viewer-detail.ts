/* istanbul ignore file */
/**
 * A record's detail in the report file: its notes, plan, findings with their evidence and steps, chain, story,
 * related records, actions with their checks, and host. Written under the same rules as viewer.ts (the file
 * embeds this function's source and passes it to the viewer): everything it uses is inside it or passed in,
 * with no syntax a compiler rewrites with outside helpers. Every text is set as text.
 */
export type El = (tag: string, cls?: string | null, text?: string | null, testid?: string) => HTMLElement;
export type Add = <T extends Node>(parent: Node, child: T) => T;
export type Ui = (key: string, args?: Record<string, unknown>) => string;
export type DetailRenderer = typeof reportDetailRenderer;

/** What the viewer draws with: a record's detail, and the plan and findings it shows for a cluster too. */
export interface DetailParts {
  detail: (r: any) => HTMLElement;
  plan: (parent: HTMLElement, res: any, findings: any[], title: string) => void;
  findings: (parent: HTMLElement, list: any[], res: any) => void;
}

/** The functions that draw a record's detail, given the viewer's helpers and what a related record's button does. */
export function reportDetailRenderer(doc: Document, win: Window, el: El, add: Add, u: Ui, openRelated: (x: any, name: string) => void): DetailParts {
  function copyText(text: string, button: HTMLElement): void {
    const done = (ok: boolean) => {
      button.textContent = ok ? u('copied') : u('copyFailed');
      win.setTimeout(() => {
        button.textContent = u('copy');
      }, 1500);
    };
    const fallback = () => {
      const area = doc.createElement('textarea');

      area.value = text;
      doc.body.appendChild(area);
      area.select();
      let ok = false;

      try {
        ok = doc.execCommand('copy');
      } catch (e) {
        ok = false;
      }
      doc.body.removeChild(area);
      done(ok);
    };
    const clipboard = win.navigator && win.navigator.clipboard;

    if (clipboard && clipboard.writeText) {
      clipboard.writeText(text).then(() => done(true), fallback);
    } else {
      fallback();
    }
  }

  function command(parent: HTMLElement, text: string): void {
    const box = add(parent, el('div', 'command'));

    add(box, el('pre', null, text, 'nh-r-command'));
    const button = add(box, el('button', 'copy', u('copy'), 'nh-r-copy'));

    button.setAttribute('type', 'button');
    button.addEventListener('click', () => copyText(text, button));
  }

  function steps(parent: HTMLElement, list: any[]): void {
    const ol = add(parent, el('ol', 'steps'));

    list.forEach((s: any) => {
      const li = add(ol, el('li'));

      add(li, el('span', null, s.text));
      if (s.command) {
        command(li, s.command);
      }
    });
  }

  function titlesOf(findings: any[], rules: string[]): string {
    const out: string[] = [];

    rules.forEach((rule) => findings.forEach((f: any) => {
      if (f.rule === rule) {
        out.push(f.title);
      }
    }));

    return out.join(u('separator'));
  }

  function plan(parent: HTMLElement, res: any, findings: any[], title: string): void {
    if (!res || !res.steps.length) {
      return;
    }
    const box = add(parent, el('section', 'plan', null, 'nh-r-plan'));

    add(box, el('h4', null, title));
    const root = findings.filter((f: any) => f.rule === res.rootCause)[0];

    if (root) {
      add(box, el('p', 'root-cause', u('rootCause', { title: root.title })));
    }
    const consequences = titlesOf(findings, res.consequences);

    if (consequences) {
      add(box, el('p', null, u('consequences', { list: consequences })));
    }
    if (res.first && res.first.length) {
      res.first.forEach((name: string) => add(box, el('p', null, u('settleFirst', { machine: name }))));
    }
    steps(box, res.steps);
  }

  function finding(parent: HTMLElement, f: any, withSteps: boolean): void {
    const box = add(parent, el('div', `finding sev-${ f.severity }`, null, `nh-r-finding-${ f.rule }`));
    const head = add(box, el('h5'));

    add(head, el('span', `badge sev-${ f.severity }`, u(`severity.${ f.severity }`)));
    add(head, doc.createTextNode(' '));
    add(head, el('span', 'finding-title', f.title));
    add(head, el('code', 'rule', f.rule));
    if (f.confirmed) {
      add(head, el('span', 'badge confirmed', u('confirmed')));
    }
    if (f.started) {
      add(box, el('p', 'muted', f.started, 'nh-r-finding-started'));
    }
    add(box, el('p', null, f.cause));
    if (f.confirmation) {
      add(box, el('p', 'confirmation', f.confirmation));
    }
    if (f.evidence.length) {
      const details = add(box, el('details', 'evidence', null, 'nh-r-evidence'));

      details.setAttribute('open', '');
      add(details, el('summary', null, u('evidence')));
      const table = add(details, el('table'));
      // As the tab's row detail: rows in a row about the same object (what the host confirmed apart) name it once.
      const sameObject = (a: any, b: any) => !!b && a.object === b.object && !!a.confirmed === !!b.confirmed;

      f.evidence.forEach((e: any, i: number) => {
        const tr = add(table, el('tr', e.confirmed ? 'confirmed' : null));

        if (!sameObject(e, f.evidence[i - 1])) {
          const object = add(tr, el('td', 'object', e.object));
          let span = 1;

          while (sameObject(e, f.evidence[i + span])) {
            span++;
          }
          if (span > 1) {
            object.setAttribute('rowspan', String(span));
          }
        }
        add(tr, el('td', 'path', e.path));
        add(tr, el('td', 'value', e.value === null ? u('none') : String(e.value)));
      });
    }
    if (withSteps && f.fix.length) {
      add(box, el('h6', null, u('fix')));
      steps(box, f.fix);
    }
  }

  function findings(parent: HTMLElement, list: any[], res: any): void {
    const withSteps = !res || !res.steps.length;

    list.forEach((f: any) => finding(parent, f, withSteps));
  }

  function detail(r: any): HTMLElement {
    const box = el('div', 'detail', null, 'nh-r-detail');

    if (r.notes.length) {
      const ul = add(box, el('ul', 'notes'));

      r.notes.forEach((n: string) => add(ul, el('li', null, n)));
    }
    plan(box, r.resolution, r.findings, u('planTitle'));
    add(box, el('h4', null, u('findings')));
    if (!r.findings.length) {
      add(box, el('p', 'muted', u('noFindings')));
    }
    findings(box, r.findings, r.resolution);
    if (r.chain && r.chain.length) {
      add(box, el('h4', null, u('chain')));
      const ol = add(box, el('ol', 'chain', null, 'nh-r-chain'));

      r.chain.forEach((l: any) => {
        const li = add(ol, el('li', `link state-${ l.state }`));

        add(li, el('strong', null, u(`chain.kind.${ l.kind }`)));
        add(li, el('span', 'badge', u(`chain.state.${ l.state }`)));
        if (l.name) {
          add(li, el('span', 'name', l.namespace ? `${ l.namespace }/${ l.name }` : l.name));
        }
        if (l.detail) {
          add(li, el('span', 'muted', l.detail));
        }
      });
    }
    if (r.poolText || (r.timeline && r.timeline.length)) {
      add(box, el('h4', null, u('timeline')));
      if (r.poolText) {
        add(box, el('p', null, r.poolText, 'nh-r-pool'));
      }
      const tl = add(box, el('ol', 'timeline', null, 'nh-r-timeline'));

      (r.timeline || []).forEach((e: any) => {
        const li = add(tl, el('li'));

        add(li, el('span', 'muted', `${ e.at } · ${ e.source } · ${ e.object }`));
        add(li, el('div', null, e.text));
        if (e.lines && e.lines.length) {
          add(li, el('pre', 'log', e.lines.join('\n')));
        }
      });
    }
    if (r.related.length) {
      add(box, el('h4', null, u('related')));
      const ul = add(box, el('ul', 'related', null, 'nh-r-related'));

      r.related.forEach((x: any) => {
        const li = add(ul, el('li'));

        add(li, el('span', null, x.why));
        const name = x.machine || x.node;

        if (name) {
          const b = add(li, el('button', 'link', u('open')));

          b.setAttribute('type', 'button');
          b.addEventListener('click', () => openRelated(x, name));
        }
      });
    }
    if (r.actions.length) {
      add(box, el('h4', null, u('actions')));
      const ul = add(box, el('ul', 'actions', null, 'nh-r-actions'));

      r.actions.forEach((a: any) => {
        const li = add(ul, el('li'));

        add(li, el('strong', null, u(`action.${ a.id }`)));
        add(li, el('span', a.allowed ? 'badge ok' : 'badge bad', a.allowed ? u('allowed') : u('refused')));
        const checks = add(li, el('ul', 'checks'));

        a.checks.forEach((c: any) => {
          const ci = add(checks, el('li', c.ok === true ? 'ok' : (c.ok === false ? 'bad' : 'unknown')));

          add(ci, el('span', 'badge', c.ok === true ? u('passed') : (c.ok === false ? u('failed') : u('notJudged'))));
          add(ci, el('span', null, c.text));
        });
      });
    }
    if (r.host) {
      add(box, el('h4', null, r.host.title));
      const dl = add(box, el('dl', 'facts', null, 'nh-r-host'));

      r.host.facts.forEach((f: string[]) => {
        add(dl, el('dt', null, f[0]));
        add(dl, el('dd', null, f[1]));
      });
    }

    return box;
  }

  return {
    detail, plan, findings
  };
}
