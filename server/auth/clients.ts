import type { TLSSocket } from 'node:tls'
import { fromPem, readCertificateHeader, type HeaderProblem, type HeaderResult } from './certificates.js'
import { sameSecret } from './secrets.js'
import type { Account } from '../store/state.js'

/**
 * Who a client asking for a token is, for both tokens (the gateway's POST /api/auth/token and API
 * Pix's POST /oauth/token): its client certificate, its credentials, and the rule that the certificate
 * is linked to the account the credentials name (docs/gateway.md §5).
 */

/** What a request offers of its TLS connection and headers. */
export interface ClientRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly raw: { readonly socket: unknown }
}

/** Whether a request came over TLS (the sandbox serves HTTPS): its socket is a TLSSocket. */
function overTls (socket: unknown): boolean {
  return (socket as Partial<TLSSocket>).encrypted === true
}

/** The peer certificate of a mutual-TLS connection, when the sandbox serves HTTPS. */
function peerCertificate (socket: unknown): HeaderResult | null {
  const tls = socket as TLSSocket
  if (typeof tls.getPeerX509Certificate !== 'function') return null
  const cert = tls.getPeerX509Certificate()
  return cert ? fromPem(cert.toString()) : null
}

/**
 * The client certificate of a request. Over TLS it is the peer certificate of the handshake, the one
 * whose key the client proved it holds; `X-SSL-Client-Cert` (what the gateway's TLS terminator
 * forwards, docs/gateway.md §5 item 3) is a public certificate anyone may copy, so it counts only where
 * the sandbox is told a terminator in front of it sets it. `trustHeader` is that setting
 * (`--trust-client-cert-header`); unset, the header counts over plain HTTP and not over TLS.
 */
export function clientCertificate (request: ClientRequest, trustHeader: boolean | undefined): ClientCertificate {
  const socket = request.raw.socket
  const header = request.headers['x-ssl-client-cert']
  if (header !== undefined && (trustHeader ?? !overTls(socket))) return readCertificateHeader(header)
  const peer = peerCertificate(socket)
  if (peer !== null) return peer
  return header === undefined ? readCertificateHeader(undefined) : { ok: false, problem: 'HEADER_NOT_TRUSTED' }
}

/** Why a header that does not count here was not taken for the certificate. */
export const HEADER_NOT_TRUSTED = 'Certificado do cliente ausente: o cabeçalho X-SSL-Client-Cert não vale sob TLS, onde o certificado é o do handshake (TLS mútuo); atrás de um terminador TLS que o define, inicie o sandbox com --trust-client-cert-header true'

/** What a request offers as its client certificate: the header's problems, or a header sent where it does not count. */
export type ClientCertificate = HeaderResult | { ok: false, problem: 'HEADER_NOT_TRUSTED' }

export type ClientCheck =
  | { ok: true, account: Account }
  | { ok: false, problem: HeaderProblem | 'HEADER_NOT_TRUSTED' | 'BAD_CREDENTIALS' | 'NOT_LINKED' }

/**
 * Checked in this order: the certificate, the credentials (the secret is compared for an unknown
 * clientId too, so the time taken does not tell which clientIds exist), then the link between them.
 */
export function authenticateClient (accounts: { accountByClientId (clientId: string): Account | undefined }, cert: ClientCertificate, clientId: string, clientSecret: string): ClientCheck {
  if (!cert.ok) return { ok: false, problem: cert.problem }
  const account = accounts.accountByClientId(clientId)
  const secretMatches = sameSecret(clientSecret, account?.clientSecret ?? '')
  if (!account || !secretMatches) return { ok: false, problem: 'BAD_CREDENTIALS' }
  if (!account.certificateFingerprints.includes(cert.fingerprint)) return { ok: false, problem: 'NOT_LINKED' }
  return { ok: true, account }
}

/**
 * The client credentials of an `Authorization: Basic` header (RFC 6749 §2.3.1: client_id and
 * client_secret, each form-encoded, joined by a colon and base64-encoded); null when the header is
 * not Basic, `malformed` when it is but does not decode to both.
 */
export function basicCredentials (header: string | undefined): { clientId: string, clientSecret: string } | 'malformed' | null {
  if (header === undefined) return null
  const match = /^\s*Basic(?:\s+(\S*))?\s*$/i.exec(header)
  if (!match) return null
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(match[1] ?? '')) return 'malformed'
  const form = (part: string): string | null => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '))
    } catch {
      return null
    }
  }
  const clientId = form(decoded.slice(0, colon))
  const clientSecret = form(decoded.slice(colon + 1))
  return clientId === null || clientSecret === null || clientSecret === '' ? 'malformed' : { clientId, clientSecret }
}
