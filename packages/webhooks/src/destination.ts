import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Why a destination is refused; the message names the problem for the caller. */
export class DestinationError extends Error {
  override readonly name = 'DestinationError';
}

/** Link-local and cloud metadata addresses: never a destination, whatever the settings. */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');
LINK_LOCAL.addAddress('fd00:ec2::254', 'ipv6');

/** Loopback, private and unspecified ranges: refused unless private destinations are allowed. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/** Parses a destination URL: http or https with a host, no credentials in it. */
export function parseDestination(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationError(`Webhook url "${raw}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DestinationError(`Webhook url must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  if (url.hostname === '') throw new DestinationError('Webhook url needs a host');
  if (url.username !== '' || url.password !== '')
    throw new DestinationError('Webhook url must not carry credentials');
  return url;
}

/** Refuses an address the settings do not allow (link-local always; private unless allowed). */
export function checkAddress(address: string, allowPrivate: boolean): void {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const plain = family === 'ipv6' ? address.replace(/^::ffff:(?=\d+\.)/i, '') : address;
  const plainFamily = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  if (LINK_LOCAL.check(plain, plainFamily))
    throw new DestinationError(`Webhook destination ${address} is a link-local or metadata address`);
  if (!allowPrivate && PRIVATE.check(plain, plainFamily))
    throw new DestinationError(
      `Webhook destination ${address} is a private or loopback address (WEBHOOK_ALLOW_PRIVATE_DESTINATIONS is off)`,
    );
}

/**
 * Checks a destination where the request will go: every address its host resolves to must be
 * allowed. Asked again before each delivery, so a name that later resolves elsewhere is caught.
 */
export async function checkDestination(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host) ? [host] : await resolve(host);
  for (const address of addresses) checkAddress(address, allowPrivate);
}

async function resolve(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new DestinationError(`Webhook host ${host} does not resolve`);
  }
}
