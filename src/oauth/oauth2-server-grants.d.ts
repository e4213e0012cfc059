/** oauth2-server 5.3.0 does not export its authorization code grant from its index; token.ts extends it. */
declare module '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js' {
  import OAuth2Server = require('@node-oauth/oauth2-server');

  class AuthorizationCodeGrantType extends OAuth2Server.AbstractGrantType {
    handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
    validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void;
  }
  export = AuthorizationCodeGrantType;
}

/** Nor its refresh token grant; token.ts extends it to judge a narrower scope by what the granted one includes. */
declare module '@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js' {
  import OAuth2Server = require('@node-oauth/oauth2-server');

  class RefreshTokenGrantType extends OAuth2Server.AbstractGrantType {
    handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
    getScope(request: OAuth2Server.Request, token?: OAuth2Server.RefreshToken): string[] | undefined;
    getRefreshToken(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.RefreshToken>;
    revokeToken(token: OAuth2Server.RefreshToken): Promise<OAuth2Server.RefreshToken>;
    saveToken(user: OAuth2Server.User, client: OAuth2Server.Client, scope: string[] | undefined): Promise<OAuth2Server.Token>;
  }
  export = RefreshTokenGrantType;
}
