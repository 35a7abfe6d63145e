import t from 'tap'
import fc from 'fast-check'
import {
  checkSolicRecForRec, formatSolicRecId, parseSolicRecRequest, parseSolicRecRevision,
  SOLICREC_STATUSES, type SolicRecRequest, type Violacao
} from '../../server/domain/solicrec.js'
import { examples, schemaValidator } from '../helpers/api-pix-schemas.js'
import { CORRECTIONS, loadBacen } from '../helpers/bacen.js'

// Journey 1's confirmation requests (server/domain/solicrec.ts): POST /solicrec and its cancellation,
// checked in the words of API Pix 2.9.0's SolicRecOperacaoInvalida list.

/** Where SolicRecSolicitada disagrees with API Pix's own request example, the example wins (REQUEST_CORRECTIONS, test/helpers/api-pix-schemas.ts; the answers' validator, test/helpers/bacen.ts, corrects it too). */
function asWritten (): (name: string) => (x: unknown) => boolean {
  const components = structuredClone(loadBacen().doc.components) as { schemas: Record<string, { required: string[] }> }
  components.schemas.SolicRecBase.required.push('pagador')
  return schemaValidator(components)
}

function accepted (body: unknown, criacao = '2023-12-20'): SolicRecRequest {
  const result = parseSolicRecRequest(body, { criacao })
  if (!result.ok) throw new Error(JSON.stringify(result.violacoes))
  return result.request
}

function refused (body: unknown, criacao = '2023-12-20'): string[] {
  const result = parseSolicRecRequest(body, { criacao })
  if (result.ok) throw new Error('accepted')
  return result.violacoes.map((v: Violacao) => v.razao)
}

const BODY = examples.solicRecBody1.value

t.test('the YAML\'s request example is accepted as written; the schema needs its correction for it', async t => {
  // solicRecResponse1: created at 2023-12-20T12:18:18.618Z, a minute after its own dataExpiracaoSolicitacao.
  t.same(accepted(BODY, '2023-12-20'), {
    idRec: 'RN123456782024011577825445612',
    calendario: { dataExpiracaoSolicitacao: '2023-12-20T12:17:11.926Z' },
    destinatario: { conta: '550689', ispbParticipante: '91193552', agencia: '2569', cpf: '15231470190' },
    expiraEm: Date.UTC(2023, 11, 20, 12, 17, 11, 926),
  }, 'compared as São Paulo dates, the expiry is not before the creation')
  t.ok((CORRECTIONS as readonly string[]).includes('SolicRecBase.required: pagador dropped'))
  t.notOk(asWritten()('SolicRecSolicitada')(BODY), 'SolicRecBase requires pagador, a property it never defines')
  t.ok(schemaValidator(loadBacen().doc.components)('SolicRecSolicitada')(BODY), 'corrected')
})

t.test('each violation of POST /solicrec, in the YAML\'s words', async t => {
  const calendario = ['O objeto solicrec.calendario não respeita o _schema_: deve ser um objeto com dataExpiracaoSolicitacao, uma data-hora RFC 3339 com fuso, como "2026-03-10T12:00:00Z".']
  t.same(refused({ ...BODY, calendario: undefined }), calendario)
  t.same(refused({ ...BODY, calendario: { dataExpiracaoSolicitacao: '2023-12-20' } }), calendario, 'a date-time, not a date')
  t.same(refused({ ...BODY, calendario: { dataExpiracaoSolicitacao: '2023-12-20T12:17:11' } }), calendario, 'RFC 3339 has an offset')
  t.same(refused({ ...BODY, calendario: { dataExpiracaoSolicitacao: '2023-12-20T02:59:59Z' } }), ['O campo solicrec.calendario.dataExpiracaoSolicitacao é anterior à data de criação da solicitação da recorrência.'],
    '23:59:59 of the 19th in São Paulo')
  t.same(accepted({ ...BODY, calendario: { dataExpiracaoSolicitacao: '2023-12-20T03:00:00.000Z' } }).expiraEm, Date.UTC(2023, 11, 20, 3), 'the first instant of the 20th in São Paulo')
  const destinatario = ['O objeto solicrec.destinatario não respeita o _schema_: deve ter conta (texto de até 20 caracteres), ispbParticipante (8 dígitos ou letras maiúsculas), agencia opcional (até 4) e cpf (11 dígitos) ou cnpj (14 dígitos ou letras maiúsculas), não os dois.']
  const d = BODY.destinatario as Record<string, unknown>
  t.same(refused({ ...BODY, destinatario: { ...d, ispbParticipante: '9119355' } }), destinatario)
  t.same(refused({ ...BODY, destinatario: { ...d, conta: undefined } }), destinatario, 'conta is required')
  t.same(refused({ ...BODY, destinatario: { ...d, agencia: '25690' } }), destinatario, 'agencia <= 4')
  t.same(refused({ ...BODY, destinatario: { ...d, cpf: undefined } }), destinatario, 'a CPF or a CNPJ')
  t.same(refused({ ...BODY, destinatario: { ...d, cnpj: '12345678000195' } }), destinatario, 'not both')
  t.same(accepted({ ...BODY, destinatario: { conta: '1', ispbParticipante: '0000000A', cnpj: '12ABC34501DE35' } }).destinatario, { conta: '1', ispbParticipante: '0000000A', cnpj: '12ABC34501DE35' })
  t.same(refused({ ...BODY, idRec: 'RN12345678' }), ['O campo solicrec.idRec não respeita o _schema_: deve ser um idRec, 29 letras e dígitos.'])
  t.same(refused(null), ['O objeto solicrec não respeita o _schema_: deve ser um objeto JSON.'])
  t.same(refused({}), ['O campo solicrec.idRec não respeita o _schema_: deve ser um idRec, 29 letras e dígitos.', ...calendario, ...destinatario], 'every violation')
})

t.test('one active request per recurrence', async t => {
  for (const status of SOLICREC_STATUSES) {
    const active = status === 'CRIADA' || status === 'ENVIADA' || status === 'RECEBIDA'
    t.same(checkSolicRecForRec('RN123456782024011577825445612', ['EXPIRADA', status]).map(v => v.razao),
      active ? ['Existe uma solicitação ativa referente ao mesmo solicrec.idRec.'] : [], status)
  }
})

t.test('cancellation: only CRIADA, ENVIADA or RECEBIDA, the YAML\'s list over its example\'s "CRIADA ou RECEBIDA"', async t => {
  for (const status of SOLICREC_STATUSES) {
    const result = parseSolicRecRevision(examples.solicRecBody2.value, status)
    if (['CRIADA', 'ENVIADA', 'RECEBIDA'].includes(status)) t.same(result, { ok: true }, status)
    else t.same(result, { ok: false, violacoes: [{ razao: 'Não é possível cancelar uma solicitação de recorrência com o status diferente de CRIADA, ENVIADA ou RECEBIDA.', propriedade: 'solicrec.status' }] }, status)
  }
  t.match(parseSolicRecRevision({ status: 'ACEITA' }, 'CRIADA'), { ok: false, violacoes: [{ razao: 'O campo solicrec.status não respeita o _schema_: só aceita CANCELADA.', valor: 'ACEITA' }] })
  t.match(parseSolicRecRevision({}, 'CRIADA'), { ok: false, violacoes: [{ propriedade: 'solicrec.status' }] }, 'status is required')
  t.match(parseSolicRecRevision([], 'CRIADA'), { ok: false })
})

t.test('idSolicRec: SC, the agent, the date, a sequence', async t => {
  t.equal(formatSolicRecId({ agente: '87645678', criacao: '2024-02-15', sequencial: '77825445312' }), 'SC876456782024021577825445312', 'solicRecResponse1\'s id')
  t.throws(() => formatSolicRecId({ agente: '87645678', criacao: '2024-02-15', sequencial: '7782544531' }), RangeError)
})

t.test('any JSON is answered, never thrown at; accepted requests match SolicRecSolicitada (corrected)', async t => {
  const valid = schemaValidator(loadBacen().doc.components)('SolicRecSolicitada')
  const member = fc.oneof(fc.jsonValue(), fc.constant(undefined))
  const body = fc.oneof(fc.jsonValue(), fc.record({
    idRec: fc.oneof(member, fc.constant(BODY.idRec)),
    calendario: fc.oneof(member, fc.record({ dataExpiracaoSolicitacao: fc.oneof(member, fc.date({ min: new Date('2023-01-01'), max: new Date('2025-01-01'), noInvalidDate: true }).map(x => x.toISOString())) })),
    destinatario: fc.oneof(member, fc.constant(BODY.destinatario), fc.record({ conta: member, ispbParticipante: member, agencia: member, cpf: member, cnpj: member })),
  }))
  fc.assert(fc.property(body, b => {
    const result = parseSolicRecRequest(b, { criacao: '2024-01-01' })
    if (!result.ok) return result.violacoes.length > 0 && result.violacoes.every(v => v.propriedade.startsWith('solicrec'))
    const { expiraEm, ...request } = result.request
    return valid(request) && new Date(expiraEm - 3 * 3_600_000).toISOString().slice(0, 10) >= '2024-01-01'
  }), { numRuns: 3000 })
})
