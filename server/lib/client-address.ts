import ipaddr from 'ipaddr.js';

/**
 * The key per-IP limits count a client under (ipaddr.js parses every spelling Node or a proxy
 * may hand over, which a regular expression would not): an IPv4 address as it is (also when it
 * arrives IPv4-mapped, `::ffff:1.2.3.4`), an IPv6 address by its /64, the smallest block a home
 * or a server is given, so that one client cannot rotate through its own addresses to get a
 * fresh allowance each time. Anything unparseable counts as itself.
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip.replace(/%.*$/, ''));
  } catch {
    return ip;
  }
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
