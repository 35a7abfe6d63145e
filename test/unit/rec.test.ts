import t from 'tap'
import fc from 'fast-check'
import {
  ativacaoAprovada, formatRecId, isRecId, jornadaDoQR, parseRecTerms, recIdPolitica, recValueRule, reviseRecTerms,
  REC_STATUSES, type RecStatus, type RecTerms, type Violacao
} from '../../server/domain/rec.js'
import { correctedForRequests, examples, schemaValidator } from '../helpers/api-pix-schemas.js'

// Pix Automático's recurrences (server/domain/rec.ts): the terms of POST /rec and PATCH /rec/{idRec},
// checked in the words of API Pix 2.9.0's RecOperacaoInvalida list.

/**
 * RecSolicitada and RecRevisada validators, the schemas corrected where they disagree with API Pix's own
 * request examples (REQUEST_CORRECTIONS, test/helpers/api-pix-schemas.ts: one list, each correction
 * checked in test/routes/api-pix-request-examples.test.ts).
 */
const schemas = () => schemaValidator(correctedForRequests())

function accepted (body: unknown, criacao = '2024-01-01', convenioAceito?: (c: string) => boolean): RecTerms {
  const result = parseRecTerms(body, { criacao, convenioAceito })
  if (!result.ok) throw new Error(JSON.stringify(result.violacoes))
  return result.terms
}

function refused (body: unknown, criacao = '2024-01-01', convenioAceito?: (c: string) => boolean): Violacao[] {
  const result = parseRecTerms(body, { criacao, convenioAceito })
  if (result.ok) throw new Error('accepted')
  return result.violacoes
}

const razoes = (v: Violacao[]): string[] => v.map(x => x.razao)

const BODY = {
  vinculo: { contrato: '63100862', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' }, objeto: 'Serviço de Streamming de Música.' },
  calendario: { dataInicial: '2024-04-01', dataFinal: '2025-04-01', periodicidade: 'MENSAL' },
  valor: { valorRec: '35.00' },
  politicaRetentativa: 'NAO_PERMITE',
}

t.test('the YAML\'s request examples are accepted as written, and match their schemas corrected', async t => {
  // recBody1 is created before 2024-04-01 (recPayload1 of the same contract is CRIADA on 2024-03-20).
  t.same(accepted(examples.recBody1.value, '2024-03-20'), {
    vinculo: { objeto: 'Serviço de Streamming de Música.', contrato: '63100862', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' } },
    calendario: { dataInicial: '2024-04-01', dataFinal: '2025-04-01', periodicidade: 'MENSAL' },
    valor: { valorRec: '35.00' },
    politicaRetentativa: 'NAO_PERMITE',
    loc: 108,
    ativacao: { dadosJornada: { txid: '33beb661beda44a8928fef47dbeb2dc5' } },
  })
  // recBody2: open-ended (no dataFinal), a floor for the payer's maximum (recResponse2 is CRIADA on 2024-01-11).
  t.same(accepted(examples.recBody2.value, '2024-01-11'), {
    vinculo: { objeto: 'Serviço de Plano de Saúde.', contrato: '998782003', devedor: { cpf: '02989131415', nome: 'Beltrano da Silva' } },
    calendario: { dataInicial: '2024-10-10', periodicidade: 'ANUAL' },
    valor: { valorMinimoRecebedor: '5000.00' },
    politicaRetentativa: 'PERMITE_3R_7D',
  })
  // recBody3 revises recBody1's recurrence while CRIADA.
  const current = accepted(examples.recBody1.value, '2024-03-20')
  t.same(reviseRecTerms(current, examples.recBody3.value, { status: 'CRIADA', criacao: '2024-03-20' }), { ok: true, terms: current, cancelar: false })

  const corrected = schemas()
  for (const [schema, example] of [['RecSolicitada', 'recBody1'], ['RecSolicitada', 'recBody2'], ['RecRevisada', 'recBody3']]) {
    t.ok(corrected(schema)(examples[example].value), `${example} passes ${schema} corrected`)
  }
})

t.test('each violation of POST /rec, in the YAML\'s words', async t => {
  const v = (patch: Record<string, unknown>, criacao = '2024-01-01') => razoes(refused({ ...BODY, ...patch }, criacao))
  const vinculo = ['O objeto rec.vinculo não respeita o _schema_: deve ter contrato (texto de até 35 caracteres), objeto opcional (até 35) e devedor com nome (até 140) e cpf (11 dígitos) ou cnpj (14 dígitos ou letras maiúsculas), não os dois.']
  t.same(v({ vinculo: undefined }), vinculo)
  t.same(v({ vinculo: { ...BODY.vinculo, contrato: undefined } }), vinculo, 'contrato is required')
  t.same(v({ vinculo: { ...BODY.vinculo, contrato: 'x'.repeat(36) } }), vinculo, 'contrato <= 35')
  t.same(v({ vinculo: { ...BODY.vinculo, objeto: 'x'.repeat(36) } }), vinculo, 'objeto <= 35')
  t.same(v({ vinculo: { ...BODY.vinculo, devedor: { cpf: '4516463248', nome: 'F' } } }), vinculo, 'a CPF of 10 digits')
  t.same(v({ vinculo: { ...BODY.vinculo, devedor: { cpf: '45164632481', cnpj: '12345678000195', nome: 'F' } } }), vinculo, 'both documents: oneOf')
  t.same(v({ vinculo: { ...BODY.vinculo, devedor: { cnpj: '12abc678000195', nome: 'F' } } }), vinculo, 'a CNPJ in lower case')
  t.same(v({ vinculo: { ...BODY.vinculo, devedor: { cpf: '45164632481', nome: 'x'.repeat(141) } } }), vinculo, 'nome <= 140')
  t.same(accepted({ ...BODY, vinculo: { contrato: 'c', devedor: { cnpj: '12ABC34501DE35', nome: 'Empresa' } } }).vinculo,
    { contrato: 'c', devedor: { cnpj: '12ABC34501DE35', nome: 'Empresa' } }, 'an alphanumeric CNPJ; objeto is optional')

  t.same(v({}, '2024-04-02'), ['O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.'])
  t.same(accepted(BODY, '2024-04-01').calendario.dataInicial, '2024-04-01', 'on the creation date itself')
  t.same(v({ calendario: { ...BODY.calendario, dataFinal: '2024-03-31' } }), ['O campo rec.calendario.dataFinal é anterior ao campo rec.calendario.dataInicial.'])
  t.same(accepted({ ...BODY, calendario: { ...BODY.calendario, dataFinal: '2024-04-01' } }).calendario.dataFinal, '2024-04-01', 'a term of one day')
  t.same(v({ calendario: { ...BODY.calendario, periodicidade: 'QUINZENAL' } }), ['O campo rec.calendario.periodicidade não respeita o _schema_: deve ser um de: SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL, ANUAL.'])
  t.same(v({ calendario: { dataInicial: '2024-02-30', periodicidade: 'MENSAL' } }), ['O campo rec.calendario.dataInicial não respeita o _schema_: deve ser uma data AAAA-MM-DD que exista, como "2026-03-10".'])
  t.same(v({ calendario: null }), ['O objeto rec.calendario não respeita o _schema_: deve ser um objeto com dataInicial, periodicidade e, opcionalmente, dataFinal.'])

  t.same(v({ valor: [] }), ['O objeto rec.valor não respeita o _schema_: deve ser um objeto com valorRec ou valorMinimoRecebedor.'])
  t.same(v({ valor: { valorRec: '35' } }), ['O campo rec.valor.valorRec não respeita o _schema_: deve ser um valor maior que zero, com 2 casas decimais e até 10 dígitos antes do ponto, como "10.00".'])
  t.same(v({ valor: { valorRec: '0.00' } }), ['O campo rec.valor.valorRec não respeita o _schema_: deve ser um valor maior que zero, com 2 casas decimais e até 10 dígitos antes do ponto, como "10.00".'], 'a fixed value of zero')
  t.same(v({ valor: { valorMinimoRecebedor: 50 } }), ['O campo rec.valor.valorMinimoRecebedor não respeita o _schema_: deve ser um valor com 2 casas decimais e até 10 dígitos antes do ponto, como "10.00".'])
  t.same(v({ valor: { valorRec: '35.00', valorMinimoRecebedor: '10.00' } }), ['Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão preenchidos.'])
  t.same(accepted({ ...BODY, valor: undefined }).valor, {}, 'no valor: a free value')
  t.same(accepted({ ...BODY, valor: {} }).valor, {})

  t.same(v({ recebedor: { convenio: 'x'.repeat(61) } }), ['O objeto rec.recebedor não respeita o _schema_: deve ser um objeto; convenio, quando presente, um texto de até 60 caracteres.'])
  t.same(v({ politicaRetentativa: undefined }), ['O campo rec.politicaRetentativa não respeita o _schema_: deve ser um de: NAO_PERMITE, PERMITE_3R_7D.'], 'required')
  t.same(v({ politicaRetentativa: 'PERMITE' }), ['O campo rec.politicaRetentativa não respeita o _schema_: deve ser um de: NAO_PERMITE, PERMITE_3R_7D.'])
  t.same(razoes(refused({ ...BODY, recebedor: { convenio: 'Outro' } }, '2024-01-01', c => c === 'Master')), ['O valor do campo rec.recebedor.convenio não é aceito pelo PSP Recebedor.'])
  t.same(accepted({ ...BODY, recebedor: { convenio: 'Master' } }, '2024-01-01', c => c === 'Master').recebedor, { convenio: 'Master' })
  t.same(v({ loc: 0 }), ['O campo rec.loc não respeita o _schema_: deve ser o id de uma location, um número inteiro positivo.'])
  t.same(v({ loc: '108' }), ['O campo rec.loc não respeita o _schema_: deve ser o id de uma location, um número inteiro positivo.'])
  t.same(v({ ativacao: { dadosJornada: { txid: 'curto' } } }), ['O objeto rec.ativacao não respeita o _schema_: deve ser um objeto, vazio ou com dadosJornada.txid (26 a 35 letras e dígitos).'])
  t.same(v({ ativacao: { dadosJornada: {} } }), ['O objeto rec.ativacao não respeita o _schema_: deve ser um objeto, vazio ou com dadosJornada.txid (26 a 35 letras e dígitos).'], 'dadosJornada requires txid')
  t.notOk('ativacao' in accepted({ ...BODY, ativacao: {} }), 'an empty ativacao says nothing')
  t.same(razoes(refused('x')), ['O objeto rec não respeita o _schema_: deve ser um objeto JSON.'])
})

t.test('every violation is reported, in the order of the YAML\'s list, the convenio last', async t => {
  const out = refused({
    vinculo: {},
    calendario: { dataInicial: '2023-12-31', dataFinal: '2023-12-30', periodicidade: 'DIARIA' },
    valor: { valorRec: 'x', valorMinimoRecebedor: '1.00' },
    recebedor: { convenio: 'Outro' },
    politicaRetentativa: null,
    loc: -1,
  }, '2024-01-01', () => false)
  t.same(out.map(x => x.propriedade), [
    'rec.vinculo', 'rec.calendario.dataInicial', 'rec.calendario.dataFinal', 'rec.calendario.periodicidade',
    'rec.valor.valorRec', 'rec.valor', 'rec.politicaRetentativa', 'rec.loc', 'rec.recebedor.convenio',
  ])
})

t.test('a revision (PATCH /rec/{idRec}) follows the status of the recurrence', async t => {
  const current = accepted(examples.recBody1.value, '2024-03-20')
  const revise = (body: unknown, status: RecStatus) => reviseRecTerms(current, body, { status, criacao: '2024-03-20' })
  const violations = (body: unknown, status: RecStatus): string[] => {
    const r = revise(body, status)
    return r.ok ? [] : razoes(r.violacoes)
  }
  t.same(revise(examples.recBody3.value, 'APROVADA'), { ok: true, terms: current, cancelar: false }, 'unchanged loc, dataInicial and txid are no change')
  t.match(revise({ vinculo: { devedor: { nome: 'Fulano T.' } } }, 'APROVADA'), { ok: true, terms: { vinculo: { devedor: { cpf: '45164632481', nome: 'Fulano T.' } } } }, 'the debtor\'s name, any time')
  t.same(violations({ loc: 109 }, 'APROVADA'), ['O campo rec.loc somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.'])
  t.match(revise({ loc: 109 }, 'CRIADA'), { ok: true, terms: { loc: 109 } })
  t.same(violations({ calendario: { dataInicial: '2024-05-01' } }, 'APROVADA'), ['O campo rec.calendario.dataInicial somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.'])
  t.match(revise({ calendario: { dataInicial: '2024-05-01' } }, 'CRIADA'), { ok: true, terms: { calendario: { dataInicial: '2024-05-01', dataFinal: '2025-04-01', periodicidade: 'MENSAL' } } })
  t.same(violations({ calendario: { dataInicial: '2024-03-19' } }, 'CRIADA'), ['O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.'])
  t.same(violations({ calendario: { dataInicial: '2025-04-02' } }, 'CRIADA'), ['O campo rec.calendario.dataFinal é anterior ao campo rec.calendario.dataInicial.'], 'past the current dataFinal')
  for (const status of ['EXPIRADA', 'CANCELADA', 'REJEITADA'] as const) {
    t.same(violations({ vinculo: { devedor: { nome: 'X' } } }, status), ['A recorrência encontra-se expirada, cancelada ou rejeitada.'], status)
  }
  const txid = { ativacao: { dadosJornada: { txid: 'a'.repeat(32) } } }
  t.same(violations(txid, 'REJEITADA'), ['A recorrência encontra-se expirada, cancelada ou rejeitada.', 'O campo rec.dadosJornada.txid não pode ser alterado quando a recorrência apresentar-se com o status REJEITADA ou CANCELADA.'])
  t.match(revise(txid, 'APROVADA'), { ok: true, terms: { ativacao: { dadosJornada: { txid: 'a'.repeat(32) } } } })
  t.same(revise(examples.solicRecBody2.value, 'APROVADA'), { ok: true, terms: current, cancelar: true }, 'status CANCELADA asks for a cancellation')
  t.same(violations({ status: 'APROVADA' }, 'CRIADA'), ['O campo rec.status não respeita o _schema_: só aceita CANCELADA.'])
  t.same(violations({ vinculo: { devedor: {} } }, 'CRIADA'), ['O objeto rec.vinculo não respeita o _schema_: deve ser um objeto; devedor, quando presente, com nome (texto de até 140 caracteres).'], 'a devedor without nome')
  t.same(revise({}, 'CRIADA'), { ok: true, terms: current, cancelar: false }, 'nothing to revise')
  t.same(revise({ vinculo: { contrato: 'outro' } }, 'CRIADA'), { ok: true, terms: current, cancelar: false }, 'members RecRevisada lacks are ignored')
})

t.test('the value rule, in cents', async t => {
  t.same(recValueRule({ valorRec: '35.00' }), { kind: 'FIXO', cents: 3500 })
  t.same(recValueRule({ valorMinimoRecebedor: '5000.00' }), { kind: 'MINIMO', cents: 500000 })
  t.same(recValueRule({}), { kind: 'LIVRE' })
  t.throws(() => recValueRule({ valorRec: '35' }), RangeError)
})

t.test('idRec: R, R or N by the policy, the agent, the date, a sequence; the YAML\'s examples against their policy', async t => {
  t.equal(formatRecId({ politicaRetentativa: 'PERMITE_3R_7D', agente: '12345678', criacao: '2024-01-15', sequencial: 'abcdefghijk' }), 'RR1234567820240115abcdefghijk', 'RecId\'s own example')
  t.equal(formatRecId({ politicaRetentativa: 'NAO_PERMITE', agente: '12345678', criacao: '2024-01-15', sequencial: '77825445612' }), 'RN123456782024011577825445612')
  t.throws(() => formatRecId({ politicaRetentativa: 'NAO_PERMITE', agente: '1234567', criacao: '2024-01-15', sequencial: '77825445612' }), RangeError)
  t.throws(() => formatRecId({ politicaRetentativa: 'NAO_PERMITE', agente: '12345678', criacao: '2024-02-30', sequencial: '77825445612' }), RangeError)
  t.ok(isRecId('RR1234567820240115abcdefghijk'))
  t.notOk(isRecId('RR1234567820240115abcdefghij'))
  t.equal(recIdPolitica('SC876456782024021577825445312'), null)
  // Every example that has both an idRec starting with R and a politicaRetentativa.
  const mismatched: string[] = []
  for (const [name, { value }] of Object.entries(examples)) {
    const { idRec, politicaRetentativa } = value as { idRec?: string, politicaRetentativa?: string }
    if (idRec === undefined || politicaRetentativa === undefined) continue
    if (recIdPolitica(idRec) !== politicaRetentativa) mismatched.push(name)
  }
  t.same(mismatched, ['recResponse8'], 'recResponse8 is RR (retries allowed) with NAO_PERMITE: a defect of the example')
})

t.test('ativacao: the journey that approved, txid kept for JORNADA_3 only; the journey of a QR code', async t => {
  t.same(ativacaoAprovada('JORNADA_1'), { tipoJornada: 'JORNADA_1' })
  t.same(ativacaoAprovada('JORNADA_2', 'a'.repeat(32)), { tipoJornada: 'JORNADA_2' }, 'removed for journeys 1, 2 and 4')
  t.same(ativacaoAprovada('JORNADA_3', 'a'.repeat(32)), { tipoJornada: 'JORNADA_3', dadosJornada: { txid: 'a'.repeat(32) } })
  t.throws(() => ativacaoAprovada('JORNADA_3'), RangeError)
  t.same([jornadaDoQR(), jornadaDoQR('cob'), jornadaDoQR('cobv')], ['JORNADA_2', 'JORNADA_3', 'JORNADA_4'])
})

// --- properties ----------------------------------------------------------------------------------

const date = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2040, 0, 1) }).map(ms => new Date(ms).toISOString().slice(0, 10))
const decimal = fc.integer({ min: 1, max: 99_999_999 }).map(c => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`)
const validBody = fc.record({
  inicio: date,
  dias: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
  periodicidade: fc.constantFrom('SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'),
  valor: fc.oneof(fc.constant({}), decimal.map(valorRec => ({ valorRec })), decimal.map(valorMinimoRecebedor => ({ valorMinimoRecebedor }))),
  politicaRetentativa: fc.constantFrom('NAO_PERMITE', 'PERMITE_3R_7D'),
  devedor: fc.oneof(fc.stringMatching(/^\d{11}$/).map(cpf => ({ cpf, nome: 'Fulano' })), fc.stringMatching(/^[0-9A-Z]{14}$/).map(cnpj => ({ cnpj, nome: 'Empresa' }))),
  contrato: fc.string({ maxLength: 35 }),
  loc: fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: undefined }),
}).map(x => ({
  vinculo: { contrato: x.contrato, devedor: x.devedor },
  calendario: { dataInicial: x.inicio, ...(x.dias === undefined ? {} : { dataFinal: new Date(Date.parse(x.inicio) + x.dias * 86_400_000).toISOString().slice(0, 10) }), periodicidade: x.periodicidade },
  valor: x.valor,
  politicaRetentativa: x.politicaRetentativa,
  ...(x.loc === undefined ? {} : { loc: x.loc }),
}))

t.test('accepted terms are what was sent, and match RecSolicitada (corrected)', async t => {
  const valid = schemas()('RecSolicitada')
  fc.assert(fc.property(validBody, body => {
    const terms = accepted(body, '2024-01-01')
    return JSON.stringify(terms) === JSON.stringify(body) && valid(terms)
  }), { numRuns: 1000 })
})

t.test('any JSON is answered, never thrown at: accepted, or violations each naming a rec property', async t => {
  const anyMember = fc.oneof(fc.jsonValue(), fc.constant(undefined))
  const body = fc.oneof(fc.jsonValue(), validBody.chain(b => fc.record({
    vinculo: fc.oneof(fc.constant(b.vinculo), anyMember),
    calendario: fc.oneof(fc.constant(b.calendario), fc.record({ dataInicial: anyMember, dataFinal: anyMember, periodicidade: anyMember }), anyMember),
    valor: fc.oneof(fc.constant(b.valor), fc.record({ valorRec: anyMember, valorMinimoRecebedor: anyMember })),
    politicaRetentativa: fc.oneof(fc.constant(b.politicaRetentativa), anyMember),
    recebedor: anyMember,
    loc: anyMember,
    ativacao: fc.oneof(anyMember, fc.record({ dadosJornada: fc.oneof(anyMember, fc.record({ txid: anyMember })) })),
  })))
  fc.assert(fc.property(body, fc.constantFrom(...REC_STATUSES), (b, status) => {
    const created = parseRecTerms(b, { criacao: '2024-06-01' })
    const current = accepted(BODY, '2024-01-01')
    const revised = reviseRecTerms(current, b, { status, criacao: '2024-01-01' })
    return [created, revised].every(r => r.ok
      ? r.terms.calendario.dataInicial >= '2024-01-01'
      : r.violacoes.length > 0 && r.violacoes.every(x => x.propriedade.startsWith('rec') && x.razao.length > 0))
  }), { numRuns: 3000 })
})
