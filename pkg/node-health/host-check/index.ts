/**
 * The host check: one read-only script per operating system (linux.sh, windows.ps1 beside this file) that
 * prints a node-health-host/v1 report. The command line prints the files (node-health host-check); the tab
 * bundles them as text (scripts.ts) and offers them for copying. Both read the same files.
 */
export const HOST_CHECK_FILES = { linux: 'linux.sh', windows: 'windows.ps1' } as const;

export type HostCheckOs = keyof typeof HOST_CHECK_FILES;

/** Where the copied commands write the report, for the user to add to Node Health. */
export const HOST_REPORT_FILE = 'node-health-host.json';

/** The line that ends the script when it is pasted as a here-document; the script itself never has it. */
export const HEREDOC_END = 'NODE_HEALTH_HOST_CHECK';

export const WINDOWS_SCRIPT_FILE = 'node-health-host-check.ps1';

/** How an administrator runs the saved Windows script; Out-File keeps the report UTF-8 (5.1's > writes UTF-16). */
export const WINDOWS_RUN = `powershell -NoProfile -ExecutionPolicy Bypass -File .\\${ WINDOWS_SCRIPT_FILE } | Out-File -Encoding utf8 ${ HOST_REPORT_FILE }`;

/**
 * What to paste into a root shell on a Linux host: the script as a quoted here-document (nothing in it is
 * expanded), its report into a file.
 */
export function linuxHostCheckCommand(script: string): string {
  if (script.split('\n').some((line) => line === HEREDOC_END)) {
    throw new RangeError(`the host check must not contain a line ${ HEREDOC_END }`);
  }

  return `sudo sh -s > ${ HOST_REPORT_FILE } <<'${ HEREDOC_END }'\n${ script.endsWith('\n') ? script : `${ script }\n` }${ HEREDOC_END }\n`;
}
