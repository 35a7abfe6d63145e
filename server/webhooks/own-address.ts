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
 * forms. A DNS name that resolves to this machine (other than its host name) is not recognised: no
 * lookup is made when a URL is registered or an attempt starts.
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

/** The host as an address or name to compare: lower case, no brackets, no trailing dots. */
function hostOf (url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '')
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
  return Object.values(networkInterfaces()).some(list => list?.some(i => i.address.toLowerCase() === host))
}

function portOf (url: URL): number {
  if (url.port !== '') return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

export function reachesListener (url: URL, listeners: readonly Listener[]): boolean {
  const port = portOf(url)
  const host = hostOf(url)
  return listeners.some(l => {
    if (l.port !== port) return false
    const address = l.address.toLowerCase()
    if (isAnyAddress(address)) return isLoopbackHost(host) || isMachineHost(host)
    if (isLoopbackHost(address)) return isLoopbackHost(host)
    return host === address || host === hostname().toLowerCase()
  })
}
