import t from 'tap'
import type { AddressInfo } from 'node:net'
import { run } from '../../cli/main.js'
import { balanceOf } from '../helpers/app.js'
import { aTxid } from '../helpers/payins.js'
import { cobrApp } from '../helpers/recurrences.js'

/**
 * Pix Automático on the virtual clock, as a person drives it (docs/api-pix.md, "Recurring charges"): a
 * recurrence's charges, one per month, each debited when the clock reaches its date; `pix-sandbox
 * clock next-due` (POST /__sandbox/clock/next-due) moves the clock to the next debit and runs it, and
 * the control plane can force what a debit comes to.
 */

async function cli (url: string, argv: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await run([...argv, '--url', url], { stdout: text => { stdout += text }, stderr: text => { stderr += text }, env: {} })
  return { code, stdout, stderr }
}

t.test('three months of a subscription: each charge debited on its date by `clock next-due`, the refused one retried', async t => {
  const { app, acc, call, idRec, body } = await cobrApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const start = await balanceOf(app, acc.accountId)

  // March, April and May: each due date a business day, the first attempt on it.
  const txids = [aTxid(1), aTxid(2), aTxid(3)]
  const dates = ['2026-03-20', '2026-04-20', '2026-05-20']
  for (const [i, txid] of txids.entries()) {
    t.equal((await call('PUT', `/v2/cobr/${txid}`, body({ calendario: { dataDeVencimento: dates[i] } }))).statusCode, 201)
  }
  const forced = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/cobr/${txids[1]}/next-debit`, payload: { outcome: 'REFUSED', codigo: 'AC06' } })
  t.equal(forced.statusCode, 200, forced.body)
  t.match(forced.json(), { accountId: acc.accountId, txid: txids[1], status: 'CRIADA', nextDebit: { outcome: 'REFUSED', codigo: 'AC06' } })

  const first = await cli(url, ['clock', 'next-due'])
  t.equal(first.code, 0, first.stderr)
  t.equal(first.stdout, `debit of recurring charge ${txids[0]} (account ${acc.accountId}) at 2026-03-20T08:00:00.000-03:00: CONCLUIDA\n2026-03-20T08:00:00.000-03:00 (frozen)\n`)
  t.equal((await balanceOf(app, acc.accountId)).available, start.available + 49.9)

  const second = JSON.parse((await cli(url, ['clock', 'next-due', String(acc.accountId), '--json'])).stdout)
  t.match(second, { debit: { txid: txids[1], at: '2026-04-20T11:00:00.000Z', status: 'ATIVA' }, clock: { now: '2026-04-20T11:00:00.000Z' } })
  t.match((await call('GET', `/v2/cobr/${txids[1]}`)).json(), { tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AC06' } }] }, 'the forced refusal')
  t.equal((await balanceOf(app, acc.accountId)).available, start.available + 49.9, 'nothing credited for it')
  t.equal((await call('POST', `/v2/cobr/${txids[1]}/retentativa/2026-04-22`)).statusCode, 201)

  const retried = JSON.parse((await cli(url, ['clock', 'next-due', '--json'])).stdout)
  t.match(retried, { debit: { txid: txids[1], at: '2026-04-22T11:00:00.000Z', status: 'CONCLUIDA' } }, 'the retry is the next debit')
  const third = JSON.parse((await cli(url, ['clock', 'next-due', '--json'])).stdout)
  t.match(third, { debit: { txid: txids[2], at: '2026-05-20T11:00:00.000Z', status: 'CONCLUIDA' } })
  t.equal((await balanceOf(app, acc.accountId)).available, start.available + 3 * 49.9)

  const none = await cli(url, ['clock', 'next-due'])
  t.equal(none.code, 0)
  t.match(none.stdout, /^no recurring charge has a debit to come: the clock did not move\n2026-05-20T08:00:00\.000-03:00 \(frozen\)\n$/)
  const list = (await call('GET', `/v2/cobr?inicio=2026-03-01T00:00:00Z&fim=2026-06-01T00:00:00Z&idRec=${idRec}`)).json()
  t.same(list.cobsr.map((c: { status: string }) => c.status), ['CONCLUIDA', 'CONCLUIDA', 'CONCLUIDA'])

  const usage = await cli(url, ['clock', 'next-due', 'abc'])
  t.equal(usage.code, 2)
  t.match(usage.stderr, '"abc" is not an account id')
  const unknown = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/cobr/${aTxid(9)}/next-debit`, payload: { outcome: 'PAID' } })
  t.equal(unknown.statusCode, 404)
  const closed = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/cobr/${txids[0]}/next-debit`, payload: { outcome: 'PAID' } })
  t.equal(closed.statusCode, 409, 'a concluded charge has no debit left to force')
})
