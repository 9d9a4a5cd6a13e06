/**
 * Which remote addresses a server-initiated connection may reach (the outbound door's one check).
 * Parsing and range classification are ipaddr.js's (already in the tree through Fastify's
 * proxy-addr; it knows every IANA special-purpose range and every IPv6 spelling of an IPv4
 * address), so this file only states the policy:
 * - IPv4: global unicast only. Refused: 0.0.0.0/8, loopback, private (RFC 1918), link-local,
 *   CGNAT 100.64/10, multicast, broadcast, and the reserved, documentation and benchmarking ranges.
 * - IPv6: global unicast (2000::/3) only, minus its special blocks (6to4, Teredo, documentation,
 *   benchmarking, ORCHID, AMT, AS112…). An IPv4 address written as IPv6 is judged as that IPv4
 *   address: IPv4-mapped `::ffff:a.b.c.d` (also in hex, `::ffff:a9fe:a9fe`, the form WHATWG URL
 *   writes) and NAT64 `64:ff9b::/96`. Everything else outside 2000::/3 is refused: `::`, `::1`,
 *   IPv4-compatible `::a.b.c.d`, `::ffff:0:a.b.c.d`, link-local, unique-local, multicast, the
 *   local-use NAT64 prefix 64:ff9b:1::/48.
 * Anything that is not an IP address at all is refused too: the check runs on the socket's real
 * remote address, which always is one.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Why `address` may not be reached (the ipaddr.js range name, e.g. 'loopback', 'private',
 * 'ipv4Mapped→linkLocal'), or null when it is a public address.
 */
export function addressRefusal(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // net.isIP accepts only canonical spellings (no '127.1', no '0x7f.1'): what a socket reports.
  if (isIP(bare) === 0) return 'notAnAddress';
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(hexIPv6(bare));
  } catch {
    return 'notAnAddress';
  }
  if (parsed.kind() === 'ipv4') {
    const range = parsed.range();
    return range === 'unicast' ? null : range;
  }
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return embedded('ipv4Mapped', v6.toIPv4Address());
  if (v6.match(NAT64_WELL_KNOWN)) {
    const [, , , , , , high = 0, low = 0] = v6.parts;
    return embedded('nat64', new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]));
  }
  if (!v6.match(GLOBAL_UNICAST_V6)) {
    const range = v6.range();
    return range === 'unicast' ? 'notGlobalUnicast' : range;
  }
  const range = v6.range();
  return range === 'unicast' ? null : range;
}

/**
 * An IPv6 address with a dotted IPv4 tail in the all-hex form WHATWG URL writes (`::8.8.8.8` →
 * `::808:808`): ipaddr.js reads any `::a.b.c.d` as IPv4-mapped, which the IPv4-compatible form
 * is not. The zone (`%eth0`) is kept aside.
 */
function hexIPv6(address: string): string {
  if (isIP(address) !== 6 || !address.includes('.')) return address;
  const [bare = '', zone] = address.split('%', 2);
  const hex = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  return zone === undefined ? hex : `${hex}%${zone}`;
}

function embedded(form: string, v4: ipaddr.IPv4): string | null {
  const range = v4.range();
  return range === 'unicast' ? null : `${form}→${range}`;
}

/** True when `address` is an IP address outside every refused range. */
export function isPublicAddress(address: string): boolean {
  return addressRefusal(address) === null;
}

/**
 * A host name as a URL carries it (`example.com`, `127.0.0.1`, `[::1]`), judged before any
 * connection: IP literals by `addressRefusal`, and the names that always mean this machine
 * (`localhost`, `*.localhost`, with or without the final dot). Other names are checked when
 * they are resolved and again on the socket. Null when nothing is known against it.
 */
export function hostRefusal(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === '') return 'notAnAddress';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) return addressRefusal(bare);
  // What getaddrinfo would read as an IPv4 address ('2130706433', '0x7f.1', '127.1'): the
  // WHATWG URL parser normalises these for URLs; a bare host name (the PEC server) gets it here.
  if (/^[0-9a-fx.]+$/.test(bare)) {
    let normalised: string | null;
    try {
      normalised = new URL(`http://${bare}/`).hostname;
    } catch {
      normalised = null;
    }
    if (normalised !== null && isIP(normalised) === 4) return addressRefusal(normalised);
  }
  return null;
}
