/** oauth2-server 5.3.0 does not export its authorization code grant from its index; token.ts extends it. */
declare module '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js' {
  import OAuth2Server = require('@node-oauth/oauth2-server');

  class AuthorizationCodeGrantType extends OAuth2Server.AbstractGrantType {
    handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
    validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void;
  }
  export = AuthorizationCodeGrantType;
}
