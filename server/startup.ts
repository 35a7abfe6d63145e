import { X509Certificate, createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { NetworkInterfaceInfo } from 'node:os'
import type { Config } from './config.js'
import { StartupError } from './errors/startup.js'
import type { ClientIdentity, WebhookTls } from './webhooks/identity.js'
import { packageRoot } from './paths.js'

/**
 * What the process says at start, kept apart from main.ts so it can be tested without spawning:
 * the reason a start failed in one line a person can act on, the addresses really listened on, and
 * the warning when the control plane is open to the network.
 *
 * Human lines go to stderr; stdout carries only the JSON log (pino). Both follow LOG_LEVEL: the
 * listening lines are info, the warning is warn, and `silent` prints neither. A failed start is
 * always printed, with its stack trace only at debug or trace.
 */

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']

/** Whether a line of `level` shows under the configured log level (unknown levels count as info). */
export function shows (configured: string | undefined, level: 'info' | 'warn' | 'debug'): boolean {
  const at = LEVELS.indexOf(configured ?? 'info')
  return LEVELS.indexOf(level) >= (at === -1 ? LEVELS.indexOf('info') : at)
}

/** The lines to print for a start that failed: one line, plus the stack trace at debug or trace. */
export function failureLines (err: unknown, logLevel: string | undefined): string[] {
  const withStack = shows(logLevel, 'debug')
  const stack = (e: unknown): string[] => {
    const source = (e as { cause?: unknown }).cause ?? e
    return withStack && source instanceof Error && source.stack ? [source.stack] : []
  }
  if (err instanceof StartupError) return [`pix-sandbox: ${err.message.replace(/\s*\n\s*/g, ' ')}`, ...stack(err)]
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
  return [`pix-sandbox: failed to start: ${what.replace(/\s*\n\s*/g, ' ')}${withStack ? '' : ' (LOG_LEVEL=debug prints the stack trace)'}`, ...stack(err)]
}

/** A PEM file of a setting, read and checked before anything starts: a start-up error names the setting. */
function readPem (path: string, setting: string, check: (pem: Buffer) => unknown, what: string): Buffer {
  let pem: Buffer
  try {
    pem = readFileSync(path)
  } catch (err) {
    throw new StartupError(`${setting}: cannot read ${path}: ${describeFsError(err)}`)
  }
  try {
    check(pem)
  } catch {
    throw new StartupError(`${setting}: ${path} is not ${what}`)
  }
  return pem
}

/** The server certificate and key of --tls-cert / --tls-key, read and checked before anything starts. */
export function readTls (config: Pick<Config, 'tlsCert' | 'tlsKey'>): { cert: Buffer, key: Buffer } | undefined {
  if (!config.tlsCert || !config.tlsKey) return undefined
  return {
    cert: readPem(config.tlsCert, 'tlsCert (--tls-cert / SANDBOX_TLS_CERT)', pem => new X509Certificate(pem), 'a PEM certificate'),
    key: readPem(config.tlsKey, 'tlsKey (--tls-key / SANDBOX_TLS_KEY)', pem => createPrivateKey(pem), 'a PEM private key'),
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g

/** Every certificate of a PEM file, each checked; none is an error. */
function certificatesOf (pem: Buffer): string[] {
  const found = pem.toString('utf8').match(PEM_CERTIFICATE) ?? []
  if (found.length === 0) throw new Error('no certificate')
  for (const c of found) void new X509Certificate(c)
  return found.map(c => `${c}\n`)
}

/**
 * The sandbox's own PSP identity towards webhook receivers, shipped with the package (and the image):
 * made once with openssl and committed, so a receiver can trust its CA ahead of time
 * (docs/webhooks.md, mutual TLS). The certificate file holds the client certificate, then its CA.
 */
export const SHIPPED_WEBHOOK_IDENTITY = {
  cert: join(packageRoot, 'fixtures', 'certs', 'webhook-client.crt.pem'),
  key: join(packageRoot, 'fixtures', 'certs', 'webhook-client.key.pem'),
  ca: join(packageRoot, 'fixtures', 'certs', 'webhook-ca.crt.pem'),
}

/** A client certificate file (the certificate, then the CA certificates that issued it) and its key, read and checked. */
/** The shipped identity, read and checked once per process: its files are the package's own (the tests build hundreds of apps). */
let shippedIdentity: ClientIdentity | undefined

function readClientIdentity (certPath: string, keyPath: string): ClientIdentity {
  const certSetting = 'webhookClientCert (--webhook-client-cert / SANDBOX_WEBHOOK_CLIENT_CERT)'
  const chain = certificatesOf(readPem(certPath, certSetting, certificatesOf, 'a PEM certificate'))
  const key = readPem(keyPath, 'webhookClientKey (--webhook-client-key / SANDBOX_WEBHOOK_CLIENT_KEY)', pem => createPrivateKey(pem), 'a PEM private key')
  if (!new X509Certificate(chain[0]).checkPrivateKey(createPrivateKey(key))) {
    throw new StartupError(`${certSetting}: the key of --webhook-client-key ${keyPath} is not the key of the certificate in ${certPath}`)
  }
  return { certificate: chain.join(''), privateKey: key.toString('utf8'), ca: (chain.length > 1 ? chain.slice(1) : chain).join('') }
}

/**
 * The sandbox's TLS towards webhook receivers (docs/webhooks.md, mutual TLS): its client certificate
 * and key, given by --webhook-client-cert/--webhook-client-key or else the one shipped with the
 * package (the CA a receiver trusts is what follows the certificate in its file, or the certificate
 * itself when it is alone, self-signed), and the CAs receivers' server certificates may chain to.
 */
export function readWebhookTls (config: Pick<Config, 'webhookClientCert' | 'webhookClientKey' | 'webhookReceiverCa'>): WebhookTls {
  const given = Boolean(config.webhookClientCert) && Boolean(config.webhookClientKey)
  const tls: WebhookTls = {
    client: given ? readClientIdentity(config.webhookClientCert!, config.webhookClientKey!) : (shippedIdentity ??= readClientIdentity(SHIPPED_WEBHOOK_IDENTITY.cert, SHIPPED_WEBHOOK_IDENTITY.key)),
  }
  if (config.webhookReceiverCa) {
    const setting = 'webhookReceiverCa (--webhook-receiver-ca / SANDBOX_WEBHOOK_RECEIVER_CA)'
    tls.receiverCa = certificatesOf(readPem(config.webhookReceiverCa, setting, certificatesOf, 'a PEM file of CA certificates')).join('')
  }
  return tls
}

export function describeFsError (err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'no such file or folder'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'it is a folder, not a file'
  return (err as Error).message
}

/** The reason `listen` failed, in the settings' words; anything else is not a start-up error of ours. */
export function listenFailure (err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code
  const where = `port ${port} of ${host}`
  let failure: StartupError | undefined
  if (code === 'EADDRINUSE') failure = new StartupError(`${where} is already in use: use --port or PORT to choose another (0 picks a free one)`, 1)
  else if (code === 'EACCES') failure = new StartupError(`not allowed to listen on ${where}: use --port or PORT to choose one above 1023`, 1)
  else if (code === 'EADDRNOTAVAIL') failure = new StartupError(`host ${host} is not an address of this machine: use --host or HOST (127.0.0.1 for this machine only, 0.0.0.0 for every interface)`)
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') failure = new StartupError(`host ${host} does not resolve to an address: use --host or HOST (127.0.0.1 for this machine only, 0.0.0.0 for every interface)`)
  return failure ? Object.assign(failure, { cause: err }) : err
}

function isLoopback (address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address)
}

/**
 * The addresses a bound socket really accepts connections on: the address itself, or for a wildcard
 * (0.0.0.0, ::) every address of this machine's interfaces of the families it takes.
 */
export function listenedAddresses (bound: AddressInfo[], interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const all = Object.entries(interfaces).flatMap(([name, infos]) => (infos ?? []).map(info => ({ name, info })))
  const out: string[] = []
  for (const b of bound) {
    if (b.address === '0.0.0.0' || b.address === '::') {
      // `::` is dual-stack in Node unless ipv6Only is asked for, which the sandbox never does.
      const families = b.address === '::' ? ['IPv4', 'IPv6'] : ['IPv4']
      for (const { name, info } of all) {
        if (!families.includes(info.family)) continue
        out.push(info.family === 'IPv6' && info.scopeid ? `${info.address}%${name}` : info.address)
      }
    } else {
      out.push(b.address)
    }
  }
  return [...new Set(out)]
}

export interface Announcement {
  urls: string[]
  /** The address a person (or a test) on this machine uses: the loopback one when listened on. */
  url: string
  dashboard: string
  docs: string
  /** Set when the control plane is reachable beyond this machine with no admin token. */
  warning?: string
}

/** What the start-up lines say, from the bound sockets and the settings. */
export function announcement (bound: AddressInfo[], interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>, opts: { https: boolean, adminToken?: string }): Announcement {
  const protocol = opts.https ? 'https' : 'http'
  const port = bound[0]?.port
  const addresses = listenedAddresses(bound, interfaces)
  const url = (address: string): string => `${protocol}://${address.includes(':') ? `[${address}]` : address}:${port}`
  const urls = addresses.map(url)
  // The person at this machine opens the loopback address; a machine without one gets the first.
  const home = url(addresses.find(isLoopback) ?? addresses[0] ?? bound[0]?.address ?? '127.0.0.1')
  const open = bound.some(b => !isLoopback(b.address))
  const warning = open && !opts.adminToken
    ? `listening beyond this machine (${bound.map(b => b.address).join(', ')}) with no SANDBOX_ADMIN_TOKEN: anyone on the network can use the control plane (/__sandbox), with every account's credentials and keys; set SANDBOX_ADMIN_TOKEN (--admin-token) or listen on 127.0.0.1 (HOST, --host)`
    : undefined
  return { urls, url: home, dashboard: `${home}/dashboard`, docs: `${home}/docs`, ...(warning ? { warning } : {}) }
}

/**
 * The human start-up lines for stderr, filtered by the log level. `notices` are what opening the data
 * file did that a person should know (a journal set aside), said as warnings.
 */
export function startupLines (a: Announcement, info: { version: string, seed: string, data?: string, notices?: readonly string[] }, logLevel: string | undefined): string[] {
  const lines: string[] = []
  if (shows(logLevel, 'info')) {
    lines.push(`pix-sandbox ${info.version} listening on ${a.urls.join(', ')} (seed ${info.seed}, state ${info.data ? `in ${info.data}` : 'in memory'})`)
    lines.push(`pix-sandbox: dashboard ${a.dashboard}, API docs ${a.docs}`)
  }
  if (shows(logLevel, 'warn')) {
    for (const notice of info.notices ?? []) lines.push(`pix-sandbox: warning: ${notice}`)
    if (a.warning) lines.push(`pix-sandbox: warning: ${a.warning}`)
  }
  return lines
}
