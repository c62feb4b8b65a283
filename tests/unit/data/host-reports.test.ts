/** Reading host reports in the tab: pasted text, uploaded files in Windows' encodings, session storage. */
import {
  decodeUpload, loadSessionHostReports, mergeHostReports, readHostReportText, saveSessionHostReports, MAX_HOST_REPORT_BYTES
} from '@pkg/node-health/data';
import { buildScenario } from '../../../scenarios/catalog';
import { ghostHostReport } from '../../../scenarios/host-reports';

const ghost = buildScenario('ghost-etcd');
const doc = ghostHostReport(ghost);
const text = JSON.stringify(doc);

function memoryStorage(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();

  return {
    data,
    length:     0,
    clear:      () => data.clear(),
    key:        () => null,
    getItem:    (k: string) => data.get(k) ?? null,
    setItem:    (k: string, v: string) => {
      data.set(k, v);
    },
    removeItem: (k: string) => {
      data.delete(k);
    },
  };
}

describe('host reports in the tab', () => {
  it('reads one report, a list of them, and says why other text is not one', () => {
    expect(readHostReportText(text).reports.map((r) => r.hostname)).toEqual(['dev-k8s-node01']);
    expect(readHostReportText(JSON.stringify([doc, { ...doc, hostname: 'b' }])).reports).toHaveLength(2);
    expect(readHostReportText('  ')).toEqual({ reports: [], errors: [] });
    expect(readHostReportText('{"kind": "Node"}', 'node.json').errors).toEqual(['node.json: expected a JSON document with "format": "node-health-host/v1"']);
    expect(readHostReportText('{', 'x').errors[0]).toMatch(/^x: not JSON/);
    expect(readHostReportText(`"${ 'a'.repeat(MAX_HOST_REPORT_BYTES + 1) }"`).errors).toEqual(['larger than a host report can be']);
  });

  it('redacts what a report should not carry, by the export\'s rules', () => {
    const r = readHostReportText(JSON.stringify({ ...doc, notes: ['password=hunter2-secret', 'Authorization: Bearer abcdef0123456789'] })).reports[0];

    expect(r.notes).toEqual(['password=[redacted]', 'Authorization: [redacted]']);
  });

  it('decodes uploads in UTF-8, UTF-8 with a byte order mark, and UTF-16 as Windows PowerShell writes them', () => {
    const utf8 = new TextEncoder().encode(text);
    const bom = new Uint8Array([0xEF, 0xBB, 0xBF, ...utf8]);
    const utf16 = new Uint8Array(2 + text.length * 2);

    utf16.set([0xFF, 0xFE]);
    for (let i = 0; i < text.length; i++) {
      utf16[2 + i * 2] = text.charCodeAt(i) & 0xFF;
      utf16[3 + i * 2] = text.charCodeAt(i) >> 8;
    }
    for (const bytes of [utf8, bom, utf16]) {
      expect(readHostReportText(decodeUpload(bytes)).reports[0]?.connectionInfo.secretName).toBe('custom-f489526f114a-machine-plan');
    }
  });

  it('keeps the same report once, the newest copy last', () => {
    const [a] = readHostReportText(text).reports;
    const [b] = readHostReportText(JSON.stringify({ ...doc, collectedAt: '2026-01-15T09:00:00Z' })).reports;
    const [a2] = readHostReportText(text).reports;

    expect(mergeHostReports([a, b], [a2])).toEqual([b, a2]);
  });

  it('keeps reports in session storage per cluster, and survives junk or a full storage', () => {
    const storage = memoryStorage();
    const reports = readHostReportText(text).reports;

    saveSessionHostReports(storage, 'c-m-1', reports);
    expect(loadSessionHostReports(storage, 'c-m-1')).toEqual(reports);
    expect(loadSessionHostReports(storage, 'c-m-2')).toEqual([]);
    storage.setItem('node-health:host-reports:c-m-3', '{junk');
    expect(loadSessionHostReports(storage, 'c-m-3')).toEqual([]);
    saveSessionHostReports(storage, 'c-m-1', []);
    expect(storage.data.size).toBe(1);
    const full = {
      ...storage,
      setItem: () => {
        throw new Error('QuotaExceededError');
      }
    };

    expect(() => saveSessionHostReports(full, 'c-m-1', reports)).not.toThrow();
    expect(loadSessionHostReports(null, 'c-m-1')).toEqual([]);
  });
});
