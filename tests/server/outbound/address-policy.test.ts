/**
 * The outbound door's address check over a table of spellings: what a person types and what the
 * WHATWG URL parser makes of it (the form the server actually reads), IPv4 written as IPv6 in
 * every way, NAT64, and the public addresses that must still pass.
 */
import { describe, expect, it } from 'vitest';
import { addressRefusal, hostRefusal, isPublicAddress } from '../../../server/lib/outbound';

/** The host of a URL as the server reads it (brackets kept, as URL.hostname gives it). */
const hostOf = (url: string) => new URL(url).hostname;

describe('addressRefusal: one check for every spelling', () => {
  const refused: [string, string][] = [
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    // IPv4-mapped, dotted and hex: judged as the IPv4 address they carry.
    ['::ffff:127.0.0.1', 'ipv4Mapped→loopback'],
    ['::ffff:7f00:1', 'ipv4Mapped→loopback'],
    ['::ffff:169.254.169.254', 'ipv4Mapped→linkLocal'],
    ['::ffff:a9fe:a9fe', 'ipv4Mapped→linkLocal'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'ipv4Mapped→linkLocal'],
    ['::ffff:10.0.0.1', 'ipv4Mapped→private'],
    ['::ffff:0.0.0.0', 'ipv4Mapped→unspecified'],
    ['::ffff:100.64.1.1', 'ipv4Mapped→carrierGradeNat'],
    // NAT64 (well-known prefix): the IPv4 address it translates to.
    ['64:ff9b::127.0.0.1', 'nat64→loopback'],
    ['64:ff9b::7f00:1', 'nat64→loopback'],
    ['64:ff9b::a9fe:a9fe', 'nat64→linkLocal'],
    ['64:ff9b::c0a8:101', 'nat64→private'],
    // Local-use NAT64, IPv4-compatible (deprecated), IPv4-translated: never a destination.
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['::127.0.0.1', 'notGlobalUnicast'],
    ['::7f00:1', 'notGlobalUnicast'],
    ['::a9fe:a9fe', 'notGlobalUnicast'],
    ['::8.8.8.8', 'notGlobalUnicast'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'reserved'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    // Not an address at all (a socket always reports one): refused.
    ['', 'notAnAddress'],
    ['localhost', 'notAnAddress'],
    ['127.1', 'notAnAddress'],
    ['0x7f.0.0.1', 'notAnAddress'],
  ];
  it.each(refused)('refuses %s (%s)', (address, reason) => {
    expect(addressRefusal(address)).toBe(reason);
    expect(isPublicAddress(address)).toBe(false);
  });

  const allowed = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '169.253.255.255',
    '2a00:1450:4001:81c::200e',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
  ];
  it.each(allowed)('lets %s through (public)', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });
});

describe('the forms the URL parser produces', () => {
  // What a tenant may type as a webhook URL, and the host the server then reads.
  const table: [string, string, string][] = [
    ['https://[::ffff:a9fe:a9fe]/', '[::ffff:a9fe:a9fe]', 'ipv4Mapped→linkLocal'],
    ['https://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe]', 'ipv4Mapped→linkLocal'],
    ['https://[0:0:0:0:0:ffff:127.0.0.1]/', '[::ffff:7f00:1]', 'ipv4Mapped→loopback'],
    ['https://[::127.0.0.1]/', '[::7f00:1]', 'notGlobalUnicast'],
    ['https://[64:ff9b::127.0.0.1]/', '[64:ff9b::7f00:1]', 'nat64→loopback'],
    ['https://[64:ff9b::169.254.169.254]/', '[64:ff9b::a9fe:a9fe]', 'nat64→linkLocal'],
    ['https://[::ffff:0:127.0.0.1]/', '[::ffff:0:7f00:1]', 'rfc6145'],
    ['https://[::]/', '[::]', 'unspecified'],
    ['https://[::1]:8443/x', '[::1]', 'loopback'],
    ['https://0/', '0.0.0.0', 'unspecified'],
    ['https://0.0.0.0/', '0.0.0.0', 'unspecified'],
    ['https://2130706433/', '127.0.0.1', 'loopback'],
    ['https://0x7f000001/', '127.0.0.1', 'loopback'],
    ['https://017700000001/', '127.0.0.1', 'loopback'],
    ['https://0x7f.1/', '127.0.0.1', 'loopback'],
    ['https://127.1/', '127.0.0.1', 'loopback'],
    ['https://127.0.0.1./', '127.0.0.1', 'loopback'],
    ['https://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254', 'linkLocal'],
    ['https://2852039166/', '169.254.169.254', 'linkLocal'],
    ['https://100.64.0.1/', '100.64.0.1', 'carrierGradeNat'],
    ['https://localhost/', 'localhost', 'localhost'],
    ['https://LOCALHOST./', 'localhost.', 'localhost'],
    ['https://api.localhost/', 'api.localhost', 'localhost'],
  ];
  it.each(table)('%s → %s is refused (%s)', (url, host, reason) => {
    expect(hostOf(url)).toBe(host);
    expect(hostRefusal(hostOf(url))).toBe(reason);
  });

  it('lets public names and addresses through (names are checked again when resolved)', () => {
    for (const url of [
      'https://example.com/hook',
      'https://93.184.216.34/',
      'https://[2606:4700:4700::1111]/',
      'https://[::ffff:808:808]/',
      'https://deadbeef.cafe/',
    ])
      expect(hostRefusal(hostOf(url)), url).toBeNull();
  });

  it('reads a bare host name (the PEC server) as getaddrinfo would', () => {
    expect(hostRefusal('2130706433')).toBe('loopback');
    expect(hostRefusal('0x7f.1')).toBe('loopback');
    expect(hostRefusal('127.1')).toBe('loopback');
    expect(hostRefusal('10.1.2.3')).toBe('private');
    expect(hostRefusal('smtps.pec.aruba.it')).toBeNull();
  });
});
