// node --test: one sandbox for the file, an account per test.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { startSandbox } from 'pix-sandbox'

let sandbox
before(async () => { sandbox = await startSandbox({ port: 0, seed: 'ci', clock: 'frozen' }) })
after(() => sandbox.close())

const payout = { value: 10, externalId: 'order-1', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria', document: '52998224725' } }

test('a cash-out settles when the clock moves, and its CashOut webhook is logged', async () => {
  // Point your integration's base URL at sandbox.url; here the typed client plays it.
  const { accountId, client } = await sandbox.createAccount({ balance: 100 })
  const created = await client.cashOut(payout)
  assert.equal(created.status, 'PENDING')

  await sandbox.advanceClock(60_000)
  const delivery = await sandbox.waitForDelivery({ accountId, eventType: 'cash_out', transactionId: created.transactionId })
  assert.equal(delivery.body.status, 'CONFIRMED')
  assert.equal((await client.balance()).netBalance, 89.5) // 10.00 plus the 0.50 fee
})

test('a failure is one header away', async () => {
  const { client } = await sandbox.createAccount({ balance: 100 })
  await assert.rejects(client.cashOut(payout, { scenario: 'INSUFFICIENT_FUNDS' }), { statusCode: 400, code: 'PIX_INSUFFICIENT_BALANCE' })
})
