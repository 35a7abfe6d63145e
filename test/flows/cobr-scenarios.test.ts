import t from 'tap'
import { balanceOf } from '../helpers/app.js'
import { checkAnswer } from '../helpers/api-pix.js'
import { aTxid } from '../helpers/payins.js'
import { advanceTo, cobrApp, cobrDeliveries } from '../helpers/recurrences.js'

/**
 * The scenarios of the payer's PSP for recurring charges (scenarios/cobr.ts), sent as the header on the
 * charge's creation or retry, or armed for the account: each bends the attempt's outcome on its date,
 * and with it the ledger (nothing credited unless paid), the charge's record and what `/webhookcobr`
 * is told (the delivery log's bodies: the receiver's URL is never reached, the bodies are kept).
 */

/** The app of cobrApp with a webhook of recurring charges configured. */
async function withWebhook (t: Parameters<typeof cobrApp>[0]) {
  const setup = await cobrApp(t)
  const put = await setup.call('PUT', '/v2/webhookcobr', { webhookUrl: 'https://erp.example.com/api/webhookcobr' })
  if (put.statusCode !== 200) throw new Error(put.body)
  return setup
}

/** What each callback said of the charge: its status and its attempts' statuses. */
async function told (app: Awaited<ReturnType<typeof cobrApp>>['app'], accountId: number) {
  return (await cobrDeliveries(app, accountId)).map(d => {
    const [cobr] = d.body.cobsr
    return `${cobr.status}:${(cobr.tentativas ?? []).map((x: { status: string }) => x.status).join(',')}`
  })
}

const DEBIT = '2026-03-20T11:00:00Z'
/** 18:00 in São Paulo: a debit that found no funds at 08:00 is tried again then, and only then fails. */
const EVENING = '2026-03-20T21:00:00Z'
const RETRY_DEBIT = '2026-03-23T11:00:00Z'

t.test('COBR_INSUFFICIENT_FUNDS (header): the attempt EXPIRADA on its date, after its evening attempt, nothing credited, the charge waits for a retry', async t => {
  const { app, acc, call, body } = await withWebhook(t)
  const txid = aTxid(1)
  const created = await call('PUT', `/v2/cobr/${txid}`, body(), { 'x-sandbox-scenario': 'COBR_INSUFFICIENT_FUNDS' })
  t.equal(created.statusCode, 201)
  t.equal(created.headers['x-sandbox-scenario-applied'], 'COBR_INSUFFICIENT_FUNDS')
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, DEBIT)
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA' }] }, 'the morning found no funds: the evening may')
  await advanceTo(app, EVENING)
  const read = await call('GET', `/v2/cobr/${txid}`)
  checkAnswer(t, read, 'GET', '/cobr/{txid}')
  t.match(read.json(), { status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'EXPIRADA' }] })
  t.notOk(read.json().pix)
  t.same(await balanceOf(app, acc.accountId), before, 'nothing credited')
  // The retry has no scenario of its own: the payer pays it.
  t.equal((await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-23`)).statusCode, 201)
  await advanceTo(app, RETRY_DEBIT)
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'CONCLUIDA', tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'PAGA' }] })
  t.equal((await balanceOf(app, acc.accountId)).available, before.available + 49.9)
  t.same(await told(app, acc.accountId), ['ATIVA:AGENDADA', 'ATIVA:EXPIRADA', 'ATIVA:EXPIRADA,AGENDADA', 'CONCLUIDA:EXPIRADA,PAGA'])
})

t.test('COBR_INSUFFICIENT_FUNDS armed for the account: a client that cannot send the header gets it on its next charge', async t => {
  const { app, acc, call, body } = await withWebhook(t)
  const armed = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: acc.accountId, scenario: 'COBR_INSUFFICIENT_FUNDS', endpoint: 'cobr', times: 1 } })
  t.equal(armed.statusCode, 201, armed.body)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).headers['x-sandbox-scenario-applied'], 'COBR_INSUFFICIENT_FUNDS')
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, EVENING)
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] })
  t.same(await balanceOf(app, acc.accountId), before)
  t.equal(app.sandbox.store.data.cobrs[1].tentativas[0].scenarios?.[0]?.name, 'COBR_INSUFFICIENT_FUNDS', 'the attempt keeps the scenario that bends it')
})

t.test('COBR_DEBIT_REFUSED with a code that ends the charge: REJEITADA for good, with encerramento.rejeicao', async t => {
  const { app, acc, call, body } = await withWebhook(t)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body(), { 'x-sandbox-scenario': 'COBR_DEBIT_REFUSED;codigo=AC05' })).statusCode, 201)
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, DEBIT)
  const read = await call('GET', `/v2/cobr/${txid}`)
  checkAnswer(t, read, 'GET', '/cobr/{txid}')
  t.match(read.json(), { status: 'REJEITADA', tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AC05' } }], encerramento: { rejeicao: { codigo: 'AC05' } } })
  t.same(await balanceOf(app, acc.accountId), before)
  t.equal((await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-23`)).statusCode, 400, 'a rejected charge takes no retry')
  const callbacks = await cobrDeliveries(app, acc.accountId)
  t.same(await told(app, acc.accountId), ['ATIVA:AGENDADA', 'REJEITADA:REJEITADA'])
  t.match(callbacks[1].body.cobsr[0], { encerramento: { rejeicao: { codigo: 'AC05' } } })
})

t.test('COBR_RETRY_REFUSED: the payer\'s PSP refuses to schedule the retry; the charge still waits within its window', async t => {
  const { app, acc, call, body, debits } = await withWebhook(t)
  await debits('REJEITADA_SALDO')
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  await advanceTo(app, EVENING)
  const before = await balanceOf(app, acc.accountId)
  const refused = await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-23`, undefined, { 'x-sandbox-scenario': 'COBR_RETRY_REFUSED' })
  t.equal(refused.statusCode, 201, refused.body)
  t.equal(refused.headers['x-sandbox-scenario-applied'], 'COBR_RETRY_REFUSED')
  checkAnswer(t, refused, 'POST', '/cobr/{txid}/retentativa/{data}')
  t.match(refused.json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'REJEITADA', rejeicao: { codigo: 'AB10' } }] })
  await advanceTo(app, RETRY_DEBIT)
  t.same(await balanceOf(app, acc.accountId), before, 'the refused retry debits nothing on its date')
  await debits('PAGA')
  t.equal((await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-24`)).statusCode, 201, 'another retry, another date')
  await advanceTo(app, '2026-03-24T11:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'CONCLUIDA' })
  t.same(await told(app, acc.accountId), ['ATIVA:AGENDADA', 'ATIVA:EXPIRADA', 'ATIVA:EXPIRADA,REJEITADA', 'ATIVA:EXPIRADA,REJEITADA,AGENDADA', 'CONCLUIDA:EXPIRADA,REJEITADA,PAGA'])
})

t.test('COBR_NO_ANSWER: the attempt stays AGENDADA through its date and expires at midnight', async t => {
  const { app, acc, call, body } = await withWebhook(t)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body(), { 'x-sandbox-scenario': 'COBR_NO_ANSWER' })).statusCode, 201)
  await advanceTo(app, DEBIT)
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }] })
  await advanceTo(app, '2026-03-21T03:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] })
  t.same(await told(app, acc.accountId), ['ATIVA:AGENDADA', 'ATIVA:EXPIRADA'], 'no word while the payer\'s PSP is silent')
})

t.test('COBR_RETRY_REFUSED armed for the account\'s retries, with a code that ends the charge: the retry refused, the charge REJEITADA', async t => {
  const { app, acc, call, body, debits } = await withWebhook(t)
  await debits('REJEITADA_SALDO')
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).headers['x-sandbox-scenario-applied'], undefined, 'armed for retries only: the creation takes none')
  const armed = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: acc.accountId, scenario: 'COBR_RETRY_REFUSED;codigo=AC05', endpoint: 'cobr-retry', times: 1 } })
  t.equal(armed.statusCode, 201, armed.body)
  await advanceTo(app, EVENING)
  const before = await balanceOf(app, acc.accountId)
  const refused = await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-23`)
  t.equal(refused.headers['x-sandbox-scenario-applied'], 'COBR_RETRY_REFUSED;codigo=AC05')
  t.match(refused.json(), { status: 'REJEITADA', tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'REJEITADA', rejeicao: { codigo: 'AC05' } }], encerramento: { rejeicao: { codigo: 'AC05' } } }, 'a code that ends the charge ends it')
  t.equal((await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-24`)).statusCode, 400, 'no retry after that')
  await advanceTo(app, RETRY_DEBIT)
  t.same(await balanceOf(app, acc.accountId), before, 'nothing credited')
  t.same(await told(app, acc.accountId), ['ATIVA:AGENDADA', 'ATIVA:EXPIRADA', 'REJEITADA:EXPIRADA,REJEITADA'])
})
