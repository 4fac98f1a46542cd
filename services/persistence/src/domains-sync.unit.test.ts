import { describe, expect, it } from 'vitest';
import { ValidationError } from '@catalog/model';
import { syncDomains } from './domains-sync.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)';
const A = 'urn:li:domain:a';
const B = 'urn:li:domain:b';
const attributed = (domain: string, propagated = false) => ({
  domain,
  context: 'context',
  attribution: {
    time: 1,
    actor: 'urn:li:corpuser:datahub',
    source: 'urn:li:dataHubAction:x',
    ...(propagated ? { sourceDetail: { propagated: 'true' } } : {}),
  },
});

describe('syncDomains', () => {
  it('derives domainAssociations from domains when only domains is written', () => {
    expect(syncDomains({ domains: [A] }, undefined, URN)).toEqual({
      domains: [A],
      domainAssociations: [{ domain: A }],
    });
  });

  it('keeps the previous associations of domains still there when domains changes', () => {
    const previous = { domains: [A], domainAssociations: [attributed(A)] };
    expect(syncDomains({ domains: [A, B] }, previous, URN)).toEqual({
      domains: [A, B],
      domainAssociations: [attributed(A), { domain: B }],
    });
    expect(syncDomains({ domains: [B] }, previous, URN)).toEqual({
      domains: [B],
      domainAssociations: [{ domain: B }],
    });
  });

  it('derives domains from domainAssociations when only the associations change', () => {
    expect(syncDomains({ domains: [], domainAssociations: [attributed(A)] }, undefined, URN)).toEqual({
      domains: [A],
      domainAssociations: [attributed(A)],
    });
    const previous = { domains: [A], domainAssociations: [{ domain: A }] };
    const rmw = { domains: [A], domainAssociations: [{ domain: A }, { domain: B }] };
    expect(syncDomains(rmw, previous, URN)['domains']).toEqual([A, B]);
  });

  it('follows domains on a read-modify-write that changed only domains (stale associations)', () => {
    const previous = { domains: [A], domainAssociations: [{ domain: A }] };
    const rmw = { domains: [A, B], domainAssociations: [{ domain: A }] };
    expect(syncDomains(rmw, previous, URN)).toEqual({
      domains: [A, B],
      domainAssociations: [{ domain: A }, { domain: B }],
    });
  });

  it('refuses a write that changes both lists in disagreement (400 naming both fields)', () => {
    const previous = { domains: [A], domainAssociations: [{ domain: A }] };
    const both = () => syncDomains({ domains: [B], domainAssociations: [] }, previous, URN);
    expect(both).toThrow(ValidationError);
    expect(both).toThrow(/Cannot update both 'domains' and 'domainAssociations'/);
  });

  it('orders propagated associations, and their domains, after the manual ones', () => {
    const written = {
      domains: [A, B],
      domainAssociations: [attributed(B, true), { domain: A }],
    };
    expect(syncDomains(written, undefined, URN)).toEqual({
      domains: [A, B],
      domainAssociations: [{ domain: A }, attributed(B, true)],
    });
  });
});
