import t from 'tap'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { buildApp } from '../../server/app.js'
import { startReceiver } from '../helpers/receiver.js'
import { call, certHeaderOf, ledgerProblems, sleep } from '../helpers/reliability.js'
import { EVENT_TYPES } from '../../server/webhooks/types.js'

/**
 * Soak (docs/reliability.md): a listening sandbox (clock running, short settlement delay) with a real receiver
 * registered for every event type of every account takes a mixed workload from WORKERS concurrent
 * clients over several accounts, for a bounded count of operations: tokens, both balances, cash-outs,
 * charges (cash-in and cob) paid through POST /__sandbox/pix/pay, refunds through refund-in, directory
 * transfers. Afterwards, once nothing is pending: the ledger invariant holds for every account (as
 * reported and recomputed from the totals), every 2xx operation is in the store, every event has exactly
 * one delivery record and it was delivered, and the heap has settled.
 */
const WORKERS = 20
const OPS_PER_WORKER = 50 // 1000 operations, about 1600 requests
const ACCOUNTS = 4
const KINDS = ['token', 'balance', 'cash-out', 'cash-in', 'refund', 'dict', 'cob'] as const

function forceGc (): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc')
    return runInNewContext('gc') as () => void
  } catch {
    return null
  }
}

t.test('a mixed concurrent workload leaves a consistent ledger, a complete store and a delivery per event', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const app = await buildApp({ config: { seed: 'soak-seed', clock: 'running', settlementDelayMs: 20, webhookBackoffMs: 50, webhookTimeoutMs: 5000, deliveryLogSize: 100_000, journalSize: 100 } })
  t.teardown(() => app.close())
  const base = await app.listen({ port: 0, host: '127.0.0.1' })

  const accounts: Array<{ accountId: number, clientId: string, clientSecret: string, certificate: string, token: string, paid: string[] }> = []
  for (let i = 0; i < ACCOUNTS; i++) {
    const a = (await call(base, 'POST', '/__sandbox/accounts', { body: { balance: 100_000 } })).json()
    const token = (await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(a.certificate) }, body: { clientId: a.clientId, clientSecret: a.clientSecret } })).json().access_token
    for (const eventType of EVENT_TYPES) {
      const reg = await call(base, 'POST', '/__sandbox/webhooks', { body: { accountId: a.accountId, eventType, url: receiver.url } })
      if (reg.status !== 201) throw new Error(reg.body)
    }
    accounts.push({ ...a, token, paid: [] })
  }

  const gc = forceGc()
  gc?.()
  const heapBefore = process.memoryUsage().heapUsed

  const created: Array<{ id: string, accountId: number, what: string }> = []
  const problems: string[] = []
  const counts: Record<string, number> = {}
  const expect = (what: string, res: { status: number, body: string }, status: number) => {
    if (res.status !== status) problems.push(`${what}: ${res.status} ${res.body.slice(0, 200)}`)
    return res.status === status
  }

  const op = async (w: number, i: number) => {
    const acc = accounts[(w + i) % ACCOUNTS]
    const auth = { authorization: `Bearer ${acc.token}` }
    const kind = KINDS[(w * 7 + i * 3) % KINDS.length]
    counts[kind] = (counts[kind] ?? 0) + 1
    const uid = `${w}x${i}`
    switch (kind) {
      case 'token': {
        const res = await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(acc.certificate) }, body: { clientId: acc.clientId, clientSecret: acc.clientSecret } })
        expect('token', res, 201)
        return
      }
      case 'balance':
        expect('balance', await call(base, 'GET', '/balance', { headers: auth }), 200)
        expect('accounts/balances', await call(base, 'GET', '/accounts/balances', { headers: auth }), 200)
        return
      case 'cash-out': {
        const res = await call(base, 'POST', '/api/pix/cash-out', { headers: auth, body: { value: 1.5, externalId: `soak-${uid}`, details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao Souza', document: '03742693433' } } })
        if (expect('cash-out', res, 201)) created.push({ id: res.json().transactionId, accountId: acc.accountId, what: 'cash-out' })
        return
      }
      case 'cash-in': {
        const res = await call(base, 'POST', '/api/pix/cash-in', { headers: auth, body: { transaction: { value: 20, description: 'soak', externalId: `soak-ci-${uid}` }, payer: { fullName: 'MARIA DA SILVA', document: '52998224725' } } })
        if (!expect('cash-in', res, 201)) return
        const pay = await call(base, 'POST', '/__sandbox/pix/pay', { body: { pixCode: res.json().pixCode } })
        if (!expect('pix/pay', pay, 201)) return
        created.push({ id: res.json().transactionId, accountId: acc.accountId, what: 'cash-in' })
        acc.paid.push(res.json().transactionId)
        return
      }
      case 'refund': {
        const original = acc.paid[i % Math.max(1, acc.paid.length)]
        if (!original) return // nothing received yet on this account
        const res = await call(base, 'POST', `/api/pix/refund-in/${original}`, { headers: auth, body: { refundValue: 0.5, reason: 'soak' } })
        if (expect('refund-in', res, 201)) created.push({ id: res.json().transactionId, accountId: acc.accountId, what: 'refund-in' })
        return
      }
      case 'dict': {
        const key = `${(w * 1000 + i).toString(16).padStart(8, '0')}-0000-4000-8000-${acc.accountId.toString(16).padStart(12, '0')}`
        const res = await call(base, 'POST', '/dict/pix', { headers: { ...auth, 'x-idempotency-key': key }, body: { pixKey: '52998224725', payment: { currency: 'BRL', amount: 2 } } })
        if (expect('dict/pix', res, 201)) created.push({ id: res.json().endToEndId, accountId: acc.accountId, what: 'dict' })
        return
      }
      case 'cob': {
        const txid = `soakcob${uid}`.padEnd(30, 'z').replace(/[^a-zA-Z0-9]/g, 'y')
        const res = await call(base, 'PUT', `/cob/${txid}`, { headers: auth, body: { calendario: { expiracao: 3600 }, valor: { original: '7.00' } } })
        if (!expect('cob', res, 201)) return
        const pay = await call(base, 'POST', '/__sandbox/pix/pay', { body: { pixCode: res.json().location } })
        if (!expect('pix/pay cob', pay, 201)) return
        created.push({ id: pay.json().transactionId, accountId: acc.accountId, what: 'cob' })
        acc.paid.push(pay.json().transactionId)
      }
    }
  }
  const started = Date.now()
  await Promise.all(Array.from({ length: WORKERS }, async (_, w) => {
    for (let i = 0; i < OPS_PER_WORKER; i++) {
      try {
        await op(w, i)
      } catch (err) {
        problems.push(`worker ${w} op ${i}: ${String(err)}`)
      }
    }
  }))
  t.same(problems, [], `${WORKERS * OPS_PER_WORKER} operations in ${Date.now() - started} ms, every answer as documented`)
  t.comment(`operations: ${JSON.stringify(counts)}; ${created.length} money operations`)

  // Wait (bounded) until nothing is pending: no transaction in a pending state, no delivery pending.
  const PENDING = ['PENDING', 'EM_PROCESSAMENTO', 'ATIVA']
  let left: string[] = []
  for (let i = 0; i < 150; i++) {
    const txs = (await call(base, 'GET', '/__sandbox/transactions?limit=10000')).json().transactions as Array<{ id: string, status: string }>
    const deliveries = (await call(base, 'GET', '/__sandbox/webhooks/deliveries?status=pending&limit=1000')).json().deliveries as unknown[]
    left = [...txs.filter(x => PENDING.includes(x.status)).map(x => `${x.id} ${x.status}`), ...deliveries.map(() => 'delivery pending')]
    if (left.length === 0) break
    await sleep(100)
  }
  t.same(left, [], 'nothing is left pending')

  const all = (await call(base, 'GET', '/__sandbox/accounts')).json().accounts
  t.same(all.flatMap(ledgerProblems), [], `the invariant holds for all ${all.length} accounts (reported and recomputed from the totals)`)

  const missing: string[] = []
  for (const c of created) {
    const res = await call(base, 'GET', `/__sandbox/transactions/${c.id}`)
    if (res.status !== 200 || res.json().accountId !== c.accountId) missing.push(`${c.what} ${c.id}: ${res.status}`)
  }
  t.same(missing, [], `every one of the ${created.length} acknowledged money operations is in the store, in its account`)

  const byTx = new Map<string, Array<{ id: string, status: string, eventType: string }>>()
  for (const acc of accounts) {
    const log = (await call(base, 'GET', `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}&limit=1000`)).json().deliveries as Array<{ id: string, transactionId: string, status: string, eventType: string }>
    for (const d of log) byTx.set(d.transactionId, [...(byTx.get(d.transactionId) ?? []), d])
  }
  const wrong = created.filter(c => {
    const ds = byTx.get(c.id) ?? []
    return ds.length !== 1 || ds[0].status !== 'delivered'
  }).map(c => `${c.what} ${c.id}: ${JSON.stringify(byTx.get(c.id) ?? [])}`)
  t.same(wrong, [], 'every event has exactly one delivery record, delivered')
  const received = new Set(receiver.requests.map(r => String(r.headers['x-sandbox-delivery-id'])))
  const notReceived = created.flatMap(c => byTx.get(c.id) ?? []).filter(d => !received.has(d.id)).map(d => d.id)
  t.same(notReceived, [], `the receiver got every delivery (${receiver.requests.length} requests)`)

  gc?.()
  await sleep(50)
  gc?.()
  const growthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024
  t.ok(growthMb < 64, `heap after a forced gc grew by ${growthMb.toFixed(1)} MB for ${created.length} operations (${gc ? 'gc forced' : 'no gc available'})`)
})
