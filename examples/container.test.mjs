// node --test against a sandbox that is already running (docker run, docker compose, Testcontainers,
// npx pix-sandbox): PIX_BASE_URL=http://127.0.0.1:8080 node --test examples/container.test.mjs
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createClient } from 'pix-sandbox/client'

const baseUrl = process.env.PIX_BASE_URL ?? 'http://127.0.0.1:8080'
const control = createClient({ baseUrl, adminToken: process.env.SANDBOX_ADMIN_TOKEN })

test('an account of its own pays out, and the CashOut webhook is in the delivery log', async () => {
  const account = await control.sandbox.createAccount({ balance: 100 })
  const client = createClient({ baseUrl, clientId: account.clientId, clientSecret: account.clientSecret, certificate: account.certificate })
  const payout = await client.cashOut({ value: 10, externalId: 'ci-1', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria', document: '52998224725' } })

  // The clock runs: settlement follows after SANDBOX_SETTLEMENT_DELAY_MS (50 ms unless set).
  const delivery = await control.sandbox.waitForDelivery({ accountId: account.accountId, eventType: 'cash_out', transactionId: payout.transactionId })
  assert.equal(delivery.body.status, 'CONFIRMED')
  assert.equal((await client.balance()).netBalance, 89.5)
})
