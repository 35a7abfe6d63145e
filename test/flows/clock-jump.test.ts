import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { childEnv } from '../helpers/process.js'

/**
 * One long jump of the clock over a year of Pix Automático (docs/reliability.md, "A long jump of the
 * clock"): 100 monthly recurrences with twelve charges each, /webhookcobr at a live receiver that takes
 * 40 ms per answer, and one `clock/set` 13 months ahead, which debits the 1,200 charges and makes
 * 2,400 notifications at once. The jump yields: health is answered while it runs, showing the clock
 * where the jump has got to, and a second move waits for it and starts where it ended. Every
 * notification reaches the receiver once, in order per charge, and none is given up: not by the
 * pending cap (200 here, so the burst is twelve times over it), nor by a time-out (3 s here, while the
 * last deliveries wait at least 1.5 s behind the others for one of the 64 connections). The receiver
 * runs in a process of its own, so the sandbox's work never delays its answers.
 */

/** A receiver in its own process: answers each request 200 after 40 ms, and tells what it got, in the order it got it. */
const RECEIVER = `
const http = require('node:http')
const got = []
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', c => chunks.push(c))
  req.on('end', () => {
    got.push([String(req.headers['x-sandbox-delivery-id']), JSON.parse(Buffer.concat(chunks).toString()).cobsr[0].txid])
    setTimeout(() => res.end('ok'), 40)
  })
})
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', () => process.send({ got }))
process.on('disconnect', () => process.exit(0))
`

async function startReceiver (t: Test): Promise<{ url: string, got: () => Promise<Array<[string, string]>> }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { env: { ...process.env, ...childEnv() }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  t.teardown(() => { if (child.connected) child.disconnect() })
  const { port } = await new Promise<{ port: number }>(resolve => child.once('message', m => resolve(m as { port: number })))
  return {
    url: `http://127.0.0.1:${port}`,
    got: () => new Promise(resolve => {
      child.once('message', m => resolve((m as { got: Array<[string, string]> }).got))
      child.send('report')
    }),
  }
}

const RECURRENCES = 100
const MONTHS = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 3 + i, 20)).toISOString().slice(0, 10))
const TARGET = '2027-04-10T15:00:00.000Z'

t.test('a jump of the clock over 1,200 charges: other requests answered during it, every notification delivered once and in order', async t => {
  const app = await buildTestApp(t, { maxPendingDeliveries: 200, webhookTimeoutMs: 3000, deliveryLogSize: 10_000 })
  const rx = await startReceiver(t)
  const acc = await newAccount(app, { name: 'STREAMING LTDA' })
  const token = await oauthToken(app, acc)
  const call = (method: 'POST' | 'PUT', url: string, payload: object) => app.inject({ method, url, headers: bearer(token), payload })
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: rx.url })).statusCode, 200)
  for (let i = 0; i < RECURRENCES; i++) {
    const rec = await call('POST', '/v2/rec', {
      vinculo: { contrato: `CONTRATO-${i}`, devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } },
      calendario: { dataInicial: '2026-04-20', dataFinal: '2027-04-19', periodicidade: 'MENSAL' },
      politicaRetentativa: 'PERMITE_3R_7D',
    })
    const idRec = rec.json().idRec
    const approved = await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/approve`, payload: { pagador: { ispbParticipante: '60701190', cpf: '52998224725' } } })
    if (approved.statusCode !== 200) throw new Error(approved.body)
    for (const [m, date] of MONTHS.entries()) {
      const txid = `jump${String(i).padStart(4, '0')}month${String(m).padStart(2, '0')}`.padEnd(30, 'x')
      const cobr = await call('PUT', `/v2/cobr/${txid}`, { idRec, calendario: { dataDeVencimento: date }, valor: { original: '49.90' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } })
      if (cobr.statusCode !== 201) throw new Error(cobr.body)
    }
  }
  await app.sandbox.webhooks.idle()
  t.equal((await rx.got()).length, 0, 'no notification before the jump')

  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const post = async (path: string, body: object) => {
    const res = await request(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return res.body.json() as Promise<{ now: string }>
  }
  const start = app.sandbox.clock.now()
  const state = { jumpAnswered: false }
  const jump = post('/__sandbox/clock/set', { now: TARGET }).then(view => {
    state.jumpAnswered = true
    return view
  })
  // Health, one request after another until the jump answers: what each saw of the clock, and whether the jump had answered by then.
  const seen: Array<{ now: number, beforeJump: boolean }> = []
  let second: Promise<{ now: string }> | undefined
  while (!state.jumpAnswered) {
    const health = await request(`${base}/__sandbox/health`)
    const body = await health.body.json() as { now: string }
    seen.push({ now: Date.parse(body.now), beforeJump: !state.jumpAnswered })
    // Once the jump is seen midway, a second move: it waits for the jump, then starts where it ended.
    if (second === undefined && Date.parse(body.now) > start && Date.parse(body.now) < Date.parse(TARGET)) second = post('/__sandbox/clock/advance', { ms: 1000 })
  }
  const midway = seen.filter(s => s.beforeJump && s.now > start && s.now < Date.parse(TARGET))
  t.ok(midway.length > 0, `health answered during the jump, with the clock where the jump had got to (${midway.length} of ${seen.length} requests)`)
  t.same(midway.map(s => s.now), midway.map(s => s.now).sort((a, b) => a - b), 'the clock seen midway only moves forward')
  t.equal((await jump).now, TARGET, 'the jump ends at its target')
  t.ok(second !== undefined, 'a second move was sent during the jump')
  t.equal((await second!).now, new Date(Date.parse(TARGET) + 1000).toISOString(), 'the second move started from where the jump ended')

  await app.sandbox.webhooks.idle()
  const log = app.sandbox.webhooks.deliveries({ accountId: acc.accountId, eventType: 'cobr' }, 10_000)
  t.equal(log.length, RECURRENCES * MONTHS.length * 2, 'two notifications per charge: ATIVA, then CONCLUIDA')
  const notDelivered = log.filter(d => d.status !== 'delivered').map(d => `${d.status}: ${d.failureReason ?? d.attempts.map(a => a.error).join(', ')}`)
  t.same(notDelivered.slice(0, 5), [], `every one delivered, none given up (${notDelivered.length} not delivered)`)
  const got = await rx.got()
  t.equal(got.length, log.length, 'the receiver got each once')
  const seqOf = new Map(log.map(d => [d.id, d.seq]))
  t.equal(new Set(got.map(([id]) => id)).size, log.length, 'no delivery twice')
  // Per charge, the order the receiver got its notifications in is the order they were made in.
  const byTxid = new Map<string, number[]>()
  for (const [id, txid] of got) byTxid.set(txid, [...(byTxid.get(txid) ?? []), seqOf.get(id)!])
  const outOfOrder = [...byTxid].filter(([, seqs]) => seqs.some((s, i) => i > 0 && s < seqs[i - 1]))
  t.same(outOfOrder, [], 'in order per charge')
  t.equal(byTxid.size, RECURRENCES * MONTHS.length)
})
