import type { LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'
import { hostname, networkInterfaces } from 'node:os'

/**
 * Whether a webhook URL reaches the sandbox itself. A receiver URL such as
 * `http://localhost:8080/__sandbox/reset` would make every event act on the sandbox (one wiped it on
 * the next payment), so registrations and attempts refuse such URLs unless SANDBOX_SELF_WEBHOOKS allows them.
 *
 * A URL is the sandbox's own when its port (explicit, or 80/443) is one the sandbox listens on and its
 * host reaches that listener:
 * - a listener on a loopback address is reached by loopback hosts: 127.0.0.0/8, ::1 and their
 *   IPv4-mapped forms, the any-addresses 0.0.0.0 and :: (connecting to them reaches the loopback),
 *   and the localhost names (`localhost`, `*.localhost`, `localhost.localdomain`, `ip6-localhost`,
 *   `ip6-loopback`, with or without a trailing dot);
 * - a listener on an any-address (0.0.0.0, ::) also by the machine's own addresses and host name;
 * - a listener on another address by that address (and the machine's host name).
 * The WHATWG URL parser has already turned `0x7f.1`, `2130706433` or `[0:0::1]` into their canonical
 * forms. Those are the rules of the URL as written (`reachesListener`); any other name is resolved
 * (`resolvesToListener`, every address it has), when it is registered and again by the sender for
 * each connection, which connects to the addresses it checked (connect-guard.ts).
 */
export interface Listener {
  address: string
  port: number
}

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')
LOOPBACK.addAddress('::', 'ipv6')

const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback'])

const isAnyAddress = (address: string): boolean => address === '0.0.0.0' || address === '::'

/**
 * An address as the rules compare it: lower case, no brackets, and an IPv4-mapped IPv6 address
 * (`::ffff:7f00:1`, as the URL parser writes it, or `::ffff:127.0.0.1`, as a resolver does) as its IPv4.
 */
export function canonicalAddress (address: string): string {
  const a = address.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  const dotted = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a)
  if (dotted) return dotted[1]
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a)
  if (!hex) return a
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)]
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/** The host as an address or name to compare: lower case, no brackets, no trailing dots, a mapped IPv4 as itself. */
function hostOf (url: URL): string {
  return canonicalAddress(url.hostname).replace(/\.+$/, '')
}

function isLoopbackHost (host: string): boolean {
  const family = isIP(host)
  if (family !== 0) return LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6')
  return LOCAL_NAMES.has(host) || host.endsWith('.localhost')
}

/** This machine's addresses and host name, read when asked (interfaces come and go). */
function isMachineHost (host: string): boolean {
  if (host === hostname().toLowerCase().replace(/\.+$/, '')) return true
  if (isIP(host) === 0) return false
  return Object.values(networkInterfaces()).some(list => list?.some(i => canonicalAddress(i.address) === host))
}

export function portOf (url: URL): number {
  if (url.port !== '') return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/** Whether a host (a name as written, or an address) on a port reaches one of the listeners. */
function hostReaches (host: string, port: number, listeners: readonly Listener[]): boolean {
  return listeners.some(l => {
    if (l.port !== port) return false
    const address = canonicalAddress(l.address)
    if (isAnyAddress(address)) return isLoopbackHost(host) || isMachineHost(host)
    if (isLoopbackHost(address)) return isLoopbackHost(host)
    return host === address || host === hostname().toLowerCase()
  })
}

/** By the URL as written: its host, an address or one of the names above. */
export function reachesListener (url: URL, listeners: readonly Listener[]): boolean {
  return hostReaches(hostOf(url), portOf(url), listeners)
}

/** Whether connecting to an address (one a name resolved to) on a port reaches one of the listeners. */
export function addressReaches (address: string, port: number, listeners: readonly Listener[]): boolean {
  return hostReaches(canonicalAddress(address), port, listeners)
}

/** What resolves a host name to every address it has (`dns.lookup` with `all`, what a connection uses). */
export type Resolve = (host: string) => Promise<LookupAddress[]>

/**
 * By the addresses the URL's host name resolves to: the sandbox's when any of them reaches a listener,
 * whatever the name (the machine's host name, a name of /etc/hosts, a DNS name). A host that is an
 * address needs no lookup (`reachesListener` judged it). A name that does not resolve, or not within
 * `timeoutMs`, reaches nothing now; the sender resolves it again for each connection and connects only
 * to addresses it checked (docs/assumptions.md, Webhooks).
 */
export async function resolvesToListener (url: URL, listeners: readonly Listener[], lookup: Resolve, timeoutMs: number): Promise<boolean> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(host) !== 0) return false
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<LookupAddress[]>(resolve => { timer = setTimeout(() => resolve([]), timeoutMs) })
  try {
    const addresses = await Promise.race([lookup(host), late])
    const port = portOf(url)
    return addresses.some(a => addressReaches(a.address, port, listeners))
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}
