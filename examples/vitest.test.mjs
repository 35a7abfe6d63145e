// vitest: the same, with beforeAll/afterAll.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startSandbox } from 'pix-sandbox'

let sandbox
beforeAll(async () => { sandbox = await startSandbox({ port: 0, seed: 'ci', clock: 'frozen' }) })
afterAll(() => sandbox.close())

test('a refund of a paid charge', async () => {
  const { accountId, client } = await sandbox.createAccount({ balance: 0 })
  const charge = await client.cashIn({
    transaction: { value: 25, description: 'Pedido 42', externalId: 'order-42' },
    payer: { fullName: 'Maria', document: '52998224725' },
  })
  await sandbox.client.sandbox.pay(charge.pixCode) // a payer's bank app pays the QR code
  expect((await client.balance()).netBalance).toBe(25)

  const refund = await client.refundIn(charge.transactionId, { refundValue: 5 })
  await sandbox.advanceClock(60_000)
  const delivery = await sandbox.waitForDelivery({ accountId, eventType: 'refund_in', transactionId: refund.transactionId })
  expect(delivery.body).toMatchObject({ type: 'REFUND' })
  expect((await client.balance()).netBalance).toBe(20)
})
