/* istanbul ignore file */
/**
 * The report file's renderer: plain DOM code that lays out what data.ts embedded, in the browser that opens
 * the file, with no framework and no network. The generator (index.ts) puts this function's own source into
 * the file (Function.prototype.toString), so it is type-checked here and the same code runs under jest, tsx
 * and the extension's build. Hence its style: everything it uses is inside it, and it keeps to syntax that no
 * compiler rewrites with helpers from outside the function (no spread, destructuring, for-of, classes,
 * computed keys or typeof on objects).
 *
 * Safety: every text from the data is set with textContent or createTextNode; nothing is parsed as HTML.
 *
 * A record's detail is drawn by viewer-detail.ts, passed in as `detailRenderer` (the file embeds both sources).
 */
import type { DetailRenderer } from './viewer-detail';

export function reportViewer(doc: Document, win: Window, detailRenderer: DetailRenderer): void {
  const PAGE = 100;
  const meta = JSON.parse((doc.getElementById('nh-meta') as HTMLElement).textContent || '{}');
  const root = doc.getElementById('nh-report') as HTMLElement;
  const cache: Record<string, any> = {};
  const state = {
    lang: meta.initial as string, status: 'all', role: 'all', query: '', sort: '', desc: false, page: 0, open: {} as Record<string, boolean>
  };
  let D: any = null;
  let rows: any[] = [];
  let tableBody: HTMLElement | null = null;
  let rangeText: HTMLElement | null = null;
  let searchTimer: any = null;

  function load(lang: string): any {
    if (!cache[lang]) {
      const data = JSON.parse((doc.getElementById(`nh-data-${ lang }`) as HTMLElement).textContent || '{}');

      data.report.records.forEach((r: any, i: number) => {
        r.index = i;
      });
      cache[lang] = data;
    }

    return cache[lang];
  }

  function el(tag: string, cls?: string | null, text?: string | null, testid?: string): HTMLElement {
    const e = doc.createElement(tag);

    if (cls) {
      e.className = cls;
    }
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    if (testid) {
      e.setAttribute('data-testid', testid);
    }

    return e;
  }

  function add<T extends Node>(parent: Node, child: T): T {
    parent.appendChild(child);

    return child;
  }

  function u(key: string, args?: Record<string, unknown>): string {
    const msg = D.ui[key] === undefined ? key : String(D.ui[key]);

    return args ? msg.replace(/\{(\w+)\}/g, (m: string, name: string) => (Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : m)) : msg;
  }

  function recordName(r: any): string {
    if (r.machine && r.node) {
      return `${ r.machine } (${ r.node })`;
    }

    return r.machine || r.node || r.key;
  }

  /** As the engine's leadFinding: the root cause the record's plan leads with, else its worst finding. */
  function leadFinding(r: any): any {
    const root = r.resolution ? r.resolution.rootCause : null;

    for (let i = 0; i < r.findings.length; i++) {
      if (root && r.findings[i].rule === root) {
        return r.findings[i];
      }
    }
    for (let i = 0; i < r.findings.length; i++) {
      if (r.findings[i].severity !== 'info') {
        return r.findings[i];
      }
    }

    return r.findings.length ? r.findings[0] : null;
  }

  /** A related record's button: the table searches for it, with its detail open. */
  function openRelated(x: any, name: string): void {
    const target = D.report.records.filter((o: any) => (x.machine ? o.machine === x.machine : o.node === x.node))[0];

    state.query = name;
    state.status = 'all';
    state.role = 'all';
    if (target) {
      state.open[target.key] = true;
    }
    render();
  }

  const parts = detailRenderer(doc, win, el, add, u, openRelated);
  const detail = parts.detail;
  const plan = parts.plan;
  const findings = parts.findings;

  const COLUMNS = [
    { id: 'status', label: 'colStatus' }, { id: 'cluster', label: 'colCluster' }, { id: 'machine', label: 'colMachine' }, { id: 'node', label: 'colNode' },
    { id: 'roles', label: 'colRoles' }, { id: 'os', label: 'colOs' }, { id: 'phase', label: 'colPhase' }, { id: 'finding', label: 'colFinding' },
    { id: 'since', label: 'colSince' },
  ];

  function cellText(r: any, id: string): string {
    if (id === 'status') {
      return u(`status.${ r.status }`);
    }
    if (id === 'roles') {
      return r.roles.map((x: string) => u(`role.${ x }`)).join(', ');
    }
    if (id === 'os') {
      return r.os === 'linux' || r.os === 'windows' ? u(`os.${ r.os }`) : '';
    }
    if (id === 'finding') {
      const top = leadFinding(r);

      return top ? top.title : '';
    }
    if (id === 'since') {
      return r.since || '';
    }
    const v = r[id];

    return v === null || v === undefined ? '' : String(v);
  }

  function searchText(r: any): string {
    if (r.searchText === undefined) {
      const parts = [r.cluster, r.machine, r.node, r.os, r.phase, r.roles.join(' '), u(`status.${ r.status }`), u(`planState.${ r.plan }`)];

      r.findings.forEach((f: any) => parts.push(f.rule, f.title));
      r.searchText = parts.filter((p: any) => !!p).join('\n').toLowerCase();
    }

    return r.searchText;
  }

  function select(): void {
    const query = state.query.trim().toLowerCase();
    const words = query ? query.split(/\s+/) : [];

    rows = D.report.records.filter((r: any) => (state.status === 'all' || r.status === state.status) &&
      (state.role === 'all' || r.roles.indexOf(state.role) >= 0) &&
      words.every((w: string) => searchText(r).indexOf(w) >= 0));
    if (state.sort) {
      const id = state.sort;
      const sign = state.desc ? -1 : 1;
      const key = (r: any) => (id === 'since' ? (r.sinceMs === null ? -1 : r.sinceMs) : cellText(r, id));

      rows = rows.map((r: any) => ({ r, k: key(r) })).sort((a: any, b: any) => {
        // Blanks last, whichever the direction.
        const blank = (a.k === '' || a.k === -1 ? 1 : 0) - (b.k === '' || b.k === -1 ? 1 : 0);
        const c = id === 'since' ? a.k - b.k : String(a.k).localeCompare(String(b.k));

        return blank || c * sign || a.r.index - b.r.index;
      }).map((x: any) => x.r);
    } else if (state.desc) {
      rows = rows.slice().reverse();
    }
    const pages = Math.max(1, Math.ceil(rows.length / PAGE));

    state.page = Math.min(state.page, pages - 1);
  }

  function renderRows(): void {
    const body = tableBody as HTMLElement;

    while (body.firstChild) {
      body.removeChild(body.firstChild);
    }
    const from = state.page * PAGE;
    const shown = rows.slice(from, from + PAGE);

    if (!shown.length) {
      const tr = add(body, el('tr'));
      const td = add(tr, el('td', 'muted', D.report.records.length ? u('noMatches') : u('noRows'), 'nh-r-empty'));

      td.setAttribute('colspan', String(COLUMNS.length));
    }
    shown.forEach((r: any) => {
      const tr = add(body, el('tr', `row status-${ r.status }`, null, 'nh-r-row'));
      const expanded = !!state.open[r.key];

      tr.setAttribute('data-key', r.key);
      COLUMNS.forEach((c) => {
        const td = add(tr, el('td', `col-${ c.id }`));

        if (c.id === 'status') {
          add(td, el('span', `badge status-${ r.status }`, cellText(r, c.id)));
        } else if (c.id === 'machine' || (c.id === 'node' && !r.machine)) {
          const b = add(td, el('button', 'link toggle', cellText(r, c.id) || '-', 'nh-r-toggle'));

          b.setAttribute('type', 'button');
          b.setAttribute('aria-expanded', expanded ? 'true' : 'false');
          b.setAttribute('aria-label', u('showDetails', { name: recordName(r) }));
        } else {
          // As the tab's table: an empty cell says so.
          td.textContent = cellText(r, c.id) || '\u2014';
        }
      });
      tr.addEventListener('click', (ev: Event) => {
        const target = ev.target as HTMLElement;

        if (target && target.closest && target.closest('.detail')) {
          return;
        }
        state.open[r.key] = !state.open[r.key];
        renderRows();
      });
      if (expanded) {
        const dr = add(body, el('tr', 'detail-row'));
        const td = add(dr, el('td'));

        td.setAttribute('colspan', String(COLUMNS.length));
        td.appendChild(detail(r));
      }
    });
    (rangeText as HTMLElement).textContent = u('rows', {
      from: rows.length ? from + 1 : 0, to: from + shown.length, total: rows.length
    });
  }

  function refresh(): void {
    select();
    renderRows();
  }

  function header(parent: HTMLElement): void {
    const head = add(parent, el('header', 'top'));
    const titleRow = add(head, el('div', 'title-row'));

    add(titleRow, el('h1', null, u('title')));
    const langs = add(titleRow, el('div', 'langs', null, 'nh-r-langs'));

    langs.setAttribute('role', 'group');
    langs.setAttribute('aria-label', u('language'));
    meta.languages.forEach((l: any) => {
      const b = add(langs, el('button', l.code === state.lang ? 'lang active' : 'lang', l.name, `nh-r-lang-${ l.code }`));

      b.setAttribute('type', 'button');
      b.setAttribute('aria-pressed', l.code === state.lang ? 'true' : 'false');
      b.addEventListener('click', () => {
        state.lang = l.code;
        render();
      });
    });
    add(head, el('p', 'muted', u('readOnly', { time: D.report.nowText }), 'nh-r-readonly'));
    const dl = add(head, el('dl', 'facts source', null, 'nh-r-source'));

    D.source.facts.forEach((f: string[]) => {
      add(dl, el('dt', null, f[0]));
      add(dl, el('dd', null, f[1]));
    });
    if (D.source.redacted.length) {
      const ul = add(head, el('ul', 'redacted', null, 'nh-r-redacted'));

      D.source.redacted.forEach((line: string) => add(ul, el('li', null, line)));
    }
  }

  function clusters(parent: HTMLElement): void {
    D.report.clusters.forEach((c: any) => {
      if (c.blockedBy.length || c.message) {
        const banner = add(parent, el('section', 'banner', null, 'nh-r-blocking'));

        banner.setAttribute('role', 'alert');
        add(banner, el('strong', null, c.blockingTitle));
        if (c.blockedBy.length) {
          const ul = add(banner, el('ul'));

          c.blockedBy.forEach((m: string) => add(ul, el('li', null, m)));
        }
        if (c.message) {
          add(banner, el('p', null, c.message));
        }
      }
      if (c.findings.length || c.notes.length) {
        const box = add(parent, el('section', 'cluster', null, 'nh-r-cluster'));

        add(box, el('h3', null, c.title));
        plan(box, c.resolution, c.findings, c.planTitle);
        findings(box, c.findings, c.resolution);
        if (c.notes.length) {
          const ul = add(box, el('ul', 'notes'));

          c.notes.forEach((n: string) => add(ul, el('li', null, n)));
        }
      }
    });
  }

  function counts(parent: HTMLElement): void {
    const box = add(parent, el('div', 'counts', null, 'nh-r-counts'));

    box.setAttribute('aria-label', u('counts'));
    meta.statuses.forEach((s: string) => {
      const b = add(box, el('button', `count status-${ s }${ state.status === s ? ' active' : '' }`, null, `nh-r-count-${ s }`));

      b.setAttribute('type', 'button');
      add(b, el('span', 'n', String(D.report.counts[s] || 0)));
      add(b, el('span', null, u(`status.${ s }`)));
      b.addEventListener('click', () => {
        state.status = state.status === s ? 'all' : s;
        state.page = 0;
        render();
      });
    });
  }

  function options(sel: HTMLSelectElement, values: string[], label: (v: string) => string, current: string): void {
    ['all'].concat(values).forEach((v) => {
      const o = add(sel, el('option', null, v === 'all' ? u('all') : label(v))) as HTMLOptionElement;

      o.value = v;
      o.selected = v === current;
    });
  }

  function controls(parent: HTMLElement): void {
    const bar = add(parent, el('div', 'controls'));
    const statusLabel = add(bar, el('label', null, u('filterStatus')));
    const status = add(statusLabel, el('select', null, null, 'nh-r-status')) as HTMLSelectElement;

    options(status, meta.statuses, (s) => u(`status.${ s }`), state.status);
    status.addEventListener('change', () => {
      state.status = status.value;
      state.page = 0;
      render();
    });
    const roleLabel = add(bar, el('label', null, u('filterRole')));
    const role = add(roleLabel, el('select', null, null, 'nh-r-role')) as HTMLSelectElement;
    const roles: string[] = [];

    D.report.records.forEach((r: any) => r.roles.forEach((x: string) => {
      if (roles.indexOf(x) < 0) {
        roles.push(x);
      }
    }));
    options(role, roles.sort(), (x) => u(`role.${ x }`), state.role);
    role.addEventListener('change', () => {
      state.role = role.value;
      state.page = 0;
      render();
    });
    const search = add(bar, el('input', 'search', null, 'nh-r-search')) as HTMLInputElement;

    search.type = 'search';
    search.placeholder = u('search');
    search.setAttribute('aria-label', u('search'));
    search.value = state.query;
    search.addEventListener('input', () => {
      win.clearTimeout(searchTimer);
      searchTimer = win.setTimeout(() => {
        state.query = search.value;
        state.page = 0;
        refresh();
      }, 120);
    });
  }

  function table(parent: HTMLElement): void {
    const t = add(parent, el('table', 'records', null, 'nh-r-table'));
    const tr = add(add(t, el('thead')), el('tr'));

    COLUMNS.forEach((c) => {
      const th = add(tr, el('th'));
      const b = add(th, el('button', 'sort', u(c.label), `nh-r-sort-${ c.id }`));

      b.setAttribute('type', 'button');
      if (state.sort === c.id || (!state.sort && c.id === 'status')) {
        th.setAttribute('aria-sort', state.desc ? 'descending' : 'ascending');
      }
      b.addEventListener('click', () => {
        const current = state.sort || 'status';

        state.desc = current === c.id ? !state.desc : false;
        state.sort = c.id === 'status' ? '' : c.id;
        render();
      });
    });
    tableBody = add(t, el('tbody'));
    const pager = add(parent, el('div', 'pager'));
    const prev = add(pager, el('button', null, u('previous'), 'nh-r-prev'));

    rangeText = add(pager, el('span', null, null, 'nh-r-range'));
    const next = add(pager, el('button', null, u('next'), 'nh-r-next'));

    prev.setAttribute('type', 'button');
    next.setAttribute('type', 'button');
    prev.addEventListener('click', () => {
      state.page = Math.max(0, state.page - 1);
      renderRows();
    });
    next.addEventListener('click', () => {
      if ((state.page + 1) * PAGE < rows.length) {
        state.page += 1;
        renderRows();
      }
    });
  }

  function hosts(parent: HTMLElement): void {
    if (!D.report.hosts.length) {
      return;
    }
    const box = add(parent, el('section', 'hosts', null, 'nh-r-hosts'));

    add(box, el('h3', null, u('hostReports')));
    const ul = add(box, el('ul'));

    D.report.hosts.forEach((h: any) => {
      const li = add(ul, el('li'));

      add(li, el('strong', null, h.host));
      add(li, doc.createTextNode(`${ u('colon') }${ h.text }`));
    });
  }

  function render(): void {
    D = load(state.lang);
    doc.documentElement.setAttribute('lang', state.lang);
    doc.title = u('title');
    while (root.firstChild) {
      root.removeChild(root.firstChild);
    }
    header(root);
    clusters(root);
    counts(root);
    controls(root);
    table(root);
    hosts(root);
    refresh();
  }

  render();
  // The benchmark (bench/report.ts) reads when the first rows were on the page.
  if (win.performance && win.performance.mark) {
    win.performance.mark('nh-report-rendered');
  }
}
