// node --test, in TypeScript (Node 22.18 and later run it as it is): one sandbox for the file, an
// account per test. Deliveries are typed by their event type, so `strict` needs no cast.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { startSandbox, type RunningSandbox } from 'pix-sandbox'
import type { CashOutRequest } from 'pix-sandbox/client'

let sandbox: RunningSandbox
before(async () => { sandbox = await startSandbox({ port: 0, seed: 'ci', clock: 'frozen' }) })
after(() => sandbox.close())

const payout: CashOutRequest = { value: 10, externalId: 'order-1', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria', document: '52998224725' } }

test('a cash-out settles when the clock moves, and its CashOut webhook is logged', async () => {
  // Point your integration's base URL at sandbox.url; here the typed client plays it.
  const { accountId, client } = await sandbox.createAccount({ balance: 100 })
  const created = await client.cashOut(payout)
  assert.equal(created.status, 'PENDING')

  await sandbox.advanceClock(60_000)
  const { body } = await sandbox.waitForDelivery({ accountId, eventType: 'cash_out', transactionId: created.transactionId })
  // cash_out carries the CashOut notification, or the V2 TRANSFER envelope for a /dict/pix transfer.
  assert.ok('event' in body)
  assert.equal(body.status, 'CONFIRMED')
  assert.equal(body.finalAmount, 10.5)
  assert.equal((await client.balance()).netBalance, 89.5) // 10.00 plus the 0.50 fee
})

test('a failure is one header away', async () => {
  const { client } = await sandbox.createAccount({ balance: 100 })
  await assert.rejects(client.cashOut(payout, { scenario: 'INSUFFICIENT_FUNDS' }), { statusCode: 400, code: 'PIX_INSUFFICIENT_BALANCE' })
})
