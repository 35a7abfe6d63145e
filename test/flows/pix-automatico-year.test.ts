import t from 'tap'
import { advance, balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * A year of Pix Automático in seconds (docs/api-pix.md, Pix Automático and "Recurring charges"): two
 * monthly subscriptions, one approved through its confirmation request (journey 1, solicrec), one
 * through its location's payload (journey 2, locrec); twelve charges of the first, each debited when
 * `clock next-due` moves the virtual clock to it, one failing for lack of funds and paid on its retry;
 * the receiver's ledger after each, and what its webhooks (/webhookrec, /webhookcobr) received on a
 * real receiver.
 */

const VALOR = '49.90'
const MONTHS = ['2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03']
const FAILING = 5

const recBody = (devedor: { cpf: string, nome: string }, extra: Record<string, unknown> = {}) => ({
  vinculo: { contrato: `CONTRATO-${devedor.cpf}`, devedor, objeto: 'Assinatura mensal' },
  calendario: { dataInicial: '2026-04-20', dataFinal: '2027-04-19', periodicidade: 'MENSAL' },
  valor: { valorRec: VALOR },
  politicaRetentativa: 'PERMITE_3R_7D',
  ...extra,
})
const cobrBody = (idRec: string, dataDeVencimento: string) => ({
  idRec,
  calendario: { dataDeVencimento },
  valor: { original: VALOR },
  ajusteDiaUtil: true,
  recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' },
})

t.test('two subscriptions approved by journeys 1 and 2, twelve months debited, one failed debit paid on its retry', async t => {
  const app = await buildTestApp(t)
  const rx = await startReceiver()
  t.teardown(() => rx.close())
  const acc = await newAccount(app, { name: 'STREAMING LTDA' })
  // A token per call: the clock moves months ahead, past a token's lifetime.
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(await oauthToken(app, acc)), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) })
  const recOf = async (idRec: string) => (await call('GET', `/v2/rec/${idRec}`)).json()

  // The receiver's webhooks: its charges' at {webhookUrl}/cobr, its recurrences' at {webhookUrl}/rec.
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: rx.url })).statusCode, 200)
  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: rx.url })).statusCode, 200)

  // Journey 1: the receiver asks the payer's PSP for a confirmation; the payer accepts it.
  const first = await call('POST', '/v2/rec', recBody({ cpf: '52998224725', nome: 'MARIA PAGADORA' }))
  t.equal(first.statusCode, 201, first.body)
  const idRec1 = first.json().idRec as string
  const solicitacao = { idRec: idRec1, calendario: { dataExpiracaoSolicitacao: '2026-03-20T15:00:00Z' }, destinatario: { conta: '1', cpf: '52998224725', ispbParticipante: '91193552' } }
  const solicited = await call('POST', '/v2/solicrec', solicitacao)
  t.equal(solicited.statusCode, 201, solicited.body)
  await advance(app, 5000)
  t.match((await call('GET', `/v2/solicrec/${solicited.json().idSolicRec}`)).json(), { status: 'ACEITA' })
  t.match(await recOf(idRec1), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_1' }, pagador: { cpf: '52998224725', ispbParticipante: '91193552' } })

  // Journey 2: the recurrence served at a location; the payer's PSP reads its payload and the payer approves it.
  const locrec = await call('POST', '/v2/locrec')
  t.equal(locrec.statusCode, 201, locrec.body)
  const second = await call('POST', '/v2/rec', recBody({ cpf: '45164632481', nome: 'FULANO DE TAL' }, { loc: locrec.json().id }))
  t.equal(second.statusCode, 201, second.body)
  const idRec2 = second.json().idRec as string
  const location = locrec.json().location as string
  const payload = await app.inject({ method: 'GET', url: location.slice(location.indexOf('/')) })
  t.equal(payload.statusCode, 200, payload.body)
  t.equal(payload.headers['content-type'], 'application/jose')
  const approved = await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec2}/approve`, payload: { jornada: 'JORNADA_2' } })
  t.equal(approved.statusCode, 200, approved.body)
  t.match(await recOf(idRec2), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_2' } })

  // Twelve months of the first: each charge created a month ahead, then debited on its date.
  const start = (await balanceOf(app, acc.accountId)).available
  let credited = 0
  for (const [i, month] of MONTHS.entries()) {
    const txid = `assinatura${String(i + 1).padStart(2, '0')}${'x'.repeat(18)}`
    const scenario: Record<string, string> = i === FAILING ? { 'x-sandbox-scenario': 'COBR_INSUFFICIENT_FUNDS' } : {}
    const created = await call('PUT', `/v2/cobr/${txid}`, cobrBody(idRec1, `${month}-20`), scenario)
    t.equal(created.statusCode, 201, `${month}: ${created.body}`)
    const due = await app.inject({ method: 'POST', url: '/__sandbox/clock/next-due', payload: { accountId: acc.accountId } })
    t.equal(due.json().debit?.txid, txid, `${month}: the next debit is its charge's`)
    if (i === FAILING) {
      t.equal(due.json().debit.status, 'ATIVA', `${month}: not paid, waiting for a retry`)
      t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] })
      t.equal((await balanceOf(app, acc.accountId)).available, start + credited, 'nothing credited for the failed debit')
      const retryDate = due.json().debit.at.slice(0, 10).replace(/-(\d\d)$/, (_: string, d: string) => `-${String(Number(d) + 2).padStart(2, '0')}`)
      const retry = await call('POST', `/v2/cobr/${txid}/retentativa/${retryDate}`)
      t.equal(retry.statusCode, 201, retry.body)
      t.match(retry.json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'AGENDADA', dataLiquidacao: retryDate }] })
      const retried = await app.inject({ method: 'POST', url: '/__sandbox/clock/next-due', payload: { accountId: acc.accountId } })
      t.match(retried.json().debit, { txid, status: 'CONCLUIDA' }, 'paid on the retry')
      t.match((await call('GET', `/v2/cobr/${txid}`)).json(), { status: 'CONCLUIDA', tentativas: [{ status: 'EXPIRADA' }, { status: 'PAGA' }] })
    } else {
      t.equal(due.json().debit.status, 'CONCLUIDA', `${month}: paid on its date`)
    }
    credited = Math.round((credited + 49.9) * 100) / 100
    t.equal((await balanceOf(app, acc.accountId)).available, Math.round((start + credited) * 100) / 100, `${month}: the receiver credited`)
  }
  const list = (await call('GET', `/v2/cobr?inicio=2026-03-01T00:00:00Z&fim=2027-04-01T00:00:00Z&idRec=${idRec1}`)).json()
  t.same(list.cobsr.map((c: { status: string }) => c.status), MONTHS.map(() => 'CONCLUIDA'))
  t.match(await recOf(idRec1), { status: 'APROVADA' }, 'still in force after a year')
  t.match(await recOf(idRec2), { status: 'APROVADA' })

  // What the receiver's webhooks received: each recurrence's changes, and each charge's.
  await app.sandbox.webhooks.idle()
  const recs = rx.requests.filter(r => r.path.endsWith('/rec')).map(r => r.json().recs[0] as { idRec: string, status: string })
  t.same(recs.filter(r => r.idRec === idRec1).map(r => r.status), ['CRIADA', 'APROVADA'])
  t.same(recs.filter(r => r.idRec === idRec2).map(r => r.status), ['CRIADA', 'APROVADA'])
  const cobrs = rx.requests.filter(r => r.path.endsWith('/cobr')).map(r => r.json().cobsr[0] as { txid: string, status: string })
  t.equal(cobrs.filter(c => c.status === 'CONCLUIDA').length, 12, 'each charge told paid')
  const failing = `assinatura${String(FAILING + 1).padStart(2, '0')}${'x'.repeat(18)}`
  t.same(cobrs.filter(c => c.txid === failing).map(c => c.status), ['ATIVA', 'ATIVA', 'ATIVA', 'CONCLUIDA'], 'activated, its debit failed, retried, paid')
})
