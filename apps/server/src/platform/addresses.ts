/**
 * Which network addresses the server may send a request to (ADR 034). Only public unicast
 * addresses pass by default: loopback, private (RFC 1918), carrier-grade NAT, link-local,
 * unique-local, unspecified, multicast and reserved ones, and the clouds' metadata services, are
 * refused unless the installation lists them (`OUTBOUND_ALLOWED_CIDRS`). An IPv4 address written as
 * IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is; IPv6 forms that carry an IPv4
 * address to a translator (NAT64, 6to4, Teredo) are reserved, so they never reach the network
 * behind one.
 *
 * Also the one canonical form of a host name, for comparing addresses: the URL parser already
 * lowers the case, writes international names in ASCII (punycode), reads numeric forms of IPv4
 * (`2130706433`, `0x7f.1`, `017700000001` are all `127.0.0.1`) and drops the scheme's default port;
 * what it leaves is a trailing dot (`erp.example.` is `erp.example` to DNS).
 */
import ipaddr from 'ipaddr.js';

export type RefusalReason =
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link_local'
  | 'metadata'
  | 'unique_local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export type Verdict = { ok: true } | { ok: false; reason: RefusalReason };

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/**
 * The clouds' instance metadata services (credentials are one request away there): AWS, Azure,
 * GCP, Huawei and Oracle at 169.254.169.254, AWS's container and pod credential addresses, AWS's
 * IPv6 one, Tencent Cloud's 169.254.0.23 and Alibaba Cloud's 100.100.100.200 (inside CGNAT space).
 */
const METADATA = [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '169.254.0.23',
  '100.100.100.200',
  'fd00:ec2::254',
  'fd00:ec2::23',
].map((a) => ipaddr.parse(a));

/** Link-local space: only an allow-list entry inside it (or naming the address) opens an address there. */
const LINK_LOCAL: Range[] = [ipaddr.parseCIDR('169.254.0.0/16'), ipaddr.parseCIDR('fe80::/10')];

/** Global unicast IPv6 (2000::/3): anything outside it is not a public address. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** IPv4 written as IPv6 (`::ffff:a.b.c.d`) is that IPv4 address. */
function plain(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

const inRange = (address: Address, [base, bits]: Range) => address.kind() === base.kind() && address.match(base, bits);

const same = (a: Address, b: Address) => a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();
const isMetadata = (address: Address) => METADATA.some((m) => same(m, address));

/** What an address is, by the ranges that matter for a request: `public` or why it is refused. */
export function classify(text: string): 'public' | RefusalReason {
  const address = plain(ipaddr.parse(text));
  if (isMetadata(address)) return 'metadata';
  // A string: the library knows ranges its types do not list (deprecatedSiteLocal).
  const range: string = address.range();
  if (address.kind() === 'ipv4') {
    switch (range) {
      case 'unicast':
        return 'public';
      case 'loopback':
        return 'loopback';
      case 'private':
        return 'private';
      case 'carrierGradeNat':
        return 'cgnat';
      case 'linkLocal':
        return 'link_local';
      case 'unspecified':
        return 'unspecified';
      case 'multicast':
      case 'broadcast':
        return 'multicast';
      default:
        return 'reserved';
    }
  }
  switch (range) {
    case 'unicast':
      return inRange(address, GLOBAL_UNICAST_V6) ? 'public' : 'reserved';
    case 'loopback':
      return 'loopback';
    case 'linkLocal':
      return 'link_local';
    case 'uniqueLocal':
    case 'deprecatedSiteLocal':
      return 'unique_local';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
      return 'multicast';
    default:
      return 'reserved';
  }
}

/** Whether a text is an IP address (IPv4 dotted quad, or IPv6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare);
}

/**
 * `OUTBOUND_ALLOWED_CIDRS`: ranges separated by commas or spaces, each `address/bits` or a single
 * address; `none` is the empty list. Null for text that is not such a list (the config names the
 * variable). An IPv4 range written as IPv6 (`::ffff:10.0.0.0/104`) is read as the IPv4 range.
 */
export function parseCidrs(text: string): string[] | null {
  const items = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 1 && items[0]!.toLowerCase() === 'none') return [];
  const out: string[] = [];
  for (const item of items) {
    const range = parseRange(item);
    if (!range) return null;
    out.push(`${range[0].toString()}/${range[1]}`);
  }
  return out;
}

function parseRange(item: string): Range | null {
  const [host = '', bits, extra] = item.split('/');
  // Plain dotted-decimal IPv4 or IPv6 without a zone: a configuration is written for people.
  if (extra !== undefined || !isIpLiteral(host) || host.includes('%') || host.startsWith('[')) return null;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  try {
    const [base, size] = ipaddr.parseCIDR(`${host}/${bits ?? (host.includes(':') ? 128 : 32)}`);
    if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && size >= 96) {
      return [(base as ipaddr.IPv6).toIPv4Address(), size - 96];
    }
    return [base, size];
  } catch {
    return null;
  }
}

/** Whether range `inner` lies wholly inside range `outer`. */
const within = ([a, abits]: Range, outer: Range) => abits >= outer[1] && inRange(a, outer);

export interface AddressRule {
  /** The verdict on an address the server is about to connect to. */
  address(ip: string): Verdict;
  /**
   * The verdict on a URL's host that can be given without DNS: an IP literal, or a name that always
   * means this machine (`localhost`, `*.localhost`), judged as 127.0.0.1 and ::1. Null for any other
   * name: it is judged at call time on what it resolves to (DNS can change).
   */
  literal(url: URL): Verdict | null;
}

/** Names that mean this machine whatever DNS says (RFC 6761, and Debian's /etc/hosts). */
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

/**
 * The rule of an installation: public unicast addresses, and what `allowed` lists. A metadata
 * address passes only through an entry that names it alone (169.254.169.254/32), another
 * link-local address only through an entry inside link-local space: a broad entry such as
 * 0.0.0.0/0 or 100.64.0.0/10 never opens them by accident.
 */
export function createAddressRule(allowed: readonly string[]): AddressRule {
  const ranges = allowed.map((text) => {
    const range = parseRange(text);
    if (!range) throw new Error(`not a CIDR range: ${text}`);
    return range;
  });
  const address = (ip: string): Verdict => {
    let parsed: Address;
    try {
      parsed = plain(ipaddr.parse(ip.startsWith('[') ? ip.slice(1, -1) : ip));
    } catch {
      return { ok: false, reason: 'reserved' };
    }
    const kind = classify(parsed.toString());
    if (kind === 'public') return { ok: true };
    const single: Range = [parsed, parsed.kind() === 'ipv4' ? 32 : 128];
    const opens = (range: Range) =>
      kind === 'metadata'
        ? range[1] === single[1] && inRange(parsed, range)
        : kind === 'link_local'
          ? inRange(parsed, range) && LINK_LOCAL.some((l) => within(range, l))
          : inRange(parsed, range);
    return ranges.some(opens) ? { ok: true } : { ok: false, reason: kind };
  };
  return {
    address,
    literal(url) {
      const host = canonicalHostname(url);
      if (isIpLiteral(host)) return address(host);
      if (LOCAL_NAMES.has(host) || host.endsWith('.localhost')) {
        const v4 = address('127.0.0.1');
        return v4.ok ? address('::1') : v4;
      }
      return null;
    },
  };
}

/** A URL's host name in the one form addresses are compared in: no trailing dot. */
export function canonicalHostname(url: URL): string {
  return url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
}
