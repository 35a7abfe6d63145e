import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'

/**
 * An npm registry behind a company's TLS inspection, on 127.0.0.1: a CA of its own (made with openssl,
 * as an IT department makes one) signs the registry's certificate, which the registry sends with the
 * CA in its chain, so an npm that does not trust that CA fails with SELF_SIGNED_CERT_IN_CHAIN as it
 * does behind such a proxy. The registry answers at its address and, through an HTTP proxy that
 * tunnels CONNECT for that host alone, at `https://registry.example.test/` (a name no resolver knows:
 * only the proxy reaches it). It serves the packages it is given, each one version, and logs every
 * request and tunnel.
 */
export interface RegistryStandIn {
  /** The registry reached directly: https://127.0.0.1:<port>/ */
  url: string
  /** The registry reached only through `proxy`: https://registry.example.test/ */
  proxiedUrl: string
  /** The HTTP proxy: http://127.0.0.1:<port> */
  proxy: string
  /** The CA's certificate (PEM file): the one thing to trust. */
  caFile: string
  /** Each request the registry answered, `METHOD path`. */
  requests: string[]
  /** Each CONNECT the proxy tunnelled, `host:port`. */
  tunnels: string[]
  close: () => Promise<void>
}

const PROXIED_HOST = 'registry.example.test'

function certificates (dir: string): { caFile: string, key: string, chain: string } {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2']
  const caFile = join(dir, 'company-ca.crt')
  execFileSync('openssl', ['req', '-x509', ...ec, '-subj', '/CN=Company TLS inspection CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign',
    '-keyout', join(dir, 'company-ca.key'), '-out', caFile], { stdio: 'ignore' })
  execFileSync('openssl', ['req', '-x509', ...ec, '-subj', `/CN=${PROXIED_HOST}`,
    '-addext', `subjectAltName=DNS:${PROXIED_HOST},IP:127.0.0.1`, '-addext', 'basicConstraints=CA:FALSE',
    '-CA', caFile, '-CAkey', join(dir, 'company-ca.key'),
    '-keyout', join(dir, 'registry.key'), '-out', join(dir, 'registry.crt')], { stdio: 'ignore' })
  return { caFile, key: readFileSync(join(dir, 'registry.key'), 'utf8'), chain: readFileSync(join(dir, 'registry.crt'), 'utf8') + readFileSync(caFile, 'utf8') }
}

/** A package's tarball as npm pack lays it out (everything under `package/`), made with tar. */
function tarball (dir: string, name: string, version: string): Buffer {
  const source = join(dir, `${name}-src`)
  mkdirSync(join(source, 'package'), { recursive: true })
  writeFileSync(join(source, 'package', 'package.json'), JSON.stringify({ name, version, main: 'index.js' }))
  writeFileSync(join(source, 'package', 'index.js'), `module.exports = ${JSON.stringify(`${name}@${version}`)}\n`)
  const file = join(dir, `${name}-${version}.tgz`)
  execFileSync('tar', ['-czf', file, '-C', source, 'package'])
  return readFileSync(file)
}

export async function startRegistryStandIn (dir: string, packages: Array<{ name: string, version: string }>): Promise<RegistryStandIn> {
  const { caFile, key, chain } = certificates(dir)
  const tarballs = new Map(packages.map(p => [`/${p.name}/-/${p.name}-${p.version}.tgz`, tarball(dir, p.name, p.version)]))
  const requests: string[] = []
  const tunnels: string[] = []
  const sockets = new Set<Socket>()

  const registry = createHttpsServer({ key, cert: chain }, (req, res) => {
    requests.push(`${req.method ?? ''} ${req.url ?? ''}`)
    // The registry's address as the client asked for it: tarball URLs point back the same way.
    const base = `https://${req.headers.host ?? ''}`
    const tgz = tarballs.get(req.url ?? '')
    const pkg = packages.find(p => req.url === `/${p.name}`)
    if (tgz) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tgz)
    } else if (pkg) {
      const path = `/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`
      const data = tarballs.get(path)!
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        name: pkg.name,
        'dist-tags': { latest: pkg.version },
        versions: {
          [pkg.version]: {
            name: pkg.name,
            version: pkg.version,
            main: 'index.js',
            dist: {
              tarball: base + path,
              shasum: createHash('sha1').update(data).digest('hex'),
              integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
            },
          },
        },
      }))
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}')
    }
  })
  const proxy = createHttpServer((req, res) => res.writeHead(405).end())
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client)
    client.on('close', () => sockets.delete(client))
    client.on('error', () => client.destroy())
    if (req.url !== `${PROXIED_HOST}:443`) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n')
      return
    }
    tunnels.push(req.url)
    const upstream = connect((registry.address() as AddressInfo).port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('close', () => { sockets.delete(upstream); client.destroy() })
    upstream.on('error', () => client.destroy())
  })
  const listen = (server: Server): Promise<number> => new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
  const [registryPort, proxyPort] = await Promise.all([listen(registry), listen(proxy)])
  return {
    url: `https://127.0.0.1:${registryPort}/`,
    proxiedUrl: `https://${PROXIED_HOST}/`,
    proxy: `http://127.0.0.1:${proxyPort}`,
    caFile,
    requests,
    tunnels,
    close: async () => {
      for (const s of sockets) s.destroy()
      registry.closeAllConnections()
      proxy.closeAllConnections()
      await Promise.all([registry, proxy].map(s => new Promise(resolve => s.close(resolve))))
    },
  }
}
