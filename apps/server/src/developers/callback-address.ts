/**
 * Where callbacks may go. A callback URL is typed by a company user and fetched by the server, so
 * without a guard it could make the server POST into its own network (SSRF: the database, a cloud
 * metadata address, an admin port on localhost). Refused: anything but http(s), and any internal
 * address — checked on the URL as written when a developer is saved, and again on every address the
 * host name resolves to at the moment of each POST (a name may resolve elsewhere later). Hosts named in
 * CALLBACK_ALLOWED_HOSTS are exempt (tests and the demo call a receiver on localhost).
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

/** Host names (or IP literals) a callback may reach even when internal; lower case. */
export interface CallbackPolicy {
  allowedHosts: ReadonlySet<string>;
}

/** Outside production, unless CALLBACK_ALLOWED_HOSTS says otherwise: a receiver on this machine (demo, tests). */
const DEVELOPMENT_ALLOWED_HOSTS = 'localhost,127.0.0.1,::1';

/** The policy of an environment: CALLBACK_ALLOWED_HOSTS, a comma-separated list (production: none unless set). */
export function callbackPolicyOf(env: { NODE_ENV: string; CALLBACK_ALLOWED_HOSTS?: string }): CallbackPolicy {
  const list = env.CALLBACK_ALLOWED_HOSTS ?? (env.NODE_ENV === 'production' ? '' : DEVELOPMENT_ALLOWED_HOSTS);
  const hosts = list
    .split(',')
    .map((host) => bareHost(host.trim().toLowerCase()))
    .filter((host) => host !== '');
  return { allowedHosts: new Set(hosts) };
}

/** `[::1]` → `::1`: URL.hostname keeps an IPv6 literal's brackets. */
const bareHost = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

// Loopback, private, link-local (cloud metadata), carrier-grade NAT, benchmarking, multicast and reserved ranges.
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // NAT64 embeds an IPv4 address that may be internal.
  ['64:ff9b::', 96],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, v4-mapped v6 included) is internal; a non-address is treated as internal. */
export function isInternalAddress(address: string): boolean {
  const bare = bareHost(address);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return internal.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return internal.check(bare, 'ipv4');
  if (family === 6) return internal.check(bare, 'ipv6');
  return true;
}

/** Names that always mean this machine or the local network, whatever DNS says. */
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal');

export const isAllowedHost = (policy: CallbackPolicy, host: string) => policy.allowedHosts.has(bareHost(host.toLowerCase()));

/**
 * Whether a URL may be saved as a callback: http(s), and not an internal address or local name as
 * written (host names that resolve inward are caught at send time by `guardedLookup`).
 */
export function isCallbackUrlAllowed(policy: CallbackPolicy, text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = bareHost(url.hostname.toLowerCase());
  if (isAllowedHost(policy, host)) return true;
  if (isIP(host) !== 0) return !isInternalAddress(host);
  return !isLocalName(host);
}

export class CallbackAddressRefused extends Error {
  constructor(host: string, address?: string) {
    super(address ? `${host} resolves to the internal address ${address}` : `${host} is an internal address`);
    this.name = 'CallbackAddressRefused';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses a host resolving to any internal address: the connection
 * then goes to an address that was checked, so a name cannot pass the check and connect elsewhere.
 */
export function guardedLookup(policy: CallbackPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      if (!isAllowedHost(policy, hostname)) {
        const inward = addresses.find((entry) => isInternalAddress(entry.address));
        if (inward) return callback(new CallbackAddressRefused(hostname, inward.address), '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
