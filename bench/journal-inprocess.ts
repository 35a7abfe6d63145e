/**
 * `node --import tsx bench/journal-inprocess.ts`: the request journal's cost without HTTP or a second
 * process: 2,000 cash-outs per turn through `app.inject` on a sandbox that keeps bodies and on one
 * with `--journal-bodies false`, four turns each, alternating; the first turn of each is warm-up.
 * Prints the time with bodies as a share of the time without. Not part of `npm test`.
 */
import { buildApp } from '../server/app.js'

const PER_TURN = 2000
const body = { value: 1.23, description: 'benchmark', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: '52998224725' } }

async function sandbox (journalBodies: boolean) {
  const app = await buildApp({ config: { seed: 'bench', journalBodies, settlementDelayMs: 10 } })
  const a = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { balance: 1e11, fee: 0.1, limits: { perTransaction: 1e9, daily: 1e11, nightly: 1e9 } } })).json()
  const token = (await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(a.certificate) }, payload: { clientId: a.clientId, clientSecret: a.clientSecret } })).json().access_token
  return { app, token }
}

let n = 0
async function turn (s: Awaited<ReturnType<typeof sandbox>>): Promise<number> {
  const t0 = performance.now()
  for (let i = 0; i < PER_TURN; i++) await s.app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { authorization: `Bearer ${s.token}` }, payload: { ...body, externalId: `bench-${n++}` } })
  return performance.now() - t0
}

const on = await sandbox(true)
const off = await sandbox(false)
const ms = { on: [] as number[], off: [] as number[] }
for (let round = 0; round < 4; round++) {
  ms.on.push(await turn(on))
  ms.off.push(await turn(off))
}
const measured = (xs: number[]): number => xs.slice(1).reduce((a, b) => a + b, 0)
console.log(`with bodies ${ms.on.map(Math.round).join(', ')} ms; without ${ms.off.map(Math.round).join(', ')} ms`)
console.log(`time with bodies: ${((measured(ms.on) / measured(ms.off)) * 100).toFixed(1)}% of without (first turn of each left out)`)
await on.app.close()
await off.app.close()
