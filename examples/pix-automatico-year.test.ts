// A year of Pix Automático in seconds, on the sandbox's virtual clock (node --test, TypeScript): a
// monthly subscription that its payer approves, twelve charges each debited when the clock moves to
// it, one debit failing for lack of funds and paid on its retry.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import { startSandbox, type RunningSandbox } from 'pix-sandbox'

let sandbox: RunningSandbox
let receiver: Server // your webhook endpoint
before(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'ci', clock: 'frozen', clockStart: '2026-03-10T12:00:00-03:00' })
  receiver = createServer((req, res) => res.end()).listen(0, '127.0.0.1')
  await once(receiver, 'listening')
})
after(async () => { await sandbox.close(); receiver.close() })

test('twelve monthly debits; the one that fails is paid on its retry', async () => {
  const { accountId, client } = await sandbox.createAccount({ name: 'STREAMING LTDA' })
  const plane = sandbox.client.sandbox // the control plane plays the payer and moves the clock
  await client.apiPix.putWebhookCobR({ webhookUrl: `http://127.0.0.1:${(receiver.address() as { port: number }).port}` })
  const { idRec } = await client.apiPix.createRec({
    vinculo: { contrato: 'assinatura-1', devedor: { cpf: '52998224725', nome: 'Maria' } },
    calendario: { dataInicial: '2026-04-20', periodicidade: 'MENSAL' },
    valor: { valorRec: '49.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
  })
  assert.equal((await plane.approveRecurrence(idRec)).status, 'APROVADA')
  const before = (await client.balance()).netBalance

  for (let month = 0; month < 12; month++) {
    const txid = `mensalidade${String(month + 1).padStart(2, '0')}`.padEnd(26, 'x')
    const dataDeVencimento = new Date(Date.UTC(2026, 3 + month, 20)).toISOString().slice(0, 10)
    await client.apiPix.createCobR(txid, {
      idRec, calendario: { dataDeVencimento }, valor: { original: '49.90' }, recebedor: { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' },
    }, month === 5 ? { scenario: 'COBR_INSUFFICIENT_FUNDS' } : {}) // the sixth debit finds no funds
    let { debit } = await plane.advanceToNextDue(accountId) // the clock moves to the debit, which runs
    if (month === 5) {
      ;({ debit } = await plane.advanceToNextDue(accountId)) // no funds at 08:00: tried again at 18:00
      assert.equal(debit?.status, 'ATIVA') // not paid: the charge waits for a retry
      const retryOn = new Date(Date.parse(debit.at) + 2 * 86_400_000).toISOString().slice(0, 10)
      await client.apiPix.retryCobR(txid, retryOn)
      ;({ debit } = await plane.advanceToNextDue(accountId))
    }
    assert.deepEqual(debit && [debit.txid, debit.status], [txid, 'CONCLUIDA'])
  }

  assert.equal((await client.balance()).netBalance, Math.round((before + 12 * 49.90) * 100) / 100)
  assert.equal((await client.apiPix.rec(idRec)).status, 'APROVADA')
  const { deliveries } = await plane.deliveries({ accountId, eventType: 'cobr' })
  assert.equal(deliveries.filter(d => d.body.cobsr[0].status === 'CONCLUIDA').length, 12) // /webhookcobr told each paid
})
