import t from 'tap'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import type { Test } from 'tap'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { cashInBody } from '../helpers/payins.js'

/** A real receiver on 127.0.0.1 that hands every delivery to whoever waits for it. */
async function receiver (t: Test) {
  const received: Array<{ headers: IncomingMessage['headers'], body: any }> = []
  const waiting: Array<() => void> = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', c => { raw += c })
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw) })
      res.end('ok')
      waiting.splice(0).forEach(w => w())
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())))
  const next = async (n: number) => {
    while (received.length < n) await new Promise<void>(resolve => waiting.push(resolve))
    return received[n - 1]
  }
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, next }
}

t.test('over real HTTP: charge, pay, refund; the receiver gets cash_in RECEIVE then refund_in REFUND; the ledger adds up', async t => {
  const app = await buildTestApp(t)
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const hook = await receiver(t)
  const acc = await newAccount(app, { balance: 0 })
  for (const eventType of ['cash_in', 'refund_in']) {
    const reg = await request(`${base}/__sandbox/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: acc.accountId, eventType, url: hook.url }) })
    t.equal(reg.statusCode, 201)
    await reg.body.dump()
  }
  const call = async (method: 'POST' | 'GET', path: string, body?: unknown, auth = true) => {
    const res = await request(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...(auth ? bearer(acc.token) : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
    return { status: res.statusCode, json: await res.body.json() as any }
  }
  const charge = await call('POST', '/api/pix/cash-in', cashInBody({ value: 99.9, externalId: 'flow-1' }))
  t.equal(charge.status, 201)
  const paid = await call('POST', '/__sandbox/pix/pay', { pixCode: charge.json.pixCode }, false)
  t.equal(paid.status, 201)
  await call('POST', '/__sandbox/clock/advance', { ms: 0 }, false)
  const first = await hook.next(1)
  t.match(first.body, { type: 'RECEIVE', data: { status: 'LIQUIDATED', payment: { amount: '99.90', currency: 'BRL' }, endToEndId: paid.json.endToEndId } })

  const refund = await call('POST', `/api/pix/refund-in/${charge.json.transactionId}`, { refundValue: 9.9 })
  t.equal(refund.status, 201)
  await call('POST', '/__sandbox/clock/advance', { ms: 50 }, false)
  const second = await hook.next(2)
  t.match(second.body, { type: 'REFUND', data: { status: 'REFUNDED', endToEndId: paid.json.endToEndId, refunds: [{ endToEndId: refund.json.providerTransactionId, payment: { amount: 9.9 } }] } })

  const account = await call('GET', `/__sandbox/accounts/${acc.accountId}`, undefined, false)
  t.match(account.json, { balance: { available: 90, blocked: 0 }, invariantHolds: true })
})
