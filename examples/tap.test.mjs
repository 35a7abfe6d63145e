// tap: t.before and t.teardown.
import t from 'tap'
import { startSandbox } from 'pix-sandbox'

const sandbox = await startSandbox({ port: 0, seed: 'ci', clock: 'frozen' })
t.teardown(() => sandbox.close())

t.test('a directory transfer is idempotent', async t => {
  const { client } = await sandbox.createAccount({ balance: 100 })
  const transfer = { pixKey: '52998224725', payment: { currency: 'BRL', amount: 15 } }
  const idempotencyKey = '0f8e2a4c-3b1d-4e6f-8a9b-1c2d3e4f5a6b'
  const first = await client.centralBank.dictTransfer(transfer, { idempotencyKey })
  const again = await client.centralBank.dictTransfer(transfer, { idempotencyKey })
  t.same(again, first, 'the same key answers the same transfer')
  await sandbox.advanceClock(60_000)
  t.equal((await client.balance()).netBalance, 84.5)
})
