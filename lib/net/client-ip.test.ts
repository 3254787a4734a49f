import { describe, expect, it } from 'vitest';
import { ipLimitKey } from './client-ip.js';

describe('ipLimitKey', () => {
  it('keeps an IPv4 address and unwraps an IPv4-mapped one', () => {
    expect(ipLimitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(ipLimitKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(ipLimitKey('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64', () => {
    expect(ipLimitKey('2001:db8:1:2:a:b:c:d')).toBe('2001:db8:1:2::/64');
    expect(ipLimitKey('2001:0DB8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(ipLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(ipLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('tells different /64s apart', () => {
    expect(ipLimitKey('2001:db8:1:2::1')).not.toBe(ipLimitKey('2001:db8:1:3::1'));
  });
});
