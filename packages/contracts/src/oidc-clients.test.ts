import { describe, expect, it } from 'vitest';
import { isRedirectUri, oidcClientProblem, type OidcClientSettings } from './oidc-clients.js';

const web: OidcClientSettings = {
  confidential: true,
  grantTypes: ['authorization_code', 'refresh_token'],
  redirectUris: ['https://app.example.com/cb'],
  postLogoutRedirectUris: [],
  scopes: ['openid'],
};

describe('an OIDC client as a whole', () => {
  it('takes a web application and a machine client', () => {
    expect(oidcClientProblem(web)).toBeNull();
    expect(oidcClientProblem({ ...web, grantTypes: ['client_credentials'], redirectUris: [], scopes: [] })).toBeNull();
    expect(
      oidcClientProblem({
        ...web,
        confidential: false,
        grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
        redirectUris: [],
      }),
    ).toBeNull();
  });

  it.each([
    ['clientCredentialsPublic', { confidential: false, grantTypes: ['client_credentials'] }],
    ['refreshAlone', { grantTypes: ['refresh_token', 'client_credentials'] }],
    ['redirectRequired', { redirectUris: [] }],
    ['openidRequired', { scopes: ['profile'] }],
    ['tooManyUris', { postLogoutRedirectUris: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`) }],
  ] as const)('says %s', (problem, change) => {
    expect(oidcClientProblem({ ...web, ...change })).toBe(problem);
  });
});

describe('a redirect address', () => {
  it.each(['https://app.example.com/cb', 'http://127.0.0.1:8080/cb', 'https://app.example.com/cb?x=1'])(
    'takes %s',
    (uri) => expect(isRedirectUri(uri)).toBe(true),
  );
  it.each([
    '',
    '/cb',
    'https://app.example.com/cb#frag',
    'https://*.example.com/cb',
    'https://user:pw@app.example.com/cb',
    'javascript:alert(1)',
    'com.example.app:/cb',
    'https://app.example.com/a b',
    `https://app.example.com/${'x'.repeat(1100)}`,
  ])('refuses %s', (uri) => expect(isRedirectUri(uri)).toBe(false));
});
