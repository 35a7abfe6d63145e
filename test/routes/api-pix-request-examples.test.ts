import t, { type Test } from 'tap'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { advance, buildTestApp, newAccount, NO_MTLS_CHECK } from '../helpers/app.js'
import { apiPixClient, checkAnswer, oauthToken } from '../helpers/api-pix.js'
import { bacenAsWritten, correctedForRequests, examples, REQUEST_CORRECTIONS, requestValidator } from '../helpers/api-pix-schemas.js'
import { payCode } from '../helpers/payins.js'

/**
 * Every request body example of API Pix 2.9.0 (its operations' `requestBody` examples, read from the
 * YAML, so a new one cannot be skipped), sent as written: each is accepted (2xx) and its answer
 * validates against the operation's schema. Only what must name a record made first is replaced
 * (SUBSTITUTIONS, checked against what is sent), and the clock of each group starts before the
 * examples' dates instead of moving them. Where a request schema disagrees with the examples, the
 * example wins: REQUEST_CORRECTIONS (test/helpers/api-pix-schemas.ts) lists each correction.
 */

type Method = 'PUT' | 'POST' | 'PATCH'
/** `METHOD path example`, as `POST /rec recBody1`. */
type ExampleKey = string

interface RequestExample { key: ExampleKey, requestBody: string, example: string }

/** The request body examples of the YAML, one per operation and example it names. */
function requestExamples (): RequestExample[] {
  const found: RequestExample[] = []
  for (const [path, operations] of Object.entries(bacenAsWritten.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const ref = operation.requestBody?.$ref
      if (ref === undefined) continue
      const requestBody = ref.slice('#/components/requestBodies/'.length)
      for (const media of Object.values(bacenAsWritten.components.requestBodies[requestBody].content)) {
        for (const { $ref } of Object.values(media.examples ?? {})) {
          const example = $ref.slice('#/components/examples/'.length)
          found.push({ key: `${method.toUpperCase()} ${path} ${example}`, requestBody, example })
        }
      }
    }
  }
  return found
}

/**
 * What is replaced in an example before it is sent, by JSON path, and why: ids that must name a
 * record this test made first. Nothing else of an example changes.
 */
const SUBSTITUTIONS: Record<ExampleKey, Record<string, string>> = {
  'PATCH /cob/{txid} cobBody3': { 'loc.id': 'the charge\'s own location (a revision keeps it: docs/api-pix.md, cob)' },
  'PUT /cobv/{txid} cobBody1': { 'loc.id': 'a location of tipoCob cobv made first' },
  'PATCH /cobv/{txid} cobBody7': { 'loc.id': 'the charge\'s own location, cobBody1\'s' },
  'PUT /lotecobv/{id} loteCobVBody1': { 'cobsv.0.loc.id': 'a location of tipoCob cobv made first', 'cobsv.1.loc.id': 'another one' },
  'POST /rec recBody1': { loc: 'a location of recurrence made first (POST /locrec)' },
  'PATCH /rec/{idRec} recBody3': { loc: 'the location recBody1 took' },
  'POST /solicrec solicRecBody1': { idRec: 'recBody2\'s recurrence, made first' },
  'PUT /cobr/{txid} cobRBody1': { idRec: 'an APROVADA recurrence made first, of variable value, due dates including 2024-04-15' },
  'POST /cobr cobRBody1': { idRec: 'the same recurrence (PATCH cobRBody2 cancelled the first charge of its cycle)' },
}

/** The examples no request sends, and why. */
const SAQUE = 'Pix Saque: valor.original 0.00 beside valor.retirada.saque; the sandbox models no withdrawal (docs/api-pix.md, cob), and a charge of 0.00 is refused'
const NOT_SENT: Record<ExampleKey, string> = {
  'PUT /cob/{txid} cobBody6': SAQUE,
  'POST /cob cobBody6': SAQUE,
  'PUT /cob/{txid} cobBody8': SAQUE,
  'POST /cob cobBody8': SAQUE,
}

/**
 * Where each group's clock starts instead of moving the examples' dates (their own dates are sent):
 * the immediate charges' examples have none, so the tests' T0.
 */
const CLOCK_STARTS = {
  cobv: ['2019-12-02T12:00:00-03:00', 'before the dates of cobBody1 (due 2020-12-31, a discount until 2020-11-30) and of the batches (due 2020-12-31, revised to 2020-01-10)'],
  pixAutomatico: ['2023-12-20T12:00:00-03:00', 'the day solicRecBody1 expires (2023-12-20T12:17:11.926Z), before recBody1 starts (2024-04-01) and cobRBody1 is due (2024-04-15)'],
} as const

/** The JSON paths where `sent` differs from `example` (leaves: values, members added or missing). */
function differences (example: unknown, sent: unknown, at = ''): string[] {
  if (example !== null && sent !== null && typeof example === 'object' && typeof sent === 'object') {
    const keys = new Set([...Object.keys(example), ...Object.keys(sent)])
    return [...keys].flatMap(k => differences((example as Record<string, unknown>)[k], (sent as Record<string, unknown>)[k], at === '' ? k : `${at}.${k}`))
  }
  return Object.is(example, sent) ? [] : [at]
}

const sent = new Set<ExampleKey>()

/** Sends an example (with its listed substitutions) to `url`; checks it is accepted and its answer valid. */
async function send (t: Test, call: ReturnType<typeof apiPixClient>, method: Method, path: string, url: string, name: string, substitute: Record<string, unknown> = {}): Promise<LightMyRequestResponse> {
  const key = `${method} ${path} ${name}`
  const example = examples[name].value as Record<string, unknown>
  const body = substituted(example, substitute)
  t.same(differences(example, body).sort(), Object.keys(SUBSTITUTIONS[key] ?? {}).sort(), `${key}: only the listed substitutions`)
  const res = await call(method, url, body)
  const ok = res.statusCode >= 200 && res.statusCode < 300
  t.ok(ok, `${key}: accepted${ok ? '' : `, not ${res.statusCode} ${res.body}`}`)
  checkAnswer(t, res, method, path)
  sent.add(key)
  return res
}

/** `example` with the values at the given JSON paths replaced. */
function substituted (example: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(example)
  for (const [path, value] of Object.entries(values)) {
    const parts = path.split('.')
    let node = copy as Record<string, unknown>
    for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>
    node[parts.at(-1)!] = value
  }
  return copy
}

async function setup (t: Test, clock?: keyof typeof CLOCK_STARTS): Promise<{ app: FastifyInstance, call: ReturnType<typeof apiPixClient>, accountId: number }> {
  const app = await buildTestApp(t, clock === undefined ? {} : { clockStart: CLOCK_STARTS[clock][0] })
  const acc = await newAccount(app, { name: 'EMPRESA DE SERVICOS SA', balance: 0, ...NO_MTLS_CHECK })
  return { app, call: apiPixClient(app, await oauthToken(app, acc)), accountId: acc.accountId }
}

t.test('cob, loc, webhook and devolução: the examples are accepted as written', async t => {
  const { app, call, accountId } = await setup(t)
  const txid = (n: number) => `cobexemplo${n}abcdefghijklmnopqrstu`
  let n = 0
  for (const name of ['cobBody2', 'cobBody9']) {
    await send(t, call, 'PUT', '/cob/{txid}', `/v2/cob/${txid(++n)}`, name)
    await send(t, call, 'POST', '/cob', '/v2/cob', name)
  }
  // The examples not sent are refused as their reason says (an answer that changes means the list must).
  for (const name of ['cobBody6', 'cobBody8']) {
    for (const res of [await call('PUT', `/v2/cob/${txid(9)}`, examples[name].value), await call('POST', '/v2/cob', examples[name].value)]) {
      t.match(res.json(), { status: 400, violacoes: [{ razao: /^valor.original/ }] }, `${name} is a charge of 0.00`)
    }
  }
  await send(t, call, 'POST', '/loc', '/v2/loc', 'payloadLocationBody1')
  const { loc } = (await call('GET', `/v2/cob/${txid(1)}`)).json()
  await send(t, call, 'PATCH', '/cob/{txid}', `/v2/cob/${txid(1)}`, 'cobBody3', { 'loc.id': loc.id })
  await send(t, call, 'PATCH', '/cob/{txid}', `/v2/cob/${txid(1)}`, 'cobBody4')
  await send(t, call, 'PATCH', '/cob/{txid}', `/v2/cob/${txid(2)}`, 'cobBody5')

  // The examples' key, held by the account in the directory (a webhook is of the account's own keys).
  const key = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906'
  const { document, ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${accountId}` })).json()
  t.equal((await app.inject({ method: 'PUT', url: `/__sandbox/directory/${key}`, payload: { name: 'EMPRESA', document, ispb, bankName: 'SANDBOX' } })).statusCode, 201)
  await send(t, call, 'PUT', '/webhook/{chave}', `/v2/webhook/${key}`, 'webhookBody1')

  const cob = (await call('GET', `/v2/cob/${txid(1)}`)).json()
  // cobBody2's charge lets the payer choose the amount (modalidadeAlteracao 1).
  const paid = await payCode(app, cob.pixCopiaECola, { amount: 567.89 })
  t.equal(paid.statusCode, 201, paid.body)
  const e2eid = paid.json().endToEndId as string
  await send(t, call, 'PUT', '/pix/{e2eid}/devolucao/{id}', `/v2/pix/${e2eid}/devolucao/exemplo1`, 'devolucaoSolicitada1')
})

t.test('cobv and lotecobv: the examples are accepted as written, the clock before their 2020 dates', async t => {
  const { app, call } = await setup(t, 'cobv')
  const loc = async () => (await call('POST', '/v2/loc', { tipoCob: 'cobv' })).json().id as number
  const txid = 'cobvexemplo1abcdefghijklmnopqrstu'
  const created = await send(t, call, 'PUT', '/cobv/{txid}', `/v2/cobv/${txid}`, 'cobBody1', { 'loc.id': await loc() })
  await send(t, call, 'PATCH', '/cobv/{txid}', `/v2/cobv/${txid}`, 'cobBody7', { 'loc.id': created.json().loc.id })
  await send(t, call, 'PATCH', '/cobv/{txid}', `/v2/cobv/${txid}`, 'cobBody4')
  await send(t, call, 'PATCH', '/cobv/{txid}', `/v2/cobv/${txid}`, 'cobBody5')

  await send(t, call, 'PUT', '/lotecobv/{id}', '/v2/lotecobv/1', 'loteCobVBody1', { 'cobsv.0.loc.id': await loc(), 'cobsv.1.loc.id': await loc() })
  await advance(app, 1000)
  const batch = (await call('GET', '/v2/lotecobv/1')).json()
  t.same(batch.cobsv.map((c: { status: string }) => c.status), ['CRIADA', 'CRIADA'], JSON.stringify(batch))
  await send(t, call, 'PATCH', '/lotecobv/{id}', '/v2/lotecobv/1', 'loteCobVBodyRevisado1')
  await advance(app, 1000)
  const revised = (await call('GET', '/v2/lotecobv/1')).json()
  t.same(revised.cobsv.map((c: { status: string }) => c.status), ['CRIADA', 'CRIADA'], JSON.stringify(revised))
})

t.test('Pix Automático: the examples are accepted as written, the clock before their 2024 dates', async t => {
  const { app, call } = await setup(t, 'pixAutomatico')
  await send(t, call, 'PUT', '/webhookrec', '/v2/webhookrec', 'recWebhookBody1')
  await send(t, call, 'PUT', '/webhookcobr', '/v2/webhookcobr', 'cobRWebhookBody1')

  const locrec = (await call('POST', '/v2/locrec')).json().id as number
  const rec1 = (await send(t, call, 'POST', '/rec', '/v2/rec', 'recBody1', { loc: locrec })).json().idRec as string
  const rec2 = (await send(t, call, 'POST', '/rec', '/v2/rec', 'recBody2')).json().idRec as string
  await send(t, call, 'PATCH', '/rec/{idRec}', `/v2/rec/${rec1}`, 'recBody3', { loc: locrec })

  const solicrec = (await send(t, call, 'POST', '/solicrec', '/v2/solicrec', 'solicRecBody1', { idRec: rec2 })).json().idSolicRec as string
  await send(t, call, 'PATCH', '/solicrec/{idSolicRec}', `/v2/solicrec/${solicrec}`, 'solicRecBody2')

  const created = await call('POST', '/v2/rec', {
    vinculo: { contrato: '63100862', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' } },
    calendario: { dataInicial: '2024-04-15', periodicidade: 'MENSAL' },
    valor: {},
    politicaRetentativa: 'PERMITE_3R_7D',
  })
  t.equal(created.statusCode, 201, created.body)
  const idRec = created.json().idRec as string
  const approved = await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/approve`, payload: { pagador: { ispbParticipante: '60701190', cpf: '45164632481' } } })
  t.equal(approved.statusCode, 200, approved.body)
  const txid = 'cobrexemplo1abcdefghijklmnopqrstu'
  await send(t, call, 'PUT', '/cobr/{txid}', `/v2/cobr/${txid}`, 'cobRBody1', { idRec })
  await send(t, call, 'PATCH', '/cobr/{txid}', `/v2/cobr/${txid}`, 'cobRBody2')
  await send(t, call, 'POST', '/cobr', '/v2/cobr', 'cobRBody1', { idRec })
})

t.test('every request body example of the YAML is sent above, or listed as not sent with its reason', async t => {
  const all = requestExamples().map(e => e.key)
  t.same(all.filter(k => !sent.has(k) && NOT_SENT[k] === undefined), [], 'neither sent nor listed')
  t.same([...sent].filter(k => !all.includes(k)), [], 'sent, and an example of the YAML')
  t.same(Object.keys(NOT_SENT).filter(k => sent.has(k) || !all.includes(k)), [], 'listed as not sent, and not sent')
  t.same(Object.keys(SUBSTITUTIONS).filter(k => !sent.has(k)), [], 'each substitution is of an example sent')
})

t.test('each example validates against its request schema once corrected, and each correction is needed', async t => {
  const all = requestExamples()
  const failing = (components: unknown): string[] => {
    const validator = requestValidator(components)
    return [...new Set(all.filter(e => !validator(e.requestBody)(examples[e.example].value)).map(e => e.example))].sort()
  }
  t.same(failing(correctedForRequests()), [], 'every example, corrected')
  for (const { correction, examples: needing } of REQUEST_CORRECTIONS) {
    const others = REQUEST_CORRECTIONS.map(c => c.correction).filter(c => c !== correction)
    t.same(failing(correctedForRequests(others)), [...needing].sort(), `without "${correction}", exactly its examples fail`)
  }
})
