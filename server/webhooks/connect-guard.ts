import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'
import * as nodeTls from 'node:tls'
import { readFileSync } from 'node:fs'
import { Agent, Pool, buildConnector } from 'undici'
import { addressReaches, type Listener } from './own-address.js'
import type { ClientIdentity } from './identity.js'

/**
 * The sender's connections check where they go (docs/assumptions.md, Webhooks). A receiver's name is
 * resolved as the connection is made, and the connection goes to the addresses that lookup gave once
 * they are checked: none may reach the sandbox's own listener (own-address.ts). Checking a name and
 * then connecting by name would resolve it twice, and a name whose answer changes in between (a DNS
 * rebinding, an /etc/hosts edited) would reach the sandbox all the same. A host that is an address is
 * checked as it is. A connection kept alive between attempts went to an address checked when it was made.
 */

/** What the guard needs: where the sandbox listens now, or null when SANDBOX_SELF_WEBHOOKS allows its own address. */
export type Listening = () => readonly Listener[] | null

/** What net.connect calls to resolve a host: dns.lookup's signature, one address or (with `all`) every one. */
export type Lookup = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void

const lookupAll: Lookup = (hostname, options, callback) => { dnsLookup(hostname, options, callback) }

/** The attempt's error, in the delivery log as `SELF_ADDRESS: ...` (sender.ts reads `code`). */
function selfAddress (host: string, address: string): NodeJS.ErrnoException {
  const shown = host === address ? address : `${host}, que resolve para ${address}`
  return Object.assign(new Error(`a URL aponta para o próprio sandbox (${shown}); a tentativa não foi feita (SANDBOX_SELF_WEBHOOKS=enabled a permite)`), { code: 'SELF_ADDRESS' })
}

type Connector = buildConnector.connector

/** The connector of one origin: its port is what decides whether an address is the sandbox's. */
function guardedConnector (origin: URL, timeoutMs: number, listening: Listening, lookup: Lookup, secureContext: nodeTls.SecureContext | undefined): Connector {
  const port = origin.port !== '' ? Number(origin.port) : origin.protocol === 'https:' ? 443 : 80
  const reachesSandbox = (address: string): boolean => {
    const listeners = listening()
    return listeners !== null && addressReaches(address, port, listeners)
  }
  const checkedLookup = (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      const own = addresses.find(a => reachesSandbox(a.address))
      if (own !== undefined) return callback(selfAddress(hostname, own.address), [])
      if (addresses.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), [])
      if (options.all === true) callback(null, addresses)
      else callback(null, addresses[0].address, addresses[0].family)
    })
  }
  const connect = buildConnector({ timeout: timeoutMs, lookup: checkedLookup, ...(secureContext !== undefined ? { secureContext } : {}) } as buildConnector.BuildOptions)
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1')
    if (isIP(host) !== 0 && reachesSandbox(host)) {
      callback(selfAddress(host, host), null)
      return
    }
    connect(options, callback)
  }
}

/** What an https connection of the sender trusts and presents (docs/webhooks.md, mutual TLS). */
export interface SenderTls {
  /** --webhook-receiver-ca: trusted for receivers' server certificates besides Node's own. */
  receiverCa?: string
  /** The sandbox's client certificate, presented when the receiver asks for one. */
  client?: ClientIdentity
}

/**
 * Node's default CAs, NODE_EXTRA_CA_CERTS included: a context given its own `ca` trusts only those, so
 * they are listed (Node lists them itself from 22.15; before, the file is read here, once per agent).
 */
function defaultCas (): readonly string[] {
  const listing = nodeTls as { getCACertificates?: (which: 'default') => string[] }
  const listed = listing.getCACertificates?.('default')
  if (listed !== undefined) return listed
  const extra = process.env.NODE_EXTRA_CA_CERTS
  if (extra === undefined || extra === '') return nodeTls.rootCertificates
  try {
    return [...nodeTls.rootCertificates, readFileSync(extra, 'utf8')]
  } catch {
    return nodeTls.rootCertificates // Node warned of it at start, and trusts none of it either
  }
}

/**
 * One TLS context per agent, made once: a context given as options to every connection would be
 * built again for each (parsing every root CA). None when nothing differs from Node's defaults.
 */
function secureContextOf (tls: SenderTls): nodeTls.SecureContext | undefined {
  if (tls.receiverCa === undefined && tls.client === undefined) return undefined
  return nodeTls.createSecureContext({
    minVersion: 'TLSv1.2',
    ...(tls.receiverCa !== undefined ? { ca: [...defaultCas(), tls.receiverCa] } : {}),
    ...(tls.client !== undefined ? { cert: tls.client.certificate, key: tls.client.privateKey } : {}),
  })
}

/**
 * The sender's HTTP agent: a pool per receiver origin (`connections` sockets each), whose connections
 * are guarded unless `listening` answers null, and whose TLS is `tls`'s.
 */
export function webhookAgent (opts: { connections: number, connectTimeoutMs: number, keepAliveTimeout: number, listening: Listening, lookup?: Lookup, tls?: SenderTls }): Agent {
  const lookup = opts.lookup ?? lookupAll
  const secureContext = secureContextOf(opts.tls ?? {})
  return new Agent({
    keepAliveTimeout: opts.keepAliveTimeout,
    connections: opts.connections,
    factory: (origin, options) => new Pool(origin, { ...options, connect: guardedConnector(new URL(String(origin)), opts.connectTimeoutMs, opts.listening, lookup, secureContext) }),
  })
}
