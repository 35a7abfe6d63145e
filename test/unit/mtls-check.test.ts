import t from 'tap'
import { MTLS_MESSAGES, firstProbe, secondProbe } from '../../server/webhooks/mtls-check.js'
import type { SendResult } from '../../server/webhooks/sender.js'

/**
 * What each outcome of the two requests of the mTLS check at registration means (docs/webhooks.md,
 * mutual TLS): the outcomes the real receivers of test/flows/webhooks-mtls.test.ts do not produce
 * (a time-out, a reset in the handshake) are read here from the sender's results.
 */

const answered = (statusCode: number): SendResult => ({ statusCode, latencyMs: 1, error: null, responseBody: '', cancelled: false })
const failed = (error: string): SendResult => ({ statusCode: null, latencyMs: 1, error, responseBody: null, cancelled: false })

t.test('without a certificate: a 2xx is a receiver that takes anyone; any refusal is what Efí asks', async t => {
  t.equal(firstProbe(answered(200)), MTLS_MESSAGES.notMutual)
  t.equal(firstProbe(answered(204)), MTLS_MESSAGES.notMutual)
  t.equal(firstProbe(answered(401)), null)
  t.equal(firstProbe(answered(403)), null)
  t.equal(firstProbe(answered(500)), null, 'any status but 2xx refuses')
  t.equal(firstProbe(failed('ECONNRESET: read ECONNRESET')), null, 'a handshake cut short')
  t.equal(firstProbe(failed('UND_ERR_SOCKET: other side closed')), null)
  t.equal(firstProbe(failed('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: alert number 116')), null, 'a TLS alert')
})

t.test('without a certificate: a receiver that cannot be reached, is too slow or whose certificate is not trusted fails at once', async t => {
  t.equal(firstProbe(failed('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9')), MTLS_MESSAGES.unreachable)
  t.equal(firstProbe(failed('ENOTFOUND: getaddrinfo ENOTFOUND nowhere.test')), MTLS_MESSAGES.unreachable)
  t.equal(firstProbe(failed('SELF_ADDRESS: a URL aponta para o próprio sandbox')), MTLS_MESSAGES.unreachable)
  t.equal(firstProbe(failed('TIMEOUT: sem resposta completa em 10000 ms')), MTLS_MESSAGES.timeout)
  t.equal(firstProbe(failed('DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate (o certificado TLS do receptor não foi aceito: ...)')),
    'A requisição na URL informada falhou com o erro: DEPTH_ZERO_SELF_SIGNED_CERT')
  t.equal(firstProbe(failed('ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match')), 'A requisição na URL informada falhou com o erro: ERR_TLS_CERT_ALTNAME_INVALID')
})

t.test('with the certificate: only a 2xx passes; anything else is its reason in Efí\'s words', async t => {
  t.equal(secondProbe(answered(200)), null)
  t.equal(secondProbe(answered(404)), 'A URL informada respondeu com o código HTTP 404')
  t.equal(secondProbe(answered(502)), 'A URL informada respondeu com o código HTTP 502')
  t.equal(secondProbe(failed('ECONNRESET: read ECONNRESET')), 'A requisição na URL informada falhou com o erro: ECONNRESET')
  t.equal(secondProbe(failed('TIMEOUT: nenhuma conexão com o receptor em 10000 ms')), MTLS_MESSAGES.timeout)
  t.equal(secondProbe(failed('EHOSTUNREACH: connect EHOSTUNREACH')), MTLS_MESSAGES.unreachable)
})
