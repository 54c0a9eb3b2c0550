import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { LookupFunction } from 'node:net';

// SSRF guard checked at connect time: the HTTP agent resolves names through this lookup, so every
// A/AAAA record is checked for the connection actually made (DNS rebinding included). Private addresses
// are reachable only through WEBHOOK_ALLOWED_IPS rules, each naming its port: an allowed address must
// not open every service on it (Redis on 6379, Postgres on 5432).

const ALLOWED_RANGES = new Set(['unicast']);
/** Ports a rule without one allows: the web's. */
const WEB_PORTS: readonly number[] = [80, 443];

export interface AllowRule {
  range: [ipaddr.IPv4 | ipaddr.IPv6, number];
  ports: readonly number[];
}

export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  /**
   * `address` is the URL's own host: a name is never followed by what it resolved to, since the message
   * reaches the tenant's delivery log (issue 28: it told what an internal hostname resolved to).
   */
  constructor(address: string, port?: number, resolved = false) {
    const where = `${address}${port ? ` port ${port}` : ''}`;
    super(
      resolved
        ? `Refused to connect to ${where}: it resolves to a private, loopback, link-local or metadata address, which webhooks may not reach`
        : `Refused to connect to ${where}: private, loopback, link-local and metadata addresses are not allowed`,
    );
  }
}

function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    return (ip as ipaddr.IPv6).toIPv4Address();
  return ip;
}

/** True when the address is public unicast (IPv4-mapped IPv6 is judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ALLOWED_RANGES.has(normalise(address).range());
}

/**
 * Parses WEBHOOK_ALLOWED_IPS: comma-separated `ip`, `ip:port`, `cidr`, `cidr:port`; IPv6 in brackets when a
 * port follows (`[::1]:8080`, `[fd00::/8]:8443`). A rule without a port allows 80 and 443 only.
 */
export function parseAllowList(value: string): AllowRule[] {
  return value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((entry) => {
      const m =
        /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ??
        /^([^:]+)(?::(\d+))?$/.exec(entry) ?? // IPv4 (or IPv4 CIDR) with an optional port
        /^([0-9a-fA-F:]+(?:\/\d+)?)()$/.exec(entry); // bare IPv6
      if (!m) throw new Error(`WEBHOOK_ALLOWED_IPS: "${entry}" is not ip, ip:port, cidr or cidr:port`);
      const [, addr, port] = m;
      let range: AllowRule['range'];
      try {
        range = addr.includes('/')
          ? ipaddr.parseCIDR(addr)
          : [ipaddr.parse(addr), addr.includes(':') ? 128 : 32];
      } catch {
        throw new Error(`WEBHOOK_ALLOWED_IPS: "${entry}" has no valid IP address or CIDR range`);
      }
      const n = port ? Number(port) : 0;
      if (port && (n < 1 || n > 65535))
        throw new Error(`WEBHOOK_ALLOWED_IPS: "${entry}" has an invalid port`);
      return { range, ports: port ? [n] : WEB_PORTS };
    });
}

/** Public unicast, or private but named (with this port) by an allow rule. */
export function isAllowedTarget(address: string, port: number, rules: readonly AllowRule[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  if (isPublicAddress(address)) return true;
  const ip = normalise(address);
  return rules.some((r) => r.ports.includes(port) && ip.kind() === r.range[0].kind() && ip.match(r.range));
}

export function makeGuardedLookup(port: number, rules: readonly AllowRule[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !isAllowedTarget(a.address, port, rules));
      if (bad || list.length === 0) return callback(new ForbiddenAddressError(hostname, port, true), '', 0);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/** For literal IP hosts (no DNS lookup happens): the same rule, applied before connecting. */
export function assertHostAllowed(hostname: string, port: number, rules: readonly AllowRule[]): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !isAllowedTarget(host, port, rules))
    throw new ForbiddenAddressError(host, port);
}
