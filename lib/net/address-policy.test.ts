import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedAddress } from './address-policy.js';

describe('classifyAddress', () => {
  it.each([
    // public
    ['93.184.215.14', undefined],
    ['8.8.8.8', undefined],
    ['100.63.255.255', undefined],
    ['100.128.0.1', undefined],
    ['172.32.0.1', undefined],
    ['2606:4700::1111', undefined],
    ['2a00:1450:4001:80b::200e', undefined],
    ['64:ff9b::8.8.8.8', undefined],
    ['::ffff:93.184.215.14', undefined],
    ['2002:5db8:d70e::1', undefined],
    // IPv4 special ranges
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    // IPv6 special ranges
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    // IPv4 embedded in IPv6
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::127.0.0.1', 'loopback'],
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a00:1::', 'private'],
    // not an address
    ['localhost', 'invalid'],
    ['1.2.3', 'invalid'],
  ])('%s → %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('isAllowedAddress', () => {
  it('allows loopback only when opted in, and never private or metadata addresses', () => {
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: false })).toBe(false);
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('::1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('10.0.0.1', { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress('169.254.169.254', { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress('93.184.215.14', { allowLoopback: false })).toBe(true);
  });
});
