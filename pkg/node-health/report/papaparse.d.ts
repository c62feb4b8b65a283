// papaparse 5.3.0 comes with @rancher/shell but without type declarations. The export writes with unparse;
// the tests read back with parse.
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

  export interface ParseResult {
    data: string[][];
    errors: { message: string }[];
  }

  export function parse(text: string, config?: { skipEmptyLines?: boolean | 'greedy'; newline?: string }): ParseResult;
}
