// papaparse 5.3.0 comes with @rancher/shell but without type declarations; only unparse is used here.
declare module 'papaparse' {
  export interface UnparseConfig {
    quotes?: boolean | boolean[];
    quoteChar?: string;
    escapeChar?: string;
    delimiter?: string;
    header?: boolean;
    newline?: string;
    skipEmptyLines?: boolean | 'greedy';
    columns?: string[];
    escapeFormulae?: boolean;
  }

  export function unparse(data: unknown[][] | { fields: string[]; data: unknown[][] }, config?: UnparseConfig): string;
}
