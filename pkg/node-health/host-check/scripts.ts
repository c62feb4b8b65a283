/**
 * The host check scripts as text, for the tab: the build includes linux.sh and windows.ps1 as strings
 * (a webpack asset/source rule, see raw-text.js; jest uses tests/setup/raw-text.js).
 */
import linux from './linux.sh';
import windows from './windows.ps1';
import type { HostCheckOs } from './index';

export const HOST_CHECK_SCRIPTS: Readonly<Record<HostCheckOs, string>> = { linux, windows };
