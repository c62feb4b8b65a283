/**
 * The report file: one HTML document that shows a diagnosis as the tab does (cluster findings, counts, the
 * table with filters, search and sort, each record's plan, findings, chain, related records, actions and host
 * report) from disk, with no server and no network, in English and Chinese. It embeds one JSON block per
 * language (data.ts) and a small renderer (viewer.ts) that lays it out with DOM calls only.
 *
 * Safe by construction: the JSON blocks are `application/json` (never run) with `<`, `>`, `&` and the line
 * separators escaped, so no text in them can end the block; the renderer sets every text as text; a
 * Content-Security-Policy forbids every request and runs only the one script and style whose hashes it names.
 */
import type { DiagnosisReport } from '../../engine';
import { STATUS_ORDER } from '../../engine';
import type { Translate } from '../translate';
import { htmlLocaleData, HTML_REPORT_LANGUAGES, LANGUAGE_NAMES } from './data';
import type { HtmlReportLanguage, HtmlReportSource } from './data';
import { cspHash } from './sha256';
import { reportViewer } from './viewer';
import { reportDetailRenderer } from './viewer-detail';

export {
  HTML_REPORT_LANGUAGES, LANGUAGE_NAMES, htmlLocaleData
} from './data';
export type {
  HtmlLocaleData, HtmlReportLanguage, HtmlReportSource
} from './data';
export { cspHash, sha256 } from './sha256';

export const HTML_REPORT_FILE = { extension: 'html', mimeType: 'text/html;charset=utf-8' } as const;

export interface HtmlReportOptions {
  /** the diagnosis, already sanitized (export/sanitizeDiagnosis): the file shows what a bundle may show */
  report: DiagnosisReport;
  /** a translator for each language the file offers */
  translators: Partial<Record<HtmlReportLanguage, Translate>>;
  /** the language it opens in */
  lang: HtmlReportLanguage;
  source: HtmlReportSource;
}

/** JSON that is safe inside a <script> element: nothing in it can close the element or open a comment. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${ c.charCodeAt(0).toString(16).padStart(4, '0') }`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${ c.charCodeAt(0) };`);
}

/**
 * The renderer as the file runs it. A compiler may have renamed helpers it keeps names with (esbuild's
 * `__name`, under tsx): a no-op stands in for it.
 */
export function viewerScript(): string {
  const source = `"use strict";var __name=function(f){return f;};(${ reportViewer.toString() })(document,window,(${ reportDetailRenderer.toString() }));`;

  if (/<\/script|<!--|<script/i.test(source)) {
    throw new Error('the report renderer must not contain script tags or comment openers');
  }

  return source;
}

export const REPORT_STYLE = `
:root{color-scheme:light dark;--fg:#1b1c21;--muted:#6c6c76;--bg:#fff;--line:#dcdee7;--accent:#3d98d3;--err:#d32f2f;--warn:#e49a00;--ok:#5d995d;--unk:#8a8a8a;--soft:#f4f5fa}
@media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--muted:#a0a0a8;--bg:#1b1c21;--line:#3a3b44;--soft:#25262d}}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;color:var(--fg);background:var(--bg)}
#nh-report{max-width:1400px;margin:0 auto;padding:16px 24px}
h1{font-size:22px;margin:0}h3{font-size:17px;margin:16px 0 8px}h4{font-size:15px;margin:14px 0 6px}h5{font-size:14px;margin:0 0 4px;display:flex;gap:6px;align-items:center;flex-wrap:wrap}h6{font-size:13px;margin:8px 0 4px}
.title-row{display:flex;justify-content:space-between;align-items:center;gap:12px;flex-wrap:wrap}
.muted{color:var(--muted)}
button{font:inherit;cursor:pointer;border:1px solid var(--line);background:var(--soft);color:var(--fg);border-radius:4px;padding:3px 10px}
button.link{border:0;background:none;color:var(--accent);padding:0;text-align:left}
.lang.active,.count.active{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}.facts dt{color:var(--muted)}.facts dd{margin:0;word-break:break-word}
.redacted{margin:4px 0 8px;padding-left:20px;color:var(--muted)}
.banner{border-left:4px solid var(--warn);background:var(--soft);padding:8px 12px;margin:12px 0}
.cluster{border:1px solid var(--line);border-radius:6px;padding:4px 12px 12px;margin:12px 0}
.counts{display:flex;gap:8px;flex-wrap:wrap;margin:12px 0}.count{display:flex;gap:6px;align-items:baseline}.count .n{font-weight:600;font-size:16px}
.controls{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin:8px 0}.controls label{display:flex;gap:6px;align-items:center}
.controls select,.controls input{font:inherit;padding:3px 6px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}.search{min-width:260px}
table.records{width:100%;border-collapse:collapse}table.records th{text-align:left;border-bottom:2px solid var(--line);padding:4px 6px}
table.records th button{border:0;background:none;padding:0;font-weight:600}table.records th[aria-sort=ascending] button::after{content:" \\25B2"}table.records th[aria-sort=descending] button::after{content:" \\25BC"}
table.records td{border-bottom:1px solid var(--line);padding:4px 6px;vertical-align:top;word-break:break-word}
tr.row{cursor:pointer}tr.row:hover{background:var(--soft)}tr.detail-row>td{background:var(--soft);padding:8px 16px}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;border:1px solid var(--line);margin-right:4px}
.status-error .badge.status-error,.badge.sev-error,.badge.bad{background:var(--err);color:#fff;border-color:var(--err)}
.badge.status-warning,.badge.sev-warning{background:var(--warn);color:#000;border-color:var(--warn)}
.badge.status-healthy,.badge.ok,.badge.confirmed{background:var(--ok);color:#fff;border-color:var(--ok)}
.badge.status-unknown,.badge.sev-info{background:var(--unk);color:#fff;border-color:var(--unk)}
.badge.status-error{background:var(--err);color:#fff}
.finding{border-left:3px solid var(--line);padding:4px 10px;margin:8px 0;background:var(--bg)}.finding.sev-error{border-color:var(--err)}.finding.sev-warning{border-color:var(--warn)}
.finding .rule{color:var(--muted);font-size:12px}
.evidence table{border-collapse:collapse;font-size:13px}.evidence td{padding:1px 8px 1px 0;vertical-align:top}.evidence .path,.evidence .value{font-family:ui-monospace,Menlo,Consolas,monospace}
.plan{border:1px solid var(--accent);border-radius:6px;padding:4px 12px;margin:8px 0;background:var(--bg)}.root-cause{font-weight:600}
.steps li{margin:4px 0}.command{display:flex;gap:8px;align-items:flex-start;margin:4px 0}
.command pre{margin:0;padding:6px 8px;background:var(--soft);border:1px solid var(--line);border-radius:4px;white-space:pre-wrap;word-break:break-all;flex:1;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
.timeline{padding-left:20px}.timeline li{margin:4px 0}.timeline pre.log{max-height:240px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px}.chain{padding-left:20px}.chain li{margin:2px 0}.chain .name{margin-left:6px;font-family:ui-monospace,Menlo,Consolas,monospace}.chain .muted{margin-left:6px}
.link.state-missing .badge,.link.state-failed .badge{background:var(--err);color:#fff}.link.state-present .badge{background:var(--ok);color:#fff}
.checks{list-style:none;padding-left:12px}.actions>li{margin:6px 0}
.pager{display:flex;gap:12px;align-items:center;margin:8px 0}
`;

/** The report file. */
export function renderHtmlReport(options: HtmlReportOptions): string {
  const languages = HTML_REPORT_LANGUAGES.filter((l) => options.translators[l]);

  if (!languages.includes(options.lang)) {
    throw new RangeError(`no translator for ${ options.lang }`);
  }
  const blocks = languages.map((lang) => {
    const data = htmlLocaleData(options.report, options.translators[lang] as Translate, lang, options.source);

    return `<script type="application/json" id="nh-data-${ lang }">${ scriptSafeJson(data) }</script>`;
  });
  const meta = {
    initial: options.lang, languages: languages.map((code) => ({ code, name: LANGUAGE_NAMES[code] })), statuses: STATUS_ORDER
  };
  const script = viewerScript();
  const style = REPORT_STYLE;
  const t = options.translators[options.lang] as Translate;
  const csp = [
    "default-src 'none'", `script-src ${ cspHash(script) }`, `style-src ${ cspHash(style) }`, "img-src 'none'", "connect-src 'none'",
    "font-src 'none'", "media-src 'none'", "object-src 'none'", "frame-src 'none'", "worker-src 'none'", "manifest-src 'none'",
    "base-uri 'none'", "form-action 'none'",
  ].join('; ');

  return [
    '<!DOCTYPE html>',
    `<html lang="${ escapeHtml(options.lang) }">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${ escapeHtml(csp) }">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="node-health ${ escapeHtml(options.source.extensionVersion ?? '') }">`,
    `<title>${ escapeHtml(t('nodeHealth.report.title')) }</title>`,
    `<style>${ style }</style>`,
    '</head>',
    '<body>',
    `<div id="nh-report"><noscript>${ escapeHtml(t('nodeHealth.htmlReport.noScript')) }</noscript></div>`,
    ...blocks,
    `<script type="application/json" id="nh-meta">${ scriptSafeJson(meta) }</script>`,
    `<script>${ script }</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
