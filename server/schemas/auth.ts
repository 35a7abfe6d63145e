import { Type } from '@sinclair/typebox'
import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens.js'

/** Token issuance, POST /api/auth/token (docs/gateway.md §2.1): client credentials in the body, the certificate in a header. */
export const TokenRequest = Type.Object({
  clientId: Type.String({ minLength: 1, maxLength: 255 }),
  clientSecret: Type.String({ minLength: 8, maxLength: 64 }),
})

export const TokenHeaders = Type.Object({ 'x-ssl-client-cert': Type.Optional(Type.String({ description: 'Percent-encoded PEM client certificate, as the gateway\'s TLS terminator forwards it; when the sandbox serves HTTPS the peer certificate of the handshake is used instead, unless it runs with --trust-client-cert-header true' })) })

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'JWT' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Literal(TOKEN_LIFETIME_SECONDS),
})
