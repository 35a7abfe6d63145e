import t from 'tap'
import { advance, balanceOf, bearer, newAccount, T0, tokenFor } from '../helpers/app.js'
import { checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { advanceTo, cobrApp, cobrDeliveries, DEBTOR, OTHER_DEBTOR } from '../helpers/recurrences.js'
import { startReceiver } from '../helpers/receiver.js'
import { aTxid } from '../helpers/payins.js'

/**
 * API Pix's recurring charges under /v2 (docs/api-pix.md, "Recurring charges"): PUT, POST, PATCH, GET
 * and the list, the retry; each answer (success or error) validated against BACEN's API Pix 2.9.0. The
 * recurrences are the sandbox's own, created with POST /rec and approved by the payer's side of the
 * control plane (test/helpers/recurrences.ts).
 */

const OTHER_REC = 'RN1234567820260310bcdefghijkl'
const WINDOW = 'inicio=2026-03-01T00:00:00Z&fim=2026-04-01T00:00:00Z'
const DAY = 86_400_000

t.test('every answer of cobr validates against BACEN 2.9.0: creation, cancellation, reads, the list, the retry, and their errors', async t => {
  const { app, call, idRec, body } = await cobrApp(t)
  const txid = aTxid(1)
  const created = await call('PUT', `/v2/cobr/${txid}`, body())
  t.equal(created.statusCode, 201, created.body)
  checkAnswer(t, created, 'PUT', '/cobr/{txid}')
  t.match(created.json(), { idRec, txid, status: 'CRIADA', calendario: { criacao: '2026-03-10', dataDeVencimento: '2026-03-20' }, valor: { original: '49.90' }, politicaRetentativa: 'PERMITE_3R_7D', recebedor: { nome: 'STREAMING LTDA', conta: '012682' } })

  // The instruction reaches the payer's PSP at once (the due date is within 10 days): ATIVA, its first attempt AGENDADA.
  await advance(app, 1)
  const read = await call('GET', `/v2/cobr/${txid}`)
  checkAnswer(t, read, 'GET', '/cobr/{txid}')
  t.match(read.json(), { status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA', dataLiquidacao: '2026-03-20' }] })

  const other = await call('POST', '/v2/cobr', body({ calendario: { dataDeVencimento: '2026-04-20' } }))
  t.equal(other.statusCode, 201, other.body)
  checkAnswer(t, other, 'POST', '/cobr')
  t.match(other.json().txid, /^[a-zA-Z0-9]{32}$/)
  const cancelled = await call('PATCH', `/v2/cobr/${other.json().txid}`, { status: 'CANCELADA' })
  t.equal(cancelled.statusCode, 200, cancelled.body)
  checkAnswer(t, cancelled, 'PATCH', '/cobr/{txid}')
  t.match(cancelled.json(), { status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } } })

  const list = await call('GET', `/v2/cobr?${WINDOW}`)
  checkAnswer(t, list, 'GET', '/cobr')
  t.same(list.json().cobsr.map((c: { txid: string }) => c.txid), [txid, other.json().txid])
  const filtered = await call('GET', `/v2/cobr?${WINDOW}&status=CANCELADA&cpf=52998224725&paginacao.itensPorPagina=1`)
  checkAnswer(t, filtered, 'GET', '/cobr')
  t.match(filtered.json(), { parametros: { status: 'CANCELADA', cpf: '52998224725', paginacao: { itensPorPagina: 1, quantidadeTotalDeItens: 1 } }, cobsr: [{ status: 'CANCELADA' }] })

  // The errors, each in problem details with its tag's type.
  const errors: Array<[Promise<Awaited<ReturnType<typeof call>>>, string, string, number, string]> = [
    [call('PUT', `/v2/cobr/${txid}`, body({ calendario: { dataDeVencimento: '2026-05-20' } })), 'PUT', '/cobr/{txid}', 400, 'CobROperacaoInvalida'],
    [call('PUT', `/v2/cobr/${aTxid(2)}`, body({ calendario: { dataDeVencimento: '2026-03-11' } })), 'PUT', '/cobr/{txid}', 400, 'CobROperacaoInvalida'],
    [call('PUT', `/v2/cobr/${aTxid(2)}`, body({ idRec: OTHER_REC })), 'PUT', '/cobr/{txid}', 400, 'CobROperacaoInvalida'],
    [call('POST', '/v2/cobr', { idRec }), 'POST', '/cobr', 400, 'CobROperacaoInvalida'],
    [call('PATCH', `/v2/cobr/${txid}`, { status: 'ATIVA' }), 'PATCH', '/cobr/{txid}', 400, 'CobROperacaoInvalida'],
    [call('PATCH', `/v2/cobr/${aTxid(3)}`, { status: 'CANCELADA' }), 'PATCH', '/cobr/{txid}', 404, 'CobRNaoEncontrado'],
    [call('GET', `/v2/cobr/${aTxid(3)}`), 'GET', '/cobr/{txid}', 404, 'CobRNaoEncontrado'],
    [call('GET', '/v2/cobr?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z'), 'GET', '/cobr', 400, 'CobRConsultaInvalida'],
    [call('GET', '/v2/cobr?inicio=2026-03-10T00:00:00Z'), 'GET', '/cobr', 400, 'CobRConsultaInvalida'],
    [call('POST', `/v2/cobr/${txid}/retentativa/2026-03-23`), 'POST', '/cobr/{txid}/retentativa/{data}', 400, 'CobROperacaoInvalida'],
    [call('POST', `/v2/cobr/${aTxid(3)}/retentativa/2026-03-23`), 'POST', '/cobr/{txid}/retentativa/{data}', 404, 'CobRNaoEncontrado'],
  ]
  for (const [pending, method, path, status, type] of errors) {
    const res = await pending
    t.equal(res.statusCode, status, `${method} ${path}: ${res.body}`)
    t.equal(res.json().type, PROBLEM_TYPE + type, `${method} ${path}`)
    checkAnswer(t, res, method, path)
  }
  const readOnly = await oauthToken(app, undefined, 'cobr.read')
  const denied = await app.inject({ method: 'PUT', url: `/v2/cobr/${aTxid(4)}`, headers: bearer(readOnly), payload: body({ calendario: { dataDeVencimento: '2026-06-20' } }) })
  t.equal(denied.statusCode, 403)
  t.equal((await call('GET', `/v2/cobr?${WINDOW}`)).json().cobsr.length, 2, 'nothing refused was stored')
})

t.test('paid on its date by the virtual clock: the receiver credited, a received PIX listed, CONCLUIDA', async t => {
  const { app, acc, call, body } = await cobrApp(t)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, '2026-03-20T10:59:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }] }, 'not before 08:00 in São Paulo')
  t.equal((await balanceOf(app, acc.accountId)).available, before.available)
  await advanceTo(app, '2026-03-20T11:00:00Z')
  const paid = await call('GET', `/v2/cobr/${txid}`)
  checkAnswer(t, paid, 'GET', '/cobr/{txid}')
  const cobr = paid.json()
  t.match(cobr, { status: 'CONCLUIDA', tentativas: [{ status: 'PAGA', tipo: 'AGND' }], pix: [{ txid, valor: '49.90' }] })
  t.same(cobr.atualizacao.map((a: { status: string }) => a.status), ['CRIADA', 'ATIVA', 'CONCLUIDA'])
  t.equal(cobr.pix[0].endToEndId, cobr.tentativas[0].endToEndId)
  const after = await balanceOf(app, acc.accountId)
  t.equal(after.available, before.available + 49.9)
  t.ok(after.invariantHolds)
  const token = await tokenFor(app, acc)
  const received = await app.inject({ method: 'GET', url: `/pix/${cobr.pix[0].endToEndId}`, headers: bearer(token) })
  t.equal(received.statusCode, 200, received.body)
  t.match(received.json(), { endToEndId: cobr.pix[0].endToEndId, txid, valor: '49.90' })
  const listed = await app.inject({ method: 'GET', url: `/pix?${WINDOW}`, headers: bearer(token) })
  t.match(listed.json().pix, [{ endToEndId: cobr.pix[0].endToEndId, txid }], 'listed as the other received PIX are')
  const apiPixPix = await call('GET', `/v2/pix/${cobr.pix[0].endToEndId}`)
  checkAnswer(t, apiPixPix, 'GET', '/pix/{e2eid}')
  t.match(apiPixPix.json(), { endToEndId: cobr.pix[0].endToEndId, txid, valor: '49.90' }, 'and on API Pix\'s GET /pix')
  t.equal((await call('PATCH', `/v2/cobr/${txid}`, { status: 'CANCELADA' })).statusCode, 400, 'a paid charge is not cancelled')
})

t.test('a refused debit: REJEITADA with its reason, retried within the window, paid on the retry', async t => {
  const { app, acc, call, body, debits } = await cobrApp(t)
  const txid = aTxid(1)
  await debits('REJEITADA')
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, '2026-03-20T11:00:00Z')
  const refused = (await call('GET', `/v2/cobr/${txid}`)).json()
  t.match(refused, { status: 'ATIVA', tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AC06' } }] })
  t.equal((await balanceOf(app, acc.accountId)).available, before.available, 'nothing credited')

  const outside = await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-28`)
  t.equal(outside.statusCode, 400, 'past the 7 days of PERMITE_3R_7D')
  checkAnswer(t, outside, 'POST', '/cobr/{txid}/retentativa/{data}')
  await debits('PAGA')
  const retry = await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-23`)
  t.equal(retry.statusCode, 201, retry.body)
  checkAnswer(t, retry, 'POST', '/cobr/{txid}/retentativa/{data}')
  t.match(retry.json(), { status: 'ATIVA', tentativas: [{ status: 'REJEITADA' }, { tipo: 'NTAG', status: 'AGENDADA', dataLiquidacao: '2026-03-23' }] })
  await advanceTo(app, '2026-03-23T11:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'CONCLUIDA', tentativas: [{ status: 'REJEITADA' }, { status: 'PAGA' }] })
  t.equal((await balanceOf(app, acc.accountId)).available, before.available + 49.9)
})

t.test('a recurrence that forbids retries: the failed charge expires, and the retry is refused in API Pix\'s words', async t => {
  const { app, call, body, recurrence, debits } = await cobrApp(t)
  const otherRec = await recurrence({ vinculo: { contrato: 'CONTRATO-2', devedor: OTHER_DEBTOR }, politicaRetentativa: 'NAO_PERMITE' })
  await debits('REJEITADA_SALDO', OTHER_DEBTOR.cpf)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body({ idRec: otherRec }))).statusCode, 201)
  // No funds at 08:00 nor at 18:00, the evening attempt (São Paulo).
  await advanceTo(app, '2026-03-20T21:00:00Z')
  const expired = await call('GET', `/v2/cobr/${txid}`)
  checkAnswer(t, expired, 'GET', '/cobr/{txid}')
  t.match(expired.json(), { status: 'EXPIRADA', politicaRetentativa: 'NAO_PERMITE', tentativas: [{ status: 'EXPIRADA' }] })
  const retry = await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-23`)
  t.equal(retry.statusCode, 400)
  checkAnswer(t, retry, 'POST', '/cobr/{txid}/retentativa/{data}')
})

t.test('no retry asked for: the charge expires the day after its window closes', async t => {
  const { app, call, body, debits } = await cobrApp(t)
  await debits('REJEITADA_SALDO')
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  await advanceTo(app, '2026-03-20T21:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] })
  await advance(app, 10 * DAY)
  const expired = (await call('GET', `/v2/cobr/${txid}`)).json()
  t.match(expired, { status: 'EXPIRADA' })
  t.same(expired.atualizacao.map((a: { status: string }) => a.status), ['CRIADA', 'ATIVA', 'EXPIRADA'])
})

t.test('a recurrence cancelled before the first attempt takes its live charges with it (CCLD: test/routes/api-pix-cobr-rec-end.test.ts has every way a recurrence ends)', async t => {
  const { call, idRec, body, cancel } = await cobrApp(t)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  await cancel(idRec)
  const read = await call('GET', `/v2/cobr/${txid}`)
  checkAnswer(t, read, 'GET', '/cobr/{txid}')
  t.match(read.json(), { status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'CCLD' } } })
})

t.test('a charge is its account\'s: another account neither reads nor cancels it', async t => {
  const { app, call, body } = await cobrApp(t)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  const other = await newAccount(app)
  const token = await oauthToken(app, other)
  t.equal((await app.inject({ method: 'GET', url: `/v2/cobr/${txid}`, headers: bearer(token) })).statusCode, 404)
  t.equal((await app.inject({ method: 'PATCH', url: `/v2/cobr/${txid}`, headers: bearer(token), payload: { status: 'CANCELADA' } })).statusCode, 404)
  t.equal((await app.inject({ method: 'PUT', url: `/v2/cobr/${aTxid(2)}`, headers: bearer(token), payload: body() })).statusCode, 400, 'another account\'s recurrence is none of its own')
  t.equal(T0.slice(0, 10), '2026-03-10')
})

t.test('the control plane lists the recurrences with their charges counted, of one account or every one, and shows one with its charges and attempts', async t => {
  const { app, acc, call, idRec, body, recurrence } = await cobrApp(t)
  const second = await recurrence({ vinculo: { contrato: 'CONTRATO-2', devedor: OTHER_DEBTOR } })
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  t.equal((await call('PUT', `/v2/cobr/${aTxid(2)}`, body({ calendario: { dataDeVencimento: '2026-04-20' } }))).statusCode, 201)
  await advanceTo(app, '2026-03-20T11:00:00Z')
  const other = await newAccount(app)
  const listed = await app.inject({ method: 'GET', url: `/__sandbox/recurrences?accountId=${acc.accountId}` })
  t.equal(listed.statusCode, 200, listed.body)
  const { recurrences, nextCursor } = listed.json()
  t.equal(nextCursor, undefined, 'one page holds them all')
  t.same(recurrences.map((r: { idRec: string }) => r.idRec), [second, idRec], 'the last made first')
  t.match(recurrences[1], {
    accountId: acc.accountId,
    idRec,
    status: 'APROVADA',
    calendario: { periodicidade: 'MENSAL' },
    vinculo: { devedor: { cpf: '52998224725' } },
    charges: { total: 2, byStatus: { CONCLUIDA: 1, CRIADA: 1 } },
  })
  t.notOk('cobsr' in recurrences[1], 'the list counts the charges rather than carrying them')
  t.same(recurrences[0].charges, { total: 0, byStatus: {} }, 'a recurrence with no charge yet')

  const shown = await app.inject({ method: 'GET', url: `/__sandbox/recurrences/${idRec}` })
  t.equal(shown.statusCode, 200, shown.body)
  t.match(shown.json(), {
    accountId: acc.accountId,
    idRec,
    status: 'APROVADA',
    cobsr: [
      { txid, status: 'CONCLUIDA', calendario: { dataDeVencimento: '2026-03-20' }, tentativas: [{ tipo: 'AGND', status: 'PAGA' }] },
      { txid: aTxid(2), status: 'CRIADA', calendario: { dataDeVencimento: '2026-04-20' } },
    ],
  })
  t.equal(shown.json().cobsr.length, 2)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/recurrences/RN0000000020260310000000000xx' })).statusCode, 404)
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/recurrences?accountId=${other.accountId}` })).json(), { recurrences: [] }, 'another account has none')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/recurrences?accountId=x' })).statusCode, 400)
})

t.test('snapshots carry the charges; an import schedules their next steps again and refuses a broken charge', async t => {
  const { app, acc, call, body } = await cobrApp(t)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  await advance(app, 1)
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.match(Object.values(snapshot.cobrs), [{ txid, status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }], dueAt: '2026-03-20T11:00:00.000Z' }])
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })).statusCode, 200)
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, '2026-03-20T11:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'CONCLUIDA' }, 'the imported charge is debited on its date')
  t.equal((await balanceOf(app, acc.accountId)).available, before.available + 49.9)

  for (const [field, value] of [['status', 'PAGA'], ['criacao', '2026-02-30']] as const) {
    const broken = structuredClone(snapshot)
    broken.cobrs['1'][field] = value
    const refused = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: broken })
    t.equal(refused.statusCode, 400, field)
    t.match(refused.body, `cobrs/1/${field}`)
  }
})

t.test('a charge above the payer\'s own maximum: the payer\'s PSP rejects it when it arrives (AM02), nothing debited', async t => {
  const { app, acc, call, body, recurrence } = await cobrApp(t)
  const otherRec = await recurrence({ valor: { valorMinimoRecebedor: '10.00' } }, { valorMaximo: '40.00' })
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body({ idRec: otherRec }))).statusCode, 201, 'the receiver does not know the payer\'s maximum')
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, '2026-03-20T12:00:00Z')
  const read = await call('GET', `/v2/cobr/${txid}`)
  checkAnswer(t, read, 'GET', '/cobr/{txid}')
  t.match(read.json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AM02' } } })
  t.notOk(read.json().tentativas, 'no attempt was scheduled')
  t.same(await balanceOf(app, acc.accountId), before)
})

t.test('no funds at 08:00: the payer\'s PSP tries again at 18:00 the same day, the attempt AGENDADA until then (docs/assumptions.md, Pix Automático)', async t => {
  const { app, acc, call, body, debits } = await cobrApp(t)
  const r = await startReceiver()
  t.teardown(() => r.close())
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: r.url })).statusCode, 200)
  await debits('REJEITADA_SALDO')
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, '2026-03-20T11:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA' }] }, 'the morning found no funds: not over yet')
  t.equal(await retryRefused(call, txid, '2026-03-23'), 'Existe uma tentativa com status SOLICITADA ou AGENDADA.', 'no retry while the evening attempt is to come')
  const next = await app.inject({ method: 'POST', url: '/__sandbox/clock/next-due', payload: { accountId: acc.accountId } })
  t.match(next.json().debit, { txid, at: '2026-03-20T21:00:00.000Z', status: 'ATIVA' }, 'the next debit is the evening one; no funds then either')
  const expired = (await call('GET', `/v2/cobr/${txid}`)).json()
  t.match(expired, { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] })
  t.equal(expired.tentativas[0].atualizacao.at(-1).data, '2026-03-20T21:00:00.000Z', 'EXPIRADA at 18:00 in São Paulo')
  t.same(await balanceOf(app, acc.accountId), before)

  // The payer's funds arrive during the day: the evening attempt pays (the control plane forces it).
  const second = aTxid(2)
  t.equal((await call('PUT', `/v2/cobr/${second}`, body({ calendario: { dataDeVencimento: '2026-04-20' } }))).statusCode, 201)
  await advanceTo(app, '2026-04-20T11:00:00Z')
  t.match((await call('GET', `/v2/cobr/${second}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }] })
  t.equal((await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/cobr/${second}/next-debit`, payload: { outcome: 'PAID' } })).statusCode, 200)
  await advanceTo(app, '2026-04-20T20:59:59Z')
  t.match((await call('GET', `/v2/cobr/${second}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }] }, 'not before 18:00')
  await advanceTo(app, '2026-04-20T21:00:00Z')
  const paid = (await call('GET', `/v2/cobr/${second}`)).json()
  t.match(paid, { status: 'CONCLUIDA', tentativas: [{ tipo: 'AGND', status: 'PAGA' }], pix: [{ valor: '49.90' }] })
  t.equal(paid.pix[0].horario, '2026-04-20T21:00:00.000Z')
  t.equal((await balanceOf(app, acc.accountId)).available, before.available + 49.9)
  // The receiver heard nothing of the morning: only the attempt's end, once.
  await app.sandbox.webhooks.idle()
  const told = (await cobrDeliveries(app, acc.accountId)).filter(d => d.transactionId === second).map(d => `${d.body.cobsr[0].status}:${d.body.cobsr[0].tentativas.map((x: { status: string }) => x.status).join(',')}`)
  t.same(told, ['ATIVA:AGENDADA', 'CONCLUIDA:PAGA'])
})

t.test('a lack of funds forced on a debit holds for its evening attempt too', async t => {
  const { app, acc, call, body } = await cobrApp(t)
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body())).statusCode, 201)
  t.equal((await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/cobr/${txid}/next-debit`, payload: { outcome: 'INSUFFICIENT_FUNDS' } })).statusCode, 200)
  await advanceTo(app, '2026-03-20T11:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }] })
  await advanceTo(app, '2026-03-20T21:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] }, 'the payer, who pays by default, had no funds that day')
  t.equal(app.sandbox.cobrs.find(acc.accountId, txid)?.proximoDebito, undefined, 'spent')
})

t.test('the 7 days of PERMITE_3R_7D run from the due date, not from a first attempt moved to a business day', async t => {
  const { app, call, body, debits } = await cobrApp(t)
  await debits('REJEITADA_SALDO')
  const txid = aTxid(1)
  // Due on Saturday 21 March: the first attempt on Monday 23 March (ajusteDiaUtil).
  const created = await call('PUT', `/v2/cobr/${txid}`, body({ calendario: { dataDeVencimento: '2026-03-21' } }))
  t.equal(created.statusCode, 201, created.body)
  await advanceTo(app, '2026-03-23T21:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ dataLiquidacao: '2026-03-23', status: 'EXPIRADA' }] })
  t.equal(await retryRefused(call, txid, '2026-03-29'), 'O parâmetro data não está entre o dia seguinte à data prevista da primeira tentativa de liquidação e 7 dias corridos após a data de vencimento, antes do próximo ciclo da recorrência.',
    '8 days after the due date, though 6 after the first attempt')
  const last = await call('POST', `/v2/cobr/${txid}/retentativa/2026-03-28`)
  t.equal(last.statusCode, 201, `7 days after the due date: ${last.body}`)
  checkAnswer(t, last, 'POST', '/cobr/{txid}/retentativa/{data}')
  // That retry fails too, on the window's last day: no date is left for another, the charge expires.
  await advanceTo(app, '2026-03-28T21:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'EXPIRADA', tentativas: [{ status: 'EXPIRADA' }, { dataLiquidacao: '2026-03-28', status: 'EXPIRADA' }] })
})

t.test('a payer\'s maximum is never below the receiver\'s floor (RecBase.valor.valorMinimoRecebedor)', async t => {
  const { app, acc, call, body, recurrence } = await cobrApp(t)
  const floor = { valor: { valorMinimoRecebedor: '50.00' } }
  const created = await call('POST', '/v2/rec', { vinculo: { contrato: 'PISO', devedor: OTHER_DEBTOR }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, politicaRetentativa: 'NAO_PERMITE', ...floor })
  const idRec = created.json().idRec
  const refused = await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/approve`, payload: { valorMaximo: '49.99' } })
  t.equal(refused.statusCode, 400, refused.body)
  t.match(refused.json(), { message: /valorMaximo 49\.99 is below the receiver's floor, valorMinimoRecebedor 50\.00/ })
  t.equal((await call('GET', `/v2/rec/${idRec}`)).json().status, 'CRIADA', 'nothing changed')
  t.equal((await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/approve`, payload: { valorMaximo: '50.00' } })).statusCode, 200, 'the floor itself is a maximum')

  // A simulated payer set lower approves at the floor: a charge of the floor's value is no more than its maximum.
  const behaviour = await app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload: { accountId: acc.accountId, document: DEBTOR.cpf, authorization: 'APPROVE', valorMaximo: '10.00', debit: 'PAGA' } })
  t.equal(behaviour.statusCode, 200, behaviour.body)
  const viaRequest = (await call('POST', '/v2/rec', { vinculo: { contrato: 'PISO-2', devedor: DEBTOR }, calendario: { dataInicial: '2026-03-20', periodicidade: 'MENSAL' }, politicaRetentativa: 'NAO_PERMITE', ...floor })).json().idRec
  t.equal((await call('POST', '/v2/solicrec', { idRec: viaRequest, calendario: { dataExpiracaoSolicitacao: '2026-03-12T15:00:00Z' }, destinatario: { conta: '1', cpf: DEBTOR.cpf, ispbParticipante: '91193552' } })).statusCode, 201)
  await advance(app, 3000)
  t.equal((await call('GET', `/v2/rec/${viaRequest}`)).json().status, 'APROVADA')
  const txid = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${txid}`, body({ idRec: viaRequest, valor: { original: '50.00' } }))).statusCode, 201)
  const before = await balanceOf(app, acc.accountId)
  await advanceTo(app, '2026-03-20T11:00:00Z')
  t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'CONCLUIDA', tentativas: [{ status: 'PAGA' }] }, 'not AM02: the maximum is the floor')
  t.equal((await balanceOf(app, acc.accountId)).available, before.available + 50)
  t.ok(await recurrence({ vinculo: { contrato: 'FIXO', devedor: OTHER_DEBTOR }, valor: { valorRec: '49.90' } }, { valorMaximo: '10.00' }), 'a fixed value takes any maximum: it bounds nothing')
})

/** The first violation's reason of a retry refused 400. */
async function retryRefused (call: Awaited<ReturnType<typeof cobrApp>>['call'], txid: string, data: string): Promise<string> {
  const res = await call('POST', `/v2/cobr/${txid}/retentativa/${data}`)
  if (res.statusCode !== 400) return `${res.statusCode} ${res.body}`
  return res.json().violacoes[0].razao
}
