import { X509Certificate, webcrypto } from 'node:crypto'

/**
 * Client certificates: generated per account with a maintained X.509 library (ECDSA P-256, so an
 * account is created in milliseconds), and read back from the percent-encoded `X-SSL-Client-Cert`
 * header that the gateway's TLS terminator forwards (spec section 5).
 */

// The X.509 library is only needed to create an account, and loading it costs more than a tenth of
// the sandbox's start-up, so it is loaded on first use.
let x509Module: Promise<typeof import('@peculiar/x509')> | null = null
function loadX509 (): Promise<typeof import('@peculiar/x509')> {
  x509Module ??= import('@peculiar/x509').then(m => {
    m.cryptoProvider.set(webcrypto as unknown as Crypto)
    return m
  })
  return x509Module
}

export interface GeneratedCertificate {
  certificate: string
  privateKey: string
  fingerprint: string
}

function toPem (der: ArrayBuffer, label: string): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`
}

export async function generateClientCertificate (commonName: string, serial: number, now: number): Promise<GeneratedCertificate> {
  const x509 = await loadX509()
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' }
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']) as CryptoKeyPair
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString(16).padStart(2, '0'),
    name: `CN=${commonName.replace(/[,=+<>#;"\\]/g, ' ')}, O=pix-sandbox`,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 10 * 365 * 86_400_000),
    signingAlgorithm: alg,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
    ],
  }, webcrypto as unknown as Crypto)
  const certificate = cert.toString('pem') + '\n'
  const privateKey = toPem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY')
  return { certificate, privateKey, fingerprint: fingerprintOf(certificate) }
}

/** SHA-256 fingerprint as node:crypto prints it (upper-case hex pairs joined by colons). */
export function fingerprintOf (pem: string): string {
  return new X509Certificate(pem).fingerprint256
}

export type HeaderProblem = 'MISSING' | 'MALFORMED_ENCODING' | 'NOT_PEM' | 'INVALID_CERTIFICATE'
export type HeaderResult = { ok: true, pem: string, fingerprint: string } | { ok: false, problem: HeaderProblem }

const pemPattern = /^\s*-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*$/

/**
 * Decodes the header (RFC 3986 percent-encoding). A `+` standing for a space (form encoding) breaks
 * the PEM armour lines, which is how the real gateway reports "invalid client certificate format".
 */
export function readCertificateHeader (header: string | string[] | undefined): HeaderResult {
  if (header === undefined || header === '' || Array.isArray(header)) return { ok: false, problem: 'MISSING' }
  let pem: string
  try {
    pem = decodeURIComponent(header)
  } catch {
    return { ok: false, problem: 'MALFORMED_ENCODING' }
  }
  if (!pemPattern.test(pem)) return { ok: false, problem: pem.includes('BEGIN+CERTIFICATE') || /\+/.test(header) ? 'MALFORMED_ENCODING' : 'NOT_PEM' }
  return fromPem(pem)
}

export function fromPem (pem: string): HeaderResult {
  try {
    return { ok: true, pem, fingerprint: new X509Certificate(pem).fingerprint256 }
  } catch {
    return { ok: false, problem: 'INVALID_CERTIFICATE' }
  }
}
