import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { LookupFunction } from 'node:net';

// SSRF guard checked at connect time: the HTTP agent resolves names through this lookup, so every
// A/AAAA record is checked for the connection actually made (DNS rebinding included).

const ALLOWED_RANGES = new Set(['unicast']);

export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  constructor(address: string) {
    super(
      `Refused to connect to ${address}: private, loopback, link-local and metadata addresses are not allowed`,
    );
  }
}

/** True when the address is public unicast (IPv4-mapped IPv6 is judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ALLOWED_RANGES.has(ip.range());
}

export function makeGuardedLookup(allowList: ReadonlySet<string>): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !isPublicAddress(a.address) && !allowList.has(a.address));
      if (bad || list.length === 0)
        return callback(new ForbiddenAddressError(bad?.address ?? hostname), '', 0);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/** For literal IP hosts (no DNS lookup happens): the same rule, applied before connecting. */
export function assertHostAllowed(hostname: string, allowList: ReadonlySet<string>): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !isPublicAddress(host) && !allowList.has(host))
    throw new ForbiddenAddressError(host);
}
