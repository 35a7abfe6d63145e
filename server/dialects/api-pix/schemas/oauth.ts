import { Type } from '@sinclair/typebox'
import { TOKEN_LIFETIME_SECONDS } from '../../../auth/tokens.js'

/**
 * API Pix's token, POST /oauth/token (OAuth 2.0 client credentials, RFC 6749 §4.4): form-encoded as
 * the RFC says, or JSON as some SDKs send it. The client authenticates with `Authorization: Basic`
 * (or `client_id` and `client_secret` in the body) and its certificate.
 */
export const OAuthTokenBody = Type.Object({
  grant_type: Type.String({ minLength: 1, maxLength: 64, description: 'client_credentials' }),
  scope: Type.Optional(Type.String({ maxLength: 1000, description: 'space-separated scopes of API Pix; the account\'s whole grant when absent' })),
  client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'only without Authorization: Basic' })),
  client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'only without Authorization: Basic' })),
})

export const OAuthTokenHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Basic base64(client_id:client_secret)' })),
  'x-ssl-client-cert': Type.Optional(Type.String({ description: 'Percent-encoded PEM client certificate, as a TLS terminator forwards it; when the sandbox serves HTTPS the peer certificate of the handshake is used instead, unless it runs with --trust-client-cert-header true' })),
})

export const OAuthTokenResponse = Type.Object({
  access_token: Type.String({ description: 'JWT; accepted by both the gateway and API Pix' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Literal(TOKEN_LIFETIME_SECONDS),
  scope: Type.String({ description: 'the scopes granted to this token, space-separated' }),
})
