import t from 'tap'
import { call, certHeaderOf, startProcess, type SandboxProcess } from '../helpers/reliability.js'
import { fixtureAccount } from '../helpers/app.js'
import { aTxid } from '../helpers/payins.js'

/**
 * The real process with its clock running, as a client that runs twice against one process meets it
 * (docs/reliability.md, "A long jump of the clock"): after each move of the clock (advance, set,
 * next-due, freeze and resume), what falls due later runs on time, against the clock as it is now. A
 * timer armed before a move used to wait the real delay of the clock as it was: a batch put after a
 * 2-hour advance stayed EM_PROCESSAMENTO, and the clock showed its next job in the past.
 */

const START = '2026-03-10T15:00:00Z'
const HOUR = 3_600_000

async function token (sb: SandboxProcess): Promise<string> {
  const res = await call(sb.base, 'POST', '/oauth/token', {
    headers: {
      authorization: `Basic ${Buffer.from(`${fixtureAccount.clientId}:${fixtureAccount.clientSecret}`).toString('base64')}`,
      'x-ssl-client-cert': certHeaderOf(fixtureAccount.certificate),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.body}`)
  return res.json().access_token
}

/** A request of API Pix with a fresh token (the clock moves hours ahead, past a token's lifetime). */
async function apiPix (sb: SandboxProcess, method: string, path: string, body?: unknown) {
  return call(sb.base, method, path, { headers: { authorization: `Bearer ${await token(sb)}` }, ...(body !== undefined ? { body } : {}) })
}

/** Polls `read` every 20 ms until `done` holds, for up to `ms` of real time; the last value read. */
async function until<T> (read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await read()
    if (done(v) || Date.now() > deadline) return v
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

const cobvItem = (n: number, dataDeVencimento: string) => ({
  txid: aTxid(n),
  calendario: { dataDeVencimento },
  devedor: { cpf: '52998224725', nome: 'MARIA' },
  valor: { original: `${n}.00` },
  chave: 'recebedor@example.com',
})

t.test('with the clock running, after each move of the clock a batch put afterwards is processed on time', async t => {
  const sb = await startProcess(['--clock-start', START, '--log-level', 'silent'])
  t.teardown(() => sb.kill('SIGKILL'))
  const clock = async () => (await call(sb.base, 'GET', '/__sandbox/clock')).json()
  t.equal((await clock()).frozen, false, 'the clock runs')

  const moves: Array<[string, () => Promise<unknown>]> = [
    ['advance', () => call(sb.base, 'POST', '/__sandbox/clock/advance', { body: { ms: 2 * HOUR } })],
    ['set', async () => call(sb.base, 'POST', '/__sandbox/clock/set', { body: { now: new Date(Date.parse((await clock()).now) + 2 * HOUR).toISOString() } })],
    ['freeze, advance and resume', async () => {
      await call(sb.base, 'POST', '/__sandbox/clock/freeze')
      await call(sb.base, 'POST', '/__sandbox/clock/advance', { body: { ms: 2 * HOUR } })
      return call(sb.base, 'POST', '/__sandbox/clock/resume')
    }],
  ]
  for (const [i, [move, run]] of moves.entries()) {
    // A charge that expires in an hour (the timer is armed for it) and one a day ahead (the next job after it).
    const soon = aTxid(100 + i)
    t.equal((await apiPix(sb, 'PUT', `/v2/cob/${soon}`, { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: 'recebedor@example.com' })).status, 201)
    t.equal((await apiPix(sb, 'PUT', `/v2/cob/${aTxid(200 + i)}`, { calendario: { expiracao: 86_400 }, valor: { original: '1.00' }, chave: 'recebedor@example.com' })).status, 201)
    await run()
    t.match((await apiPix(sb, 'GET', `/v2/cob/${soon}`)).json(), { status: 'REMOVIDA_PELO_PSP' }, `${move}: the move ran the expiry the timer was armed for`)

    const now = Date.parse((await clock()).now)
    const due = new Date(now + 30 * 86_400_000).toISOString().slice(0, 10)
    const put = await apiPix(sb, 'PUT', `/v2/lotecobv/${i + 1}`, { descricao: `lote ${move}`, cobsv: [cobvItem(300 + i, due)] })
    t.equal(put.status, 202, put.body)
    const batch = await until(async () => (await apiPix(sb, 'GET', `/v2/lotecobv/${i + 1}`)).json(), b => b.cobsv[0].status !== 'EM_PROCESSAMENTO')
    t.equal(batch.cobsv[0].status, 'CRIADA', `${move}: the batch put after the move is processed within its settlement delay, not when the old timer fires`)
    const after = await clock()
    t.ok(after.nextJobAt === null || Date.parse(after.nextJobAt) >= Date.parse(after.now), `${move}: the next job is not in the past (${after.nextJobAt} at ${after.now})`)
  }
})

t.test('with the clock running, next-due: the debit runs, and a batch put afterwards is processed on time', async t => {
  const sb = await startProcess(['--clock-start', START, '--log-level', 'silent'])
  t.teardown(() => sb.kill('SIGKILL'))
  const rec = await apiPix(sb, 'POST', '/v2/rec', {
    vinculo: { contrato: 'CONTRATO-1', devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } },
    calendario: { dataInicial: '2026-03-20', dataFinal: '2027-03-20', periodicidade: 'MENSAL' },
    politicaRetentativa: 'PERMITE_3R_7D',
  })
  t.equal(rec.status, 201, rec.body)
  const idRec = rec.json().idRec
  t.equal((await call(sb.base, 'POST', `/__sandbox/recurrences/${idRec}/approve`, { body: { pagador: { ispbParticipante: '60701190', cpf: '52998224725' } } })).status, 200)
  for (const [n, date] of [[1, '2026-03-20'], [2, '2026-04-20']] as const) {
    const cobr = await apiPix(sb, 'PUT', `/v2/cobr/${aTxid(n)}`, { idRec, calendario: { dataDeVencimento: date }, valor: { original: '49.90' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } })
    t.equal(cobr.status, 201, cobr.body)
  }
  const next = await call(sb.base, 'POST', '/__sandbox/clock/next-due', { body: {} })
  t.match(next.json(), { debit: { txid: aTxid(1), status: 'CONCLUIDA' } })
  const put = await apiPix(sb, 'PUT', '/v2/lotecobv/1', { descricao: 'depois do débito', cobsv: [cobvItem(9, '2026-04-30')] })
  t.equal(put.status, 202, put.body)
  const batch = await until(async () => (await apiPix(sb, 'GET', '/v2/lotecobv/1')).json(), b => b.cobsv[0].status !== 'EM_PROCESSAMENTO')
  t.equal(batch.cobsv[0].status, 'CRIADA')
  const after = (await call(sb.base, 'GET', '/__sandbox/clock')).json()
  t.ok(Date.parse(after.nextJobAt) >= Date.parse(after.now), `the next job (the April charge's) is not in the past (${after.nextJobAt} at ${after.now})`)
})
