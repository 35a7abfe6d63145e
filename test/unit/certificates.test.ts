import t from 'tap'
import { X509Certificate, createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fingerprintOf, fromPem, generateClientCertificate, readCertificateHeader } from '../../server/auth/certificates.js'

/** Client certificates: generation, fingerprints and the percent-encoded X-SSL-Client-Cert header (docs/gateway.md §5). */

const fixturePem = readFileSync(new URL('../../fixtures/certs/default-client.crt.pem', import.meta.url), 'utf8')
const T0 = Date.parse('2026-03-10T15:00:00.000Z')

t.test('a generated certificate is a valid client certificate with its key', async t => {
  const g = await generateClientCertificate('LOJA, "TESTE" = 1', 42, T0)
  const cert = new X509Certificate(g.certificate)
  t.ok(cert.checkPrivateKey(createPrivateKey(g.privateKey)))
  t.equal(g.fingerprint, cert.fingerprint256)
  t.match(cert.subject, /CN=LOJA/)
  t.match(cert.subject, /O=pix-sandbox/)
  t.equal(cert.serialNumber, '2A')
  t.ok(Date.parse(cert.validFrom) <= T0 && Date.parse(cert.validTo) > T0 + 365 * 86_400_000, 'valid now and for years')
  t.match(cert.keyUsage ?? [], ['1.3.6.1.5.5.7.3.2'], 'extended key usage: client authentication')
  t.equal(cert.ca, false)
  const other = await generateClientCertificate('X', 43, T0)
  t.not(other.fingerprint, g.fingerprint, 'every certificate is new')
})

t.test('fingerprints are SHA-256 in node:crypto form', async t => {
  t.match(fingerprintOf(fixturePem), /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  t.equal(fingerprintOf(fixturePem), new X509Certificate(fixturePem).fingerprint256)
})

t.test('the header: RFC 3986 percent-encoding decodes to the certificate', async t => {
  const r = readCertificateHeader(encodeURIComponent(fixturePem))
  t.same(r, { ok: true, pem: fixturePem, fingerprint: fingerprintOf(fixturePem) })
  // CRLF line ends and surrounding blank lines are tolerated.
  const crlf = readCertificateHeader(encodeURIComponent('\n' + fixturePem.replace(/\n/g, '\r\n')))
  t.equal(crlf.ok, true)
})

t.test('the header: each problem is told apart', async t => {
  t.same(readCertificateHeader(undefined), { ok: false, problem: 'MISSING' })
  t.same(readCertificateHeader(''), { ok: false, problem: 'MISSING' })
  t.same(readCertificateHeader(['a', 'b']), { ok: false, problem: 'MISSING' })
  t.same(readCertificateHeader(encodeURIComponent(fixturePem).replace(/%20/g, '+')), { ok: false, problem: 'MALFORMED_ENCODING' }, 'form encoding')
  t.same(readCertificateHeader('%E0%A4%A'), { ok: false, problem: 'MALFORMED_ENCODING' }, 'broken escape')
  t.same(readCertificateHeader('hello'), { ok: false, problem: 'NOT_PEM' })
  t.same(readCertificateHeader(encodeURIComponent('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')), { ok: false, problem: 'NOT_PEM' })
  t.same(readCertificateHeader(encodeURIComponent('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')), { ok: false, problem: 'INVALID_CERTIFICATE' })
  t.same(fromPem('nonsense'), { ok: false, problem: 'INVALID_CERTIFICATE' })
})
