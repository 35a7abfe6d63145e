import type { RoutesPlugin } from '../plugin.js'
import { invalidRequest, Refusal } from '../../errors/refusal.js'
import { fromPem, readCertificateHeader, type HeaderResult } from '../../auth/certificates.js'
import { sameSecret } from '../../auth/secrets.js'
import { TOKEN_LIFETIME_SECONDS } from '../../auth/tokens.js'
import { errorResponses } from '../../schemas/common.js'
import { TokenHeaders, TokenRequest, TokenResponse } from '../../schemas/auth.js'
import type { TLSSocket } from 'node:tls'

/** The peer certificate of a mutual-TLS connection, when the sandbox serves HTTPS. */
function peerCertificate (socket: unknown): HeaderResult | null {
  const tls = socket as TLSSocket
  if (typeof tls.getPeerX509Certificate !== 'function') return null
  const cert = tls.getPeerX509Certificate()
  return cert ? fromPem(cert.toString()) : null
}

/** POST /api/auth/token (docs/gateway.md §2.1, 5, 7.1): client certificate plus client credentials. */
const tokenRoutes: RoutesPlugin = async (app) => {
  app.post('/api/auth/token', {
    schema: {
      operationId: 'createToken',
      tags: ['Standard'],
      summary: 'Issue an access token',
      description: 'Header X-SSL-Client-Cert carries the client certificate, PEM, percent-encoded (RFC 3986: spaces as %20). Over mutual TLS the peer certificate is used when the header is absent. Errors use the simple shape.',
      headers: TokenHeaders,
      body: TokenRequest,
      response: { 201: TokenResponse, ...errorResponses('central-bank', [400, 401, 403]) },
    },
  }, async (request, reply) => {
    const { store, tokens, rng } = app.sandbox
    const header = request.headers['x-ssl-client-cert']
    const cert = header === undefined ? (peerCertificate(request.raw.socket) ?? readCertificateHeader(undefined)) : readCertificateHeader(header)
    if (!cert.ok) {
      switch (cert.problem) {
        case 'MISSING': throw invalidRequest('Certificado do cliente ausente: envie o cabeçalho X-SSL-Client-Cert')
        case 'MALFORMED_ENCODING':
        case 'NOT_PEM': throw invalidRequest('Formato do certificado do cliente inválido')
        case 'INVALID_CERTIFICATE': throw new Refusal('INVALID_CREDENTIALS', 'Certificado do cliente inválido')
      }
    }
    const account = store.accountByClientId(request.body.clientId)
    // Compared for an unknown clientId too, so that the time taken does not tell which clientIds exist.
    const secretMatches = sameSecret(request.body.clientSecret, account?.clientSecret ?? '')
    if (!account || !secretMatches) {
      throw new Refusal('INVALID_CREDENTIALS', 'Credenciais inválidas')
    }
    if (!account.certificateFingerprints.includes(cert.fingerprint)) {
      throw new Refusal('CERTIFICATE_NOT_LINKED', 'Certificado não vinculado a esta conta')
    }
    request.account = account
    const accessToken = tokens.issue(account, rng.uuid())
    return reply.status(201).send({ access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS })
  })
}

export default tokenRoutes
