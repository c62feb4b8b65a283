/**
 * Address and host-name syntax, one reading of it for the registration command's checks and the export's
 * obfuscation alike.
 */

const OCTET = /^(0|[1-9][0-9]{0,2})$/;
const HOSTNAME_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const HOSTNAME_MAX = 253;

/** An IPv4 address as a number, or null. Octets have no leading zeros: Go's net.ParseIP, which Rancher's agents use, refuses them. */
export function parseIPv4(s: string): number | null {
  const parts = s.split('.');

  if (parts.length !== 4 || parts.some((p) => !OCTET.test(p) || Number(p) > 255)) {
    return null;
  }

  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

/** The eight 16-bit groups of an IPv6 address (also with an IPv4 tail, ::ffff:10.0.0.1), or null. */
export function parseIPv6(s: string): number[] | null {
  let text = s.toLowerCase();
  let tail: number[] = [];
  const v4 = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);

  if (v4) {
    const n = parseIPv4(v4[1]);

    if (n === null) {
      return null;
    }
    tail = [Math.floor(n / 65536), n % 65536];
    text = text.slice(0, text.length - v4[1].length);
    if (!text.endsWith('::')) {
      if (!text.endsWith(':')) {
        return null;
      }
      text = text.slice(0, -1);
    }
  }
  const halves = text.split('::');

  if (halves.length > 2) {
    return null;
  }
  const head = halves[0] === '' ? [] : halves[0].split(':');
  const rest = halves.length === 2 && halves[1] !== '' ? halves[1].split(':') : [];

  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) {
    return null;
  }
  const wanted = 8 - tail.length;
  const hex = (groups: string[]) => groups.map((g) => parseInt(g, 16));

  if (halves.length === 1) {
    return head.length === wanted ? [...hex(head), ...tail] : null;
  }
  if (head.length + rest.length >= wanted) {
    return null;
  }

  return [...hex(head), ...new Array(wanted - head.length - rest.length).fill(0), ...hex(rest), ...tail];
}

export function isIPv4(value: string): boolean {
  return parseIPv4(value) !== null;
}

export function isIPv6(value: string): boolean {
  return parseIPv6(value) !== null;
}

/** A host name (RFC 1123, any case): dot-separated parts of letters, digits and '-', at most 253 characters, not all-numeric. */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > HOSTNAME_MAX || /^[0-9.]+$/.test(value)) {
    return false;
  }

  return value.split('.').every((part) => HOSTNAME_LABEL.test(part));
}
