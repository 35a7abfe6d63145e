import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import { advance, balanceOf, buildTestApp, newAccount, T0, type CreatedAccount } from '../helpers/app.js'
import { apiPixBacen, checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { aTxid } from '../helpers/payins.js'
import { client } from '../helpers/rec.js'
import { startReceiver } from '../helpers/receiver.js'
import { advanceTo, cobrApp, cobrBody, cobrDeliveries, DEBTOR } from '../helpers/recurrences.js'

/**
 * No money moves under a recurrence once it ended (docs/api-pix.md, "Recurring charges"): cancelled by
 * its receiver (PATCH /rec), its payer or its payer's PSP, expired (through the control plane or at the
 * end of its term), every charge of it not yet settled is cancelled with it (CCLD), its pending attempts
 * and retries with the charge, and a retry asked for afterwards is refused in API Pix's words. Each end
 * against a debit due that very day, a retry asked for before it, and a retry asked for after it: the
 * receiver's ledger unchanged, the charge's callback announcing the cancellation as WebhookCobRBody.
 */

const callbackBody = apiPixBacen.requestBody('WebhookCobRBody')
const DUE = '2026-03-20'
/** 07:00 in São Paulo on the due date: the charge ATIVA, its first attempt AGENDADA for 08:00. */
const BEFORE_DEBIT = '2026-03-20T10:00:00Z'
/** 18:00 in São Paulo on the due date: the evening attempt after a morning without funds. */
const EVENING = '2026-03-20T21:00:00Z'
/** Noon in São Paulo the day after the due date, once the first attempt failed. */
const NEXT_DAY = '2026-03-21T15:00:00Z'
const RETRY_DATE = '2026-03-23'
const AFTER_RETRY = '2026-03-24T15:00:00Z'

type Setup = Awaited<ReturnType<typeof cobrApp>>
interface Ending {
  /** Who the charge's cancellation names. */
  solicitante: string
  /** The recurrence's status once ended. */
  status: string
  /** A recurrence that ends this way; `at` is when it ends (a scenario's time, a term's end). */
  create: (s: Setup, at: string) => Promise<string>
  /** Moves the clock to `at` and ends the recurrence there. */
  end: (s: Setup, idRec: string, at: string) => Promise<void>
  /** An ending bound to the calendar (the term's end) cannot meet a debit due that day. */
  dueDebit?: false
}

const terms = { vinculo: { contrato: 'CONTRATO-FIM', devedor: DEBTOR } }
const control = async (s: Setup, url: string) => {
  const res = await s.app.inject({ method: 'POST', url })
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
}

const ENDINGS: Record<string, Ending> = {
  'cancelled by its receiver (PATCH /rec)': {
    solicitante: 'USUARIO_RECEBEDOR',
    status: 'CANCELADA',
    create: s => s.recurrence(terms),
    end: async (s, idRec, at) => { await advanceTo(s.app, at); await s.cancel(idRec) },
  },
  'cancelled by its payer': {
    solicitante: 'USUARIO_PAGADOR',
    status: 'CANCELADA',
    create: s => s.recurrence(terms),
    end: async (s, idRec, at) => { await advanceTo(s.app, at); await control(s, `/__sandbox/recurrences/${idRec}/cancel`) },
  },
  'cancelled by its payer\'s PSP (REC_PAYER_PSP_CANCELS)': {
    solicitante: 'PSP_PAGADOR',
    status: 'CANCELADA',
    create: async (s, at) => {
      const created = await s.call('POST', '/v2/rec', { ...terms, calendario: { dataInicial: DUE, dataFinal: '2027-03-20', periodicidade: 'MENSAL' }, politicaRetentativa: 'PERMITE_3R_7D' },
        { 'x-sandbox-scenario': `REC_PAYER_PSP_CANCELS;ms=${Date.parse(at) - Date.parse(T0)}` })
      if (created.statusCode !== 201) throw new Error(created.body)
      await control(s, `/__sandbox/recurrences/${created.json().idRec}/approve`)
      return created.json().idRec
    },
    end: (s, _idRec, at) => advanceTo(s.app, at),
  },
  'expired through the control plane': {
    solicitante: 'PSP_RECEBEDOR',
    status: 'EXPIRADA',
    create: s => s.recurrence(terms),
    end: async (s, idRec, at) => { await advanceTo(s.app, at); await control(s, `/__sandbox/recurrences/${idRec}/expire`) },
  },
  'expired at the end of its term (dataFinal the due date)': {
    solicitante: 'PSP_RECEBEDOR',
    status: 'EXPIRADA',
    create: s => s.recurrence({ ...terms, calendario: { dataInicial: DUE, dataFinal: DUE, periodicidade: 'MENSAL' } }),
    // It expires at the midnight after dataFinal, before the day after the due date.
    end: (s, _idRec, at) => advanceTo(s.app, at),
    dueDebit: false,
  },
}

/** The cobrApp with /webhookcobr pointing at a real receiver, and a recurrence that ends as `ending` says. */
async function setup (t: Test, ending: Ending, endsAt: string) {
  const s = await cobrApp(t)
  const rx = await startReceiver()
  t.teardown(() => rx.close())
  t.equal((await s.call('PUT', '/v2/webhookcobr', { webhookUrl: rx.url })).statusCode, 200)
  const idRec = await ending.create(s, endsAt)
  const txid = aTxid(1)
  t.equal((await s.call('PUT', `/v2/cobr/${txid}`, s.body({ idRec }))).statusCode, 201)
  return { ...s, idRec, txid }
}

/** What the charge shows once its recurrence ended: CANCELADA (CCLD, by `solicitante`), its pending attempt CANCELADA, no PIX. */
async function checkCancelled (t: Test, s: Awaited<ReturnType<typeof setup>>, ending: Ending, attempts: string[]) {
  const rec = (await s.call('GET', `/v2/rec/${s.idRec}`)).json()
  t.equal(rec.status, ending.status, 'the recurrence ended')
  const read = await s.call('GET', `/v2/cobr/${s.txid}`)
  checkAnswer(t, read, 'GET', '/cobr/{txid}')
  const cobr = read.json()
  t.match(cobr, { status: 'CANCELADA', encerramento: { cancelamento: { solicitante: ending.solicitante, codigo: 'CCLD' } } })
  t.same(cobr.tentativas.map((a: { status: string }) => a.status), attempts, 'its pending attempt dropped')
  t.notOk(cobr.pix, 'no PIX received')
  // The receiver is told: the last callback of the charge is its cancellation, as WebhookCobRBody shapes it.
  await s.app.sandbox.webhooks.idle()
  const told = (await cobrDeliveries(s.app, s.acc.accountId)).filter(d => d.transactionId === s.txid)
  const last = told[told.length - 1].body
  t.ok(callbackBody(last), `WebhookCobRBody: ${JSON.stringify(callbackBody.errors ?? [])}`)
  t.same(last.cobsr[0], { idRec: s.idRec, txid: s.txid, status: 'CANCELADA', atualizacao: cobr.atualizacao, tentativas: cobr.tentativas, encerramento: cobr.encerramento }, 'what GET /cobr/{txid} shows')
  t.equal(told.filter(d => d.body.cobsr[0].status === 'CANCELADA').length, 1, 'announced once')
}

for (const [name, ending] of Object.entries(ENDINGS)) {
  t.test(`${name}: no money moves under it again`, async t => {
    if (ending.dueDebit !== false) {
      t.test('a debit due that very day, before 08:00: cancelled, never run', async t => {
        const s = await setup(t, ending, BEFORE_DEBIT)
        await advance(s.app, 1)
        t.match((await s.call('GET', `/v2/cobr/${s.txid}`)).json(), { status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA' }] })
        const before = await balanceOf(s.app, s.acc.accountId)
        await ending.end(s, s.idRec, BEFORE_DEBIT)
        await advanceTo(s.app, AFTER_RETRY)
        t.same(await balanceOf(s.app, s.acc.accountId), before, 'nothing credited')
        await checkCancelled(t, s, ending, ['CANCELADA'])
        t.equal((await s.app.inject({ method: 'POST', url: '/__sandbox/clock/next-due', payload: { accountId: s.acc.accountId } })).json().debit, null, 'no debit left to come')
      })
    }

    t.test('a retry asked for before the end: dropped with its charge, never debited', async t => {
      const s = await setup(t, ending, NEXT_DAY)
      await s.debits('REJEITADA_SALDO')
      await advanceTo(s.app, EVENING)
      t.match((await s.call('GET', `/v2/cobr/${s.txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] }, 'no funds, morning and evening')
      await s.debits('PAGA')
      const retry = await s.call('POST', `/v2/cobr/${s.txid}/retentativa/${RETRY_DATE}`)
      t.equal(retry.statusCode, 201, retry.body)
      const before = await balanceOf(s.app, s.acc.accountId)
      await ending.end(s, s.idRec, NEXT_DAY)
      await advanceTo(s.app, AFTER_RETRY)
      t.same(await balanceOf(s.app, s.acc.accountId), before, 'the payer would have paid the retry: nothing credited')
      await checkCancelled(t, s, ending, ['EXPIRADA', 'CANCELADA'])
    })

    t.test('a retry asked for after the end: refused with API Pix\'s violation, nothing scheduled', async t => {
      const s = await setup(t, ending, NEXT_DAY)
      await s.debits('REJEITADA_SALDO')
      await advanceTo(s.app, EVENING)
      await s.debits('PAGA')
      const before = await balanceOf(s.app, s.acc.accountId)
      await ending.end(s, s.idRec, NEXT_DAY)
      const retry = await s.call('POST', `/v2/cobr/${s.txid}/retentativa/${RETRY_DATE}`)
      t.equal(retry.statusCode, 400)
      checkAnswer(t, retry, 'POST', '/cobr/{txid}/retentativa/{data}')
      t.equal(retry.json().type, PROBLEM_TYPE + 'CobROperacaoInvalida')
      t.match(retry.json().violacoes, [
        { razao: 'A cobrança encontra-se concluída, expirada, rejeitada ou cancelada.', propriedade: 'cobr.status' },
        { razao: 'A recorrência encontra-se expirada, cancelada ou rejeitada.', propriedade: 'rec.status' },
      ])
      await advanceTo(s.app, AFTER_RETRY)
      t.same(await balanceOf(s.app, s.acc.accountId), before, 'nothing credited')
      t.ok((await balanceOf(s.app, s.acc.accountId)).invariantHolds)
      await checkCancelled(t, s, ending, ['EXPIRADA'])
    })
  })
}

t.test('a rejected recurrence never had a charge: one asked for is refused, nothing scheduled', async t => {
  const s = await cobrApp(t)
  const created = await s.call('POST', '/v2/rec', { ...terms, calendario: { dataInicial: DUE, periodicidade: 'MENSAL' }, politicaRetentativa: 'PERMITE_3R_7D' })
  const idRec = created.json().idRec
  await control(s, `/__sandbox/recurrences/${idRec}/reject`)
  const refused = await s.call('PUT', `/v2/cobr/${aTxid(1)}`, s.body({ idRec }))
  t.equal(refused.statusCode, 400)
  checkAnswer(t, refused, 'PUT', '/cobr/{txid}')
  t.match(refused.json().violacoes, [{ propriedade: 'cobr.idRec' }])
  t.equal((await s.call('GET', `/v2/cobr/${aTxid(1)}`)).statusCode, 404)
})

t.test('a recurrence ended while its debit is already due but not yet run moves no money', async t => {
  const s = await setup(t, ENDINGS['cancelled by its payer'], BEFORE_DEBIT)
  await advance(s.app, 1)
  const before = await balanceOf(s.app, s.acc.accountId)
  // The clock stands past 08:00 without the scheduler having run the debit (as a running clock's timer
  // fires late): the payer cancels, then the scheduler catches up.
  s.app.sandbox.clock.set(Date.parse('2026-03-20T11:00:01Z'))
  t.ok(Date.parse(s.app.sandbox.cobrs.find(s.acc.accountId, s.txid)!.dueAt!) < s.app.sandbox.clock.now(), 'the debit is due, not run')
  await control(s, `/__sandbox/recurrences/${s.idRec}/cancel`)
  await s.app.sandbox.scheduler.runDue()
  await advanceTo(s.app, AFTER_RETRY)
  t.same(await balanceOf(s.app, s.acc.accountId), before, 'nothing credited')
  await checkCancelled(t, s, ENDINGS['cancelled by its payer'], ['CANCELADA'])
})

/** A charge whose first attempt found no funds, its retry asked for (and the payer able to pay it), of a recurrence `idRec`. */
async function retryScheduled (app: FastifyInstance, acc: CreatedAccount) {
  // A token each call: the clock moves past a token's lifetime.
  const call = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) => client(app, await oauthToken(app, acc))(method, url, payload)
  const accountId = acc.accountId
  const idRec = (await call('POST', '/v2/rec', { ...terms, calendario: { dataInicial: DUE, periodicidade: 'MENSAL' }, politicaRetentativa: 'PERMITE_3R_7D' })).json().idRec
  await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/approve`, payload: {} })
  const behaviour = (debit: string) => app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload: { accountId, authorization: 'APPROVE', debit } })
  await behaviour('REJEITADA_SALDO')
  const created = await call('PUT', `/v2/cobr/${aTxid(1)}`, { ...cobrBody(idRec), ajusteDiaUtil: false })
  if (created.statusCode !== 201) throw new Error(created.body)
  await advanceTo(app, EVENING)
  await behaviour('PAGA')
  const retry = await call('POST', `/v2/cobr/${aTxid(1)}/retentativa/${RETRY_DATE}`)
  if (retry.statusCode !== 201) throw new Error(retry.body)
  return idRec
}

t.test('with --data, a restart after the recurrence was cancelled does not bring its retry back', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-rec-end-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), seed: 'rec-end-seed', clock: 'frozen' as const, clockStart: T0 }
  const first = await buildApp({ config })
  const acc = await newAccount(first, { balance: 0 })
  const idRec = await retryScheduled(first, acc)
  t.equal((await first.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/cancel` })).statusCode, 200)
  await first.close()

  const second = await buildApp({ config })
  t.teardown(() => second.close())
  await advanceTo(second, AFTER_RETRY)
  t.same(await balanceOf(second, acc.accountId), { available: 0, blocked: 0, invariantHolds: true }, 'nothing credited after the restart')
  t.match((await client(second, await oauthToken(second, acc))('GET', `/v2/cobr/${aTxid(1)}`)).json(), { status: 'CANCELADA', tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'CANCELADA' }] })
})

t.test('a snapshot holding a live charge of an ended recurrence: the import cancels it rather than schedule its debit', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const idRec = await retryScheduled(app, acc)
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.match(Object.values(snapshot.cobrs), [{ status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }, { status: 'AGENDADA' }] }])
  // As a document written before a recurrence's end cancelled its charges would hold it.
  const rec = snapshot.recurrences[idRec]
  rec.status = 'CANCELADA'
  rec.atualizacao.push({ status: 'CANCELADA', data: rec.atualizacao[rec.atualizacao.length - 1].data })
  rec.encerramento = { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB', descricao: 'Cancelamento solicitado pelo usuário pagador' } }
  const imported = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(imported.statusCode, 200, imported.body)
  t.match(app.sandbox.cobrs.find(acc.accountId, aTxid(1)), { status: 'CANCELADA', dueAt: undefined }, 'cancelled on import, nothing scheduled')
  await advanceTo(app, AFTER_RETRY)
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true }, 'nothing credited')
  t.match((await client(app, await oauthToken(app, acc))('GET', `/v2/cobr/${aTxid(1)}`)).json(), {
    status: 'CANCELADA',
    encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'CCLD' } },
    tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'CANCELADA' }],
  })
})

t.test('a debit checks its recurrence when it runs: one no longer APROVADA (ended behind the charges\' back) cancels the charge, pays nothing', async t => {
  const s = await setup(t, ENDINGS['expired through the control plane'], BEFORE_DEBIT)
  await advance(s.app, 1)
  const before = await balanceOf(s.app, s.acc.accountId)
  // The store's own write path, as a document written by another version could leave it: the charge still ATIVA.
  s.app.sandbox.store.transact(() => s.app.sandbox.store.update('recurrences', s.idRec, r => { r.status = 'EXPIRADA' }))
  t.match(s.app.sandbox.cobrs.find(s.acc.accountId, s.txid), { status: 'ATIVA' })
  await advanceTo(s.app, AFTER_RETRY)
  t.same(await balanceOf(s.app, s.acc.accountId), before, 'nothing credited')
  t.match((await s.call('GET', `/v2/cobr/${s.txid}`)).json(), {
    status: 'CANCELADA',
    encerramento: { cancelamento: { solicitante: 'PSP_RECEBEDOR', codigo: 'CCLD', descricao: 'Cancelamento de agendamento em razão do fim da vigência da recorrência' } },
    tentativas: [{ status: 'CANCELADA' }],
  })
})
