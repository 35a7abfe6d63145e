/**
 * What a request allocates: `node --import tsx bench/alloc.ts [DIR] [requests] [--path /balance]`.
 * Loads a build's `dist/server/app.js` (this checkout's by default), warms up with 3,000 cash-outs
 * (or GETs of `--path`) through `app.inject`, then samples V8's allocations (those collected since
 * included) over `requests` more and prints the bytes per request by allocating function. Garbage is
 * what the collector's share of a profile is made of; `app.inject`'s own allocations are counted too.
 */
import { Session } from 'node:inspector/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

interface Frame { functionName: string, url: string, lineNumber: number }
interface SampleNode { callFrame: Frame, selfSize: number, children: SampleNode[] }

const args = process.argv.slice(2)
const pathAt = args.indexOf('--path')
const getPath = pathAt === -1 ? undefined : args[pathAt + 1]
const positional = pathAt === -1 ? args : args.filter((_a, i) => i !== pathAt && i !== pathAt + 1)
const dir = resolve(positional[0] ?? new URL('..', import.meta.url).pathname)
const requests = Number(positional[1] ?? 10000)

const { buildApp } = await import(pathToFileURL(join(dir, 'dist/server/app.js')).href) as typeof import('../server/app.js')
const app = await buildApp({ config: { seed: 'bench', settlementDelayMs: 10, logLevel: 'silent' } })
const account = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } } })).json()
const token = (await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(account.certificate) }, payload: { clientId: account.clientId, clientSecret: account.clientSecret } })).json().access_token
const body = { value: 1.23, description: 'alloc', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } }
let n = 0
const one = async (): Promise<void> => {
  if (getPath) await app.inject({ method: 'GET', url: getPath, headers: { authorization: `Bearer ${token}` } })
  else await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ ...body, externalId: `alloc-${n++}` }) })
}
const load = async (count: number): Promise<void> => {
  let left = count
  await Promise.all(Array.from({ length: 10 }, async () => { while (left-- > 0) await one() }))
  await new Promise(resolve => setTimeout(resolve, 50))
}

await load(3000)
const session = new Session()
session.connect()
await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
await load(requests)
const { profile } = await session.post('HeapProfiler.stopSampling') as unknown as { profile: { head: SampleNode } }
await app.close()

const bytes = new Map<string, number>()
let total = 0
const walk = (node: SampleNode): void => {
  const f = node.callFrame
  const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/.*\/(dist|node_modules)\//, '')}:${f.lineNumber + 1}`
  if (node.selfSize > 0) {
    bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize)
    total += node.selfSize
  }
  for (const child of node.children) walk(child)
}
walk(profile.head)
console.log(`${Math.round(total / requests)} bytes allocated per ${getPath ?? 'cash-out'} (sampled)`)
for (const [name, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, 40)) console.log(`${String(Math.round(b / requests)).padStart(6)} B  ${name}`)
