// The client a checkout counts against: an IPv4 address, or an IPv6 /64 network (one subscriber
// line), written one way whatever the notation.
import { describe, expect, it } from 'vitest';
import { clientKey, clientNetwork } from './limits.ts';

describe('clientNetwork', () => {
  it('keeps an IPv4 address, mapped into IPv6 or not', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('reduces IPv6 to its /64, however it is written', () => {
    const net = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:DB8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2::203.0.113.7',
      '2001:db8:1:2::1%eth0',
    ])
      expect(clientNetwork(ip)).toBe(net);
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves anything else as it is (an unknown address is one client)', () => {
    expect(clientNetwork('')).toBe('');
    expect(clientNetwork('not an address')).toBe('not an address');
  });
});

describe('clientKey', () => {
  it('is a hash, never the address, equal for one client', () => {
    const key = clientKey('203.0.113.7');
    expect(key).toMatch(/^checkout:[\w-]+$/);
    expect(key).not.toContain('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe(key);
    expect(clientKey('203.0.113.8')).not.toBe(key);
    expect(clientKey('2001:db8::1')).toBe(clientKey('2001:db8::2'));
  });
});
