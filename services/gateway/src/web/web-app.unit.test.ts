import { describe, expect, it } from 'vitest';
import { isWebAppPage, isWebAppPublicPath } from './web-app.js';

describe('the web app pages the gateway answers', () => {
  it('are the app routes only, never an API path', () => {
    for (const page of [
      '/',
      '/login',
      '/search',
      '/settings',
      '/settings/tokens',
      '/dataset/urn%3Ali%3Adataset%3A(a%2Cb%2CPROD)',
      '/entity/urn%3Ali%3Atag%3Apii',
    ])
      expect(isWebAppPage(page), page).toBe(true);
    for (const api of [
      '/api/graphql',
      '/api/graphiql',
      '/openapi/v3/entity/dataset',
      '/entities',
      '/entitiesV2/x',
      '/entities/urn',
      '/aspects',
      '/config',
      '/health',
      '/logIn',
      '/logOut',
      '/relationships',
      '/runs',
      '/dataset',
      '/searchAcrossEntities',
      '/schema-registry/api/subjects',
    ])
      expect(isWebAppPage(api), api).toBe(false);
  });

  it('serve the built files without credentials, and nothing else besides the pages', () => {
    expect(isWebAppPublicPath('/assets/index-AbC123.js')).toBe(true);
    expect(isWebAppPublicPath('/favicon.svg')).toBe(true);
    expect(isWebAppPublicPath('/aspects/x')).toBe(false);
    expect(isWebAppPublicPath('/assetsX')).toBe(false);
  });
});
