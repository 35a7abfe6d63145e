import type { RoutesPlugin } from '../../../route-plugin.js'
import { authenticateClient, basicCredentials, clientCertificate, HEADER_NOT_TRUSTED } from '../../../auth/clients.js'
import { TOKEN_LIFETIME_SECONDS } from '../../../auth/tokens.js'
import { grantedScopes, requestedScopes, OAUTH_TOKEN_PATH } from '../../../domain/scopes.js'
import { invalidRequest, Refusal } from '../../../errors/refusal.js'
import { errorResponses } from '../../../schemas/common.js'
import { OAuthTokenBody, OAuthTokenHeaders, OAuthTokenResponse } from '../schemas/oauth.js'
import { OAUTH } from '../errors.js'

const invalidClient = (message: string): Refusal => new Refusal('INVALID_CREDENTIALS', message)

/**
 * POST /oauth/token: API Pix's sign-in as PSPs do it (docs/api-pix.md, OAuth): OAuth 2.0 client
 * credentials with HTTP Basic, over the client certificate the gateway's token asks for, with the same
 * rule that it is linked to the account. The token works on both the gateway and API Pix.
 */
const oauthRoutes: RoutesPlugin = async (app) => {
  // RFC 6749 §4.4.2: a form-encoded body, here only (elsewhere it stays a 415). A parameter sent twice is
  // refused (§3.1: "MUST NOT be included more than once").
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const params = new URLSearchParams(body as string)
    const names = [...params.keys()]
    const repeated = names.find((name, i) => names.indexOf(name) !== i)
    if (repeated !== undefined) return done(invalidRequest(`O parâmetro ${repeated} foi enviado mais de uma vez`, { fields: [repeated] }), undefined)
    done(null, Object.fromEntries(params))
  })

  app.post(OAUTH_TOKEN_PATH, {
    config: { apiPix: {} },
    schema: {
      operationId: 'apiPixToken',
      tags: ['API Pix'],
      summary: 'Issue an access token (OAuth 2.0 client credentials)',
      description: 'HTTP Basic client_id:client_secret (or client_id and client_secret in the body), grant_type=client_credentials, an optional space-separated scope within the account\'s grant; form-encoded or JSON. The client certificate comes from the TLS handshake when the sandbox serves HTTPS (X-SSL-Client-Cert counts there only with --trust-client-cert-header true), else from X-SSL-Client-Cert, and must be linked to the account. Errors as RFC 6749 section 5.2: 401 invalid_client (with WWW-Authenticate: Basic), 400 invalid_request, unsupported_grant_type, invalid_scope.',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      headers: OAuthTokenHeaders,
      body: OAuthTokenBody,
      response: { 200: OAuthTokenResponse, ...errorResponses(OAUTH, [400, 401]) },
    },
  }, async (request, reply) => {
    const { store, tokens, rng } = app.sandbox
    const body = request.body
    const basic = basicCredentials(request.headers.authorization)
    const inBody = body.client_id !== undefined || body.client_secret !== undefined
    // §2.3: one way of authenticating per request.
    if (basic !== null && inBody) throw invalidRequest('Autentique o cliente de um só modo: Authorization: Basic ou client_id e client_secret no corpo')
    if (basic === 'malformed') throw invalidClient('Cabeçalho Authorization: Basic malformado; envie base64(client_id:client_secret)')
    const credentials = basic ?? (body.client_id !== undefined && body.client_secret !== undefined ? { clientId: body.client_id, clientSecret: body.client_secret } : null)
    if (credentials === null) throw invalidClient('Credenciais do cliente ausentes: envie Authorization: Basic base64(client_id:client_secret)')
    const client = authenticateClient(store, clientCertificate(request, app.sandbox.config.trustClientCertHeader), credentials.clientId, credentials.clientSecret)
    if (!client.ok) {
      switch (client.problem) {
        case 'MISSING': throw invalidClient('Certificado do cliente ausente: use TLS mútuo ou envie o cabeçalho X-SSL-Client-Cert')
        case 'HEADER_NOT_TRUSTED': throw invalidClient(HEADER_NOT_TRUSTED)
        case 'MALFORMED_ENCODING':
        case 'NOT_PEM':
        case 'INVALID_CERTIFICATE': throw invalidClient('Certificado do cliente inválido')
        case 'BAD_CREDENTIALS': throw invalidClient('Credenciais inválidas')
        case 'NOT_LINKED': throw new Refusal('CERTIFICATE_NOT_LINKED', 'Certificado não vinculado a esta conta')
      }
    }
    const account = client.account
    request.account = account
    if (body.grant_type !== 'client_credentials') throw new Refusal('UNSUPPORTED_GRANT_TYPE', `grant_type ${body.grant_type} não é suportado: use client_credentials`)
    const scopes = requestedScopes(body.scope, grantedScopes(account))
    if (!scopes.ok) throw new Refusal('INVALID_SCOPE', `O escopo ${scopes.refused} não é concedido a esta conta`)
    const accessToken = tokens.issue(account, rng.uuid(), scopes.scopes)
    // §5.1: a token is never cached.
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
      .send({ access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: scopes.scopes.join(' ') })
  })
}

export default oauthRoutes
