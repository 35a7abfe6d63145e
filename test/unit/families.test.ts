import t from 'tap'
import type { FastifyRequest } from 'fastify'
import { Clock } from '../../server/engine/clock.js'
import { Scheduler } from '../../server/engine/scheduler.js'
import { createRng } from '../../server/domain/ids.js'
import { httpReason, OUTCOMES, reportedCode, targetPath, unroutedPath } from '../../server/errors/families.js'
import { answerOf, errorBody, errorShapeOf, FAMILIES, familyOf, statusOf } from '../helpers/errors.js'
import { Refusal, type Code } from '../../server/errors/refusal.js'
import { loadFixtures } from '../../server/fixtures.js'
import { DirectoryService } from '../../server/services/directory.js'
import { PayoutService } from '../../server/services/payouts.js'
import { Store } from '../../server/store/store.js'
import { accountRecord } from './services/harness.js'

const T0 = Date.parse('2026-03-10T15:00:00.000Z')
const codes = Object.keys(OUTCOMES) as Code[]

t.test('every outcome answers in at least one family, with an error status the handler can name', async t => {
  for (const code of codes) {
    const families = FAMILIES.filter(f => statusOf(code, f) !== undefined)
    t.ok(families.length > 0, `${code} answers in some family`)
    for (const f of families) {
      const status = statusOf(code, f)!
      t.ok(status >= 400 && status < 600 && httpReason[status] !== undefined, `${code} in ${f}: ${status}`)
    }
  }
})

t.test('where the families answer one outcome differently, the table says so', async t => {
  const row = (code: Code) => Object.fromEntries(FAMILIES.flatMap(f => statusOf(code, f) === undefined ? [] : [[f, statusOf(code, f)]]))
  // API Pix's devolução answers each as PixDevolucaoInvalida (docs/api-pix.md, devolução), and so does
  // Efí's devolução of a split PIX (docs/efi.md, Split); Efí's pay-outs answer it 400 saldo_insuficiente (docs/efi.md, Errors).
  t.same(row('PIX_INSUFFICIENT_BALANCE'), { standard: 400, 'central-bank': 422, 'api-pix': 400, efi: 400 })
  t.same(row('REFUND_DEADLINE_EXCEEDED'), { standard: 400, 'central-bank': 422, 'api-pix': 400, efi: 400 })
  t.same(row('KEY_NOT_FOUND'), { 'central-bank': 422, sandbox: 404 })
  t.same(row('REFUND_NOT_ALLOWED'), { standard: 400, sandbox: 409 })
  // One refusal, two statuses in one family: the cash-out by QR code's is an outcome of its own on the same wire code.
  t.equal(statusOf('PIX_DUPLICATE_EXTERNAL_ID', 'standard'), 400)
  t.equal(statusOf('QRCODE_DUPLICATE_EXTERNAL_ID', 'standard'), 409)
  t.equal(reportedCode('QRCODE_DUPLICATE_EXTERNAL_ID'), 'PIX_DUPLICATE_EXTERNAL_ID')
  for (const code of ['INVALID_REQUEST', 'INVALID_CREDENTIALS', 'CERTIFICATE_NOT_LINKED', 'ROUTE_NOT_FOUND', 'BODY_TOO_LARGE', 'URI_TOO_LONG', 'UNSUPPORTED_MEDIA_TYPE'] as const) {
    t.equal(reportedCode(code), 'HTTP_ERROR', `${code} is a generic HTTP_ERROR on the wire`)
  }
})

t.test('the family of a path, and the shape its errors take', async t => {
  t.same(['/api/pix/cash-out', '/balance', '/cob/abc', '/dict/pix', '/__sandbox/accounts', '/nowhere', '/api/auth/token'].map(p => familyOf(p)),
    ['standard', 'standard', 'central-bank', 'central-bank', 'sandbox', 'central-bank', 'standard'])
  // docs/gateway.md §7: the token, a route of the standard family, answers in the simple shape.
  t.equal(errorShapeOf('/api/auth/token'), 'simple')
  t.equal(errorShapeOf('/api/pix/cash-out?x=1'), 'extended')
})

t.test('API Pix: its base path (whatever it is set to), its token and its payload locations are its family; the token answers as OAuth 2.0', async t => {
  for (const [path, base, family] of [
    ['/v2/cob/abc', '/v2', 'api-pix'], ['/v2', '/v2', 'api-pix'], ['/v2x/cob', '/v2', 'central-bank'], ['/pix/v2/cob', '/pix/v2', 'api-pix'],
    ['/pix/e2e', '/pix/v2', 'central-bank'], ['/api/v2/loc', '/api/v2', 'api-pix'], ['/api/pix/cash-out', '/api/v2', 'standard'],
    ['/oauth/token', undefined, 'api-pix'], ['/qr/v2/abc', undefined, 'api-pix'], ['/.well-known/jwks.json', undefined, 'api-pix'], ['/v2/cob', undefined, 'central-bank'],
  ] as const) {
    t.equal(familyOf(path, base), family, `${path} under ${base}`)
  }
  t.equal(errorShapeOf('/oauth/token', '/v2'), 'oauth')
  t.equal(errorShapeOf('/v2/cob?x=1', '/v2'), 'problem')
  // BACEN's general statuses, and the API Pix rows where the table differs from the gateway's.
  t.equal(statusOf('ACCESS_DENIED', 'api-pix'), 403)
  t.equal(statusOf('COB_TXID_EXISTS', 'api-pix'), 400)
  t.equal(statusOf('CERTIFICATE_NOT_LINKED', 'api-pix'), 401)
  t.equal(statusOf('PAYLOAD_GONE', 'api-pix'), 410)
})

const apiPixRequest = (url: string, config: Record<string, unknown> = {}) => ({ url, routeOptions: { config }, method: 'PUT', server: { sandbox: { clock: { now: () => T0 }, config: { apiPixBasePath: '/v2' } } } }) as unknown as FastifyRequest

t.test('API Pix answers problem details: the type its route names for the status, else the general one; invalid fields as violacoes', async t => {
  const route = { apiPix: { problems: { 400: 'CobOperacaoInvalida', 404: 'CobNaoEncontrado' }, entity: 'cob' } }
  const notFound = answerOf(new Refusal('NOT_FOUND', 'Cobrança não encontrada'), 'api-pix')
  t.same(errorBody(notFound, apiPixRequest('/v2/cob/x', route)), { type: 'https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado', title: 'Cobrança não encontrada', status: 404, detail: 'Cobrança não encontrada' })
  // Without a route of its own (an unknown path under the base), the general type.
  t.match(errorBody(answerOf(new Refusal('ROUTE_NOT_FOUND', 'Rota não encontrada'), 'api-pix'), apiPixRequest('/v2/nowhere')), { type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', status: 404 })
  // A validation error of the body: one violation per field, named as BACEN does (cob.valor.original).
  const invalid = Object.assign(new Error('invalid'), {
    validation: [
      { keyword: 'required', instancePath: '', params: { missingProperty: 'chave' } },
      { keyword: 'type', instancePath: '/valor/original', params: { type: 'string' } },
    ],
    validationContext: 'body',
  })
  const body = errorBody(answerOf(invalid, 'api-pix'), apiPixRequest('/v2/cob/x', route))
  t.match(body, { type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', status: 400 })
  t.same(body.violacoes, [
    { razao: 'chave é obrigatório', propriedade: 'cob.chave' },
    { razao: 'valor.original deve ser do tipo texto', propriedade: 'cob.valor.original' },
  ])
  // A refusal of the service lists its reasons, without a property it does not know.
  t.same(errorBody(answerOf(new Refusal('INVALID_REQUEST', ['a', 'b']), 'api-pix'), apiPixRequest('/v2/cob/x', route)).violacoes, [{ razao: 'a' }, { razao: 'b' }])
  t.same(errorBody(answerOf(new Refusal('ACCESS_DENIED', 'Escopo cob.write ausente'), 'api-pix'), apiPixRequest('/v2/cob/x', route)),
    { type: 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado', title: 'Acesso negado', status: 403, detail: 'Escopo cob.write ausente' })
})

t.test('API Pix\'s token answers errors as RFC 6749 section 5.2 says', async t => {
  const request = apiPixRequest('/oauth/token', {})
  t.same(errorBody(answerOf(new Refusal('INVALID_CREDENTIALS', 'Credenciais inválidas'), 'api-pix'), request), { error: 'invalid_client', error_description: 'Credenciais inválidas' })
  t.same(errorBody(answerOf(new Refusal('UNSUPPORTED_GRANT_TYPE', 'x'), 'api-pix'), request).error, 'unsupported_grant_type')
  t.same(errorBody(answerOf(new Refusal('INVALID_SCOPE', 'x'), 'api-pix'), request).error, 'invalid_scope')
  t.same(errorBody(answerOf(new Refusal('INVALID_REQUEST', 'x'), 'api-pix'), request).error, 'invalid_request')
  t.same(errorBody(answerOf(new Refusal('STORAGE_UNAVAILABLE', 'x'), 'api-pix'), request).error, 'temporarily_unavailable')
})

t.test('the path of a request target: no query, no scheme and host; read as the router reads it when no route matched', async t => {
  for (const [target, path] of [['/balance', '/balance'], ['/balance?x=1', '/balance'], ['http://x/balance', '/balance'], ['HTTPS://x:8443/api/pix/cash-out?a=b', '/api/pix/cash-out'], ['http://x', '/'], ['http://x?y=/z', '/'], ['//balance', '//balance'], ['/%62alance', '/%62alance']]) {
    t.equal(targetPath(target), path, target)
  }
  for (const [target, path] of [['/%62alance', '/balance'], ['//balance', '/balance'], ['http://x//__sandbox//nowhere', '/__sandbox/nowhere'], ['/%5f_sandbox/x?y', '/__sandbox/x'], ['/a%2Fb', '/a%2Fb'], ['/bad%ZZ', '/bad%ZZ']]) {
    t.equal(unroutedPath(target), path, target)
  }
})

const requestTo = (url: string) => ({ url, routeOptions: {}, method: 'POST', server: { sandbox: { clock: { now: () => T0 } } } }) as unknown as FastifyRequest
const bodyOf = (err: unknown, url: string) => {
  const request = requestTo(url)
  const answer = answerOf(err, familyOf(url))
  return { status: answer.status, body: errorBody(answer, request) }
}

t.test('each family answers one refusal in its own shape', async t => {
  const refusal = new Refusal('REFUND_DEADLINE_EXCEEDED', 'O prazo expirou', { en: 'The deadline passed', details: { days: 89 } })
  const standard = bodyOf(refusal, '/api/pix/refund-in/x')
  t.equal(standard.status, 400)
  t.same(Object.keys(standard.body).sort(), ['code', 'details', 'errorCode', 'errorId', 'message', 'method', 'path', 'statusCode', 'timestamp', 'userMessage'])
  t.match(standard.body, { statusCode: 400, code: 'REFUND_DEADLINE_EXCEEDED', errorCode: 'REFUND_DEADLINE_EXCEEDED', message: 'O prazo expirou', path: '/pix/refund-in/x', timestamp: new Date(T0).toISOString() })
  t.same(bodyOf(refusal, '/pix/e2e/devolucao/d1'), { status: 422, body: { statusCode: 422, message: 'O prazo expirou', error: 'Unprocessable Entity' } })

  const generic = bodyOf(new Refusal('TRANSACTION_NOT_FOUND', 'Transação não encontrada', { en: 'Transaction not found' }), '/api/pix/refund-in/x')
  t.match(generic.body, { statusCode: 404, code: 'HTTP_ERROR', error: 'Not Found', message: 'Transação não encontrada' })
  t.notOk('errorCode' in generic.body, 'a generic error has no errorCode')
  t.same(bodyOf(new Refusal('TRANSACTION_NOT_FOUND', 'Transação não encontrada', { en: 'Transaction not found' }), '/__sandbox/transactions/x'),
    { status: 404, body: { statusCode: 404, message: 'Transaction not found', error: 'Not Found', code: 'TRANSACTION_NOT_FOUND' } })

  // Invalid input lists one message per field in the extended shape, one sentence elsewhere.
  const invalid = new Refusal('INVALID_REQUEST', ['a é obrigatório', 'b é obrigatório'])
  t.match(bodyOf(invalid, '/api/pix/cash-out').body, { statusCode: 400, code: 'HTTP_ERROR', error: 'Bad Request', message: ['a é obrigatório', 'b é obrigatório'] })
  t.same(bodyOf(invalid, '/api/auth/token'), { status: 400, body: { statusCode: 400, message: 'a é obrigatório; b é obrigatório', error: 'Bad Request' } })
})

t.test('a refusal that reaches a family without a status there is answered as an internal error, and flagged', async t => {
  const answer = answerOf(new Refusal('MED_NOT_FOUND', 'MED 1 not found'), 'standard')
  t.match(answer, { status: 500, code: 'INTERNAL_ERROR', unexpected: true })
  t.match(answerOf(new Error('boom'), 'sandbox'), { status: 500, code: 'INTERNAL_ERROR', unexpected: true })
  t.match(answerOf(new Refusal('MED_NOT_FOUND', 'MED 1 not found'), 'sandbox'), { status: 404, code: 'MED_NOT_FOUND', unexpected: false })
})

t.test('a service refuses with a code and no status: the family of the route picks it', async t => {
  const clock = new Clock(() => T0)
  clock.freeze()
  const store = new Store()
  await store.open()
  const scheduler = new Scheduler({ clock, runJob: run => { store.unit(run) } })
  t.teardown(() => scheduler.close())
  const service = new PayoutService({
    store,
    clock,
    scheduler,
    rng: createRng('unit'),
    fixtures: loadFixtures(),
    events: { emit: () => {} },
    config: { settlementDelayMs: 50, alphanumericCnpj: 'disabled' },
    charges: { chargeForCode: () => undefined, arrive: () => { throw new Error('not reached') } },
    directory: new DirectoryService({ store, rng: createRng('unit') }).holders,
  })
  // The harness's account record, with what these tests set differently.
  const account = accountRecord(1, {
    name: 'LOJA',
    bankName: 'B',
    clientId: 'c',
    limits: { perTransactionCents: 100_000, dailyCents: 150_000, nightlyCents: 100_000 },
    balance: { availableCents: 1_000, blockedCents: 0 },
    totals: { openingCents: 1_000, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
  })
  store.transact(() => {
    store.addAccount(account)
    store.put('directory', { key: 'joao@example.com', keyType: 'EMAIL', name: 'JOAO', document: '52998224725', ispb: '60701190', bankName: 'ITAU' })
  })
  const refusalOf = (fn: () => unknown): Refusal => {
    try {
      fn()
    } catch (err) {
      if (err instanceof Refusal) return err
      throw err
    }
    throw new Error('no refusal')
  }
  const cashOut = refusalOf(() => service.createCashOut(store.account(1)!, {
    value: 50, externalId: 'e1', details: { key: 'joao@example.com', keyType: 'EMAIL', name: 'JOAO', document: '52998224725' },
  }, []))
  t.equal(cashOut.code, 'PIX_INSUFFICIENT_BALANCE')
  t.notOk('statusCode' in cashOut, 'the refusal carries no HTTP status')
  t.equal(answerOf(cashOut, 'standard').status, 400)
  t.equal(answerOf(cashOut, 'central-bank').status, 422)
  // The directory transfer refuses with the same outcome; before, the service picked INSUFFICIENT_BALANCE for its family.
  const dict = refusalOf(() => service.createDictTransfer(store.account(1)!, { pixKey: 'joao@example.com', idempotencyKey: 'k1', payment: { currency: 'BRL', amount: 50 } }, []))
  t.equal(dict.code, 'PIX_INSUFFICIENT_BALANCE')
  t.equal(answerOf(dict, 'central-bank').status, 422)
  t.equal(store.account(1)!.balance.availableCents, 1_000, 'nothing was reserved')
})

t.test("a client error of Fastify's own that no code names keeps Fastify's status, as a generic error", async t => {
  t.match(answerOf(Object.assign(new Error('Method not allowed here'), { statusCode: 405 }), 'standard'), { status: 405, code: 'HTTP_ERROR', generic: true, messages: ['Method not allowed here'], unexpected: false })
  t.match(answerOf(Object.assign(new Error(''), { statusCode: 405 }), 'sandbox'), { status: 405, messages: ['Method Not Allowed'] })
  t.match(answerOf(Object.assign(new SyntaxError('Unexpected token'), { statusCode: 400 }), 'central-bank'), { status: 400, code: 'HTTP_ERROR', messages: ['O corpo da requisição não é um JSON válido'] })
})
