import type { RoutesPlugin } from '../../../../route-plugin.js'
import { invalidRequest, Refusal } from '../../../../errors/refusal.js'
import { authenticateClient, clientCertificate, HEADER_NOT_TRUSTED } from '../../../../auth/clients.js'
import { TOKEN_LIFETIME_SECONDS } from '../../../../auth/tokens.js'
import { errorResponses } from '../../../../schemas/common.js'
import { TokenHeaders, TokenRequest, TokenResponse } from '../../../../schemas/auth.js'
import { SIMPLE } from '../../errors.js'

/** POST /api/auth/token (docs/gateway.md §2.1, 5, 7.1): client certificate plus client credentials. */
const tokenRoutes: RoutesPlugin = async (app) => {
  app.post('/api/auth/token', {
    schema: {
      operationId: 'createToken',
      tags: ['Standard'],
      summary: 'Issue an access token',
      description: 'Header X-SSL-Client-Cert carries the client certificate, PEM, percent-encoded (RFC 3986: spaces as %20). When the sandbox serves HTTPS, the certificate is the peer certificate of the TLS handshake and the header is ignored, unless the sandbox runs with --trust-client-cert-header true (behind a TLS terminator that sets it). Errors use the simple shape.',
      headers: TokenHeaders,
      body: TokenRequest,
      response: { 201: TokenResponse, ...errorResponses(SIMPLE, [400, 401, 403]) },
    },
  }, async (request, reply) => {
    const { store, tokens, rng } = app.sandbox
    const client = authenticateClient(store, clientCertificate(request, app.sandbox.config.trustClientCertHeader), request.body.clientId, request.body.clientSecret)
    if (!client.ok) {
      switch (client.problem) {
        case 'MISSING': throw invalidRequest('Certificado do cliente ausente: envie o cabeçalho X-SSL-Client-Cert')
        case 'HEADER_NOT_TRUSTED': throw invalidRequest(HEADER_NOT_TRUSTED)
        case 'MALFORMED_ENCODING':
        case 'NOT_PEM': throw invalidRequest('Formato do certificado do cliente inválido')
        case 'INVALID_CERTIFICATE': throw new Refusal('INVALID_CREDENTIALS', 'Certificado do cliente inválido')
        case 'BAD_CREDENTIALS': throw new Refusal('INVALID_CREDENTIALS', 'Credenciais inválidas')
        case 'NOT_LINKED': throw new Refusal('CERTIFICATE_NOT_LINKED', 'Certificado não vinculado a esta conta')
      }
    }
    const account = client.account
    request.account = account
    const accessToken = tokens.issue(account, rng.uuid())
    return reply.status(201).send({ access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS })
  })
}

export default tokenRoutes
