import {
  isHostname, isIPv4, isIPv6, parseIPv4, parseIPv6
} from '@pkg/node-health/engine';
import { validateRegistrationOptions } from '@pkg/node-health/registration';
import type { RegistrationOptions } from '@pkg/node-health/registration';

/*
 * The registration command's checks and the export's obfuscation read addresses and host names with the same
 * functions. Where their two former readings disagreed, these cases fix the one kept: Go's net.ParseIP (what
 * Rancher's agents parse with) for addresses, RFC 1123 for host names.
 */
describe('one reading of addresses and host names', () => {
  it.each(['010.0.0.1', '10.0.0.01', '00.1.2.3'])('an IPv4 octet with a leading zero is no address: %s', (text) => {
    expect(parseIPv4(text)).toBeNull();
    expect(isIPv4(text)).toBe(false);
  });

  it.each([['0.0.0.0', 0], ['10.0.0.1', 167772161], ['255.255.255.255', 4294967295]])('IPv4 %s', (text, value) => {
    expect(parseIPv4(text)).toBe(value);
    expect(isIPv4(text)).toBe(true);
  });

  it('an IPv6 address with an IPv4 tail holds the same rule', () => {
    expect(parseIPv6('::ffff:010.0.0.1')).toBeNull();
    expect(isIPv6('::ffff:010.0.0.1')).toBe(false);
    expect(parseIPv6('::ffff:10.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001]);
    expect(isIPv6('::ffff:10.0.0.1')).toBe(true);
    expect(isIPv6('fe80::1')).toBe(true);
    expect(isIPv6('1::2::3')).toBe(false);
  });

  it('an all-numeric dotted name is no host name, however it is split', () => {
    expect(isHostname('1.2.3')).toBe(false);
    expect(isHostname('10.0.0.1')).toBe(false);
    expect(isHostname('node-1.example.com')).toBe(true);
    expect(isHostname('1node')).toBe(true);
  });

  it('a host name is at most 253 characters, each part at most 63', () => {
    const part = 'a'.repeat(63);
    const longest = [part, part, part, 'a'.repeat(61)].join('.');

    expect(longest).toHaveLength(253);
    expect(isHostname(longest)).toBe(true);
    expect(isHostname(`${ longest }a`)).toBe(false);
    expect(isHostname(`${ 'a'.repeat(64) }.example.com`)).toBe(false);
  });

  it('the registration check refuses a leading-zero address as the node\'s address', () => {
    const options: RegistrationOptions = {
      os: 'linux', roles: ['worker'], labels: [], taints: [], insecure: false, address: '010.0.0.1'
    };
    const fields = validateRegistrationOptions(options).map((p) => p.field);

    expect(fields).toContain('address');
    expect(validateRegistrationOptions({ ...options, address: '10.0.0.1' }).map((p) => p.field)).not.toContain('address');
  });
});
