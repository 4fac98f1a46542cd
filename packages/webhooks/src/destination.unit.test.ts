import { describe, expect, it } from 'vitest';
import { checkAddress, checkDestination, DestinationError, parseDestination } from './destination.js';

describe('webhook destinations', () => {
  it('accepts http and https URLs and refuses other schemes, credentials and non-URLs, naming the problem', () => {
    expect(parseDestination('https://hooks.example.com/x').hostname).toBe('hooks.example.com');
    expect(parseDestination('http://10.0.0.1:8080/x').port).toBe('8080');
    expect(() => parseDestination('ftp://example.com/x')).toThrow(/http or https, not ftp/);
    expect(() => parseDestination('file:///etc/passwd')).toThrow(/http or https, not file/);
    expect(() => parseDestination('https://user:pw@example.com/')).toThrow(/credentials/);
    expect(() => parseDestination('no url')).toThrow(DestinationError);
  });

  it('refuses link-local and metadata addresses whatever the settings say', () => {
    for (const address of [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
    ])
      for (const allowPrivate of [false, true])
        expect(() => checkAddress(address, allowPrivate), address).toThrow(/link-local/);
  });

  it('refuses loopback and private addresses unless allowed', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '::1',
      'fd12::1',
      '0.0.0.0',
    ]) {
      expect(() => checkAddress(address, false), address).toThrow(/WEBHOOK_ALLOW_PRIVATE_DESTINATIONS/);
      expect(() => checkAddress(address, true), address).not.toThrow();
    }
    expect(() => checkAddress('93.184.216.34', false)).not.toThrow();
  });

  it('checks the address a URL names (IPv6 literals in brackets too)', async () => {
    await expect(checkDestination(new URL('http://127.0.0.1:1/'), false)).rejects.toThrow(
      /private or loopback/,
    );
    await expect(checkDestination(new URL('http://127.0.0.1:1/'), true)).resolves.toBeUndefined();
    await expect(checkDestination(new URL('http://[::1]:1/'), false)).rejects.toThrow(/private or loopback/);
    await expect(checkDestination(new URL('http://[fe80::1]:1/'), true)).rejects.toThrow(/link-local/);
  });
});
