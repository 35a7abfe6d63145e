import type { SendResult } from './sender.js'
import { SERVER_CERTIFICATE_ERRORS } from './sender.js'

/**
 * The check of a receiver's mutual TLS when an API Pix webhook is configured (docs/webhooks.md, mutual
 * TLS; docs/assumptions.md, Webhooks), as Efí documents it: "enviaremos uma requisição sem certificado
 * e seu servidor não deverá aceitar a requisição. Caso seu servidor responda com recusa, enviaremos a
 * 2ª requisição", which must complete the handshake with the client certificate and answer 2xx. Both
 * are a POST of a test notification to the URL as registered. What each outcome means is here, pure;
 * the requests go out through the sender thread (service.ts). The messages are Efí's, word for word.
 */
export const MTLS_MESSAGES = {
  notMutual: 'A autenticação de TLS mútuo não está configurada na URL informada',
  unreachable: 'A URL informada está inacessível',
  timeout: 'A URL informada atingiu o tempo limite de resposta',
  failed: (code: string) => `A requisição na URL informada falhou com o erro: ${code}`,
  status: (status: number) => `A URL informada respondeu com o código HTTP ${status}`,
} as const

/** How long each request of the check waits (Efí publishes none for registration). */
export const PROBE_TIMEOUT_MS = 10_000

/** The codes of a receiver that cannot be reached at all (nothing listens, no such host, the sandbox itself). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT', 'SELF_ADDRESS'])

const codeOf = (error: string): string => error.slice(0, error.indexOf(':') === -1 ? undefined : error.indexOf(':'))

/** Why a request of the check that did not answer fails the registration (null: none of these). */
function failureOf (error: string): string | null {
  const code = codeOf(error)
  if (code === 'TIMEOUT') return MTLS_MESSAGES.timeout
  if (UNREACHABLE.has(code)) return MTLS_MESSAGES.unreachable
  if (SERVER_CERTIFICATE_ERRORS.has(code)) return MTLS_MESSAGES.failed(code)
  return null
}

const ok = (r: SendResult): boolean => r.statusCode !== null && r.statusCode >= 200 && r.statusCode <= 299

/**
 * The request without a certificate: a 2xx means the receiver accepts anyone (refused); a refusal, in
 * the handshake (an alert, a reset) or by a non-2xx status, is what it should do (null: go on). A
 * receiver that cannot be reached, or whose own certificate the sandbox does not trust, fails here.
 */
export function firstProbe (r: SendResult): string | null {
  if (r.error === null && r.statusCode !== null) return ok(r) ? MTLS_MESSAGES.notMutual : null
  return failureOf(r.error ?? '')
}

/** The request with the certificate: it must be answered 2xx (null); anything else is its reason. */
export function secondProbe (r: SendResult): string | null {
  if (r.error === null && r.statusCode !== null) return ok(r) ? null : MTLS_MESSAGES.status(r.statusCode)
  const error = r.error ?? 'NETWORK_ERROR'
  return failureOf(error) ?? MTLS_MESSAGES.failed(codeOf(error))
}
