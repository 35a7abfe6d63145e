import t from 'tap'
import fc from 'fast-check'
import { addCalendarDays, businessDayOnOrAfter, dateOfDayNumber, dayNumber, isBusinessDay } from '../../server/domain/business-days.js'
import {
  checkCobRAgainstRec, checkRetentativa, cobrAfterAttempt, cobrCancellable, cobrInstructionDate, cobrRetryWindow, cobrSettlementDate,
  cobrValorFits, COBR_REJEICAO_CODIGOS, COBR_STATUSES, pagadorMaximoValido, parseCobRRequest, parseCobRRevision, REJEICOES_QUE_ENCERRAM_A_COBR,
  type CobRRequest, type CobRRetryContext, type RecForCobR, type CobRStatus, type TentativaResumo, type Violacao
} from '../../server/domain/cobr.js'
import type { RecCalendario } from '../../server/domain/rec.js'
import { recNextDueDate } from '../../server/domain/rec-schedule.js'
import { bacenAsWritten, examples, schemaValidator } from '../helpers/api-pix-schemas.js'
import { CORRECTIONS, loadBacen } from '../helpers/bacen.js'

// Pix Automático's recurring charges (server/domain/cobr.ts): the request, the checks against its
// recurrence, cancellation, settlement date, retries and expiry.

/** The schemas with the reference's defects corrected (test/helpers/bacen.ts, CORRECTIONS). */
function corrected (): (name: string) => (x: unknown) => boolean {
  return schemaValidator(loadBacen().doc.components)
}

function accepted (body: unknown, criacao = '2024-04-01'): CobRRequest {
  const result = parseCobRRequest(body, { criacao })
  if (!result.ok) throw new Error(JSON.stringify(result.violacoes))
  return result.request
}

function refused (body: unknown, criacao = '2024-04-01'): string[] {
  const result = parseCobRRequest(body, { criacao })
  if (result.ok) throw new Error('accepted')
  return result.violacoes.map((v: Violacao) => v.razao)
}

const BODY = examples.cobRBody1.value
/** An approved monthly recurrence whose cycle holds cobRBody1's due date (15 April 2024), free value. */
const MONTHLY: RecCalendario = { dataInicial: '2024-04-15', periodicidade: 'MENSAL', dataFinal: '2025-04-15' }
const APPROVED: RecForCobR = { status: 'APROVADA', calendario: MONTHLY, valor: {} }

t.test('the YAML\'s request examples are accepted as written; the schema needs its correction for them', async t => {
  // cobRResponse1 shows cobRBody1 created on 2024-04-01.
  const request = accepted(BODY, '2024-04-01')
  t.same(request, {
    idRec: 'RR1234567820240115abcdefghijk',
    infoAdicional: 'Serviços de Streamming de Música e Filmes.',
    calendario: { dataDeVencimento: '2024-04-15' },
    valor: { original: '106.07' },
    ajusteDiaUtil: true,
    recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' },
    devedor: { email: 'sebastiao.tavares@mail.com', logradouro: 'Alameda Franco 1056', cidade: 'Uberlândia', uf: 'MG', cep: '89256-140' },
  })
  t.same(checkCobRAgainstRec(request, APPROVED, [], { hoje: '2024-04-01' }), [], '14 days ahead: accepted, sent to the payer\'s PSP 10 days before')
  t.equal(cobrInstructionDate('2024-04-15', '2024-04-01'), '2024-04-05')
  t.ok(CORRECTIONS.includes('DadosComplementaresPessoa.cep: maxLength 8 -> 9'))
  t.notOk(schemaValidator(bacenAsWritten.components)('CobRSolicitada')(BODY), 'cep "89256-140" is 9 characters, above maxLength 8')
  t.ok(corrected()('CobRSolicitada')(BODY))
  t.same(parseCobRRevision(examples.cobRBody2.value, { status: 'ATIVA', dataDeVencimento: '2024-04-15', ajusteDiaUtil: true }, { hoje: '2024-04-14' }), { ok: true, cancelar: true }, 'cobRBody2 cancels')
  // cobRBody1's idRec is recResponse2's, an ANUAL recurrence from 2024-10-10 still CRIADA: the examples do not agree with each other.
  const recResponse2 = examples.recResponse2.value as { status: 'CRIADA', calendario: RecCalendario, valor: { valorMinimoRecebedor: string } }
  t.same(checkCobRAgainstRec(request, recResponse2, [], { hoje: '2024-04-01' }).map(v => v.propriedade), ['cobr.idRec', 'cobr.calendario.dataDeVencimento'])
})

t.test('each violation of POST /cobr and PUT /cobr/{txid} the body alone shows, in the YAML\'s words', async t => {
  t.same(refused({ ...BODY, infoAdicional: 'x'.repeat(141) }), ['O campo cobr.infoAdicional não respeita o _schema_: deve ser um texto de até 140 caracteres.'])
  t.same(refused({ ...BODY, status: 'ATIVA' }), ['O campo cobr.status não respeita o _schema_: o status de uma cobrança é do PSP: a criação não o informa.'], 'the status is the PSP\'s')
  t.same(refused({ ...BODY, calendario: undefined }), ['O objeto cobr.calendario não respeita o _schema_: deve ser um objeto com dataDeVencimento, uma data AAAA-MM-DD que exista, como "2026-03-10".'])
  t.same(refused({ ...BODY, calendario: { dataDeVencimento: '2024-04-31' } }), ['O objeto cobr.calendario não respeita o _schema_: deve ser um objeto com dataDeVencimento, uma data AAAA-MM-DD que exista, como "2026-03-10".'])
  t.same(refused(BODY, '2024-04-16'), ['O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.'])
  t.same(refused({ ...BODY, valor: { original: '0.00' } }), ['O campo cobr.valor não respeita o _schema_: deve ser um objeto com original, um valor maior que zero com 2 casas decimais, como "10.00".'])
  t.same(refused({ ...BODY, valor: { original: 106.07 } }), ['O campo cobr.valor não respeita o _schema_: deve ser um objeto com original, um valor maior que zero com 2 casas decimais, como "10.00".'])
  t.same(refused({ ...BODY, valor: undefined }), ['O campo cobr.valor não respeita o _schema_: deve ser um objeto com original, um valor maior que zero com 2 casas decimais, como "10.00".'])
  const recebedor = ['O objeto cobr.recebedor não respeita o _schema_: deve ter conta (texto de até 20 caracteres), tipoConta (CORRENTE, POUPANCA, PAGAMENTO) e, opcionalmente, agencia (até 4).']
  t.same(refused({ ...BODY, recebedor: undefined }), recebedor, 'required')
  t.same(refused({ ...BODY, recebedor: { conta: '012682', tipoConta: 'POUPANÇA' } }), recebedor, 'POUPANCA, as the enum spells it (cobRResponse4 does not)')
  t.same(refused({ ...BODY, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '97080' } }), recebedor)
  t.same(refused({ ...BODY, devedor: { uf: 'MGS' } }), ['O objeto cobr.devedor não respeita o _schema_: deve ser um objeto de textos: email, logradouro (até 200 caracteres), cidade (até 200), uf (até 2), cep (até 9).'])
  t.same(refused({ ...BODY, devedor: { cep: '89256-1400' } }), ['O objeto cobr.devedor não respeita o _schema_: deve ser um objeto de textos: email, logradouro (até 200 caracteres), cidade (até 200), uf (até 2), cep (até 9).'])
  t.same(refused({ ...BODY, idRec: 'RR123' }), ['O campo cobr.idRec não respeita o _schema_: deve ser um idRec, 29 letras e dígitos.'])
  t.same(refused({ ...BODY, ajusteDiaUtil: 'sim' }), ['O campo cobr.ajusteDiaUtil não respeita o _schema_: deve ser true ou false.'])
  t.equal(accepted({ ...BODY, ajusteDiaUtil: undefined }).ajusteDiaUtil, true, 'CobRBase requires it and defaults it to true: read as optional, true')
  t.equal(accepted({ ...BODY, ajusteDiaUtil: false }).ajusteDiaUtil, false)
  t.notOk('devedor' in accepted({ ...BODY, devedor: undefined }))
  t.same(accepted({ ...BODY, devedor: { cpf: '1', nome: 'x' } }).devedor, {}, 'the debtor is the recurrence\'s: members the schema lacks are dropped')
  t.same(refused('x'), ['O objeto cobr não respeita o _schema_: deve ser um objeto JSON.'])
})

t.test('the checks against the recurrence: approved, in time, within the term, one per cycle, the fixed value', async t => {
  const request = accepted(BODY)
  const check = (over: Partial<RecForCobR>, outras: Array<{ status: CobRStatus, dataDeVencimento: string }> = [], hoje = '2024-04-01') =>
    checkCobRAgainstRec(request, { ...APPROVED, ...over }, outras, { hoje }).map(v => v.razao)
  for (const status of ['CRIADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const) {
    t.same(check({ status }), ['A recorrência referenciada por cobr.idRec não se encontra com o status APROVADA.'], status)
  }
  t.same(check({}, [], '2024-04-13'), [], '2 days ahead')
  t.same(check({}, [], '2024-04-14'), ['O campo cobr.calendario.dataDeVencimento está a menos de 2 dias corridos da data de criação da cobrança.'], '1 day ahead')
  t.same(check({}, [], '2024-04-15'), ['O campo cobr.calendario.dataDeVencimento está a menos de 2 dias corridos da data de criação da cobrança.'], 'the same day')
  t.same(check({}, [], '2024-02-01'), [], '74 days ahead: kept CRIADA until 10 days before')
  const term = ['O campo cobr.calendario.dataDeVencimento está fora da vigência da recorrência (rec.calendario.dataInicial a rec.calendario.dataFinal).']
  t.same(check({ calendario: { ...MONTHLY, dataInicial: '2024-04-16' } }), term, 'before dataInicial')
  t.same(check({ calendario: { ...MONTHLY, dataInicial: '2023-04-15', dataFinal: '2024-04-14' } }), term, 'after dataFinal')
  const cycle = ['Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.']
  for (const status of COBR_STATUSES) {
    const expected = status === 'REJEITADA' || status === 'CANCELADA' ? [] : cycle
    t.same(check({}, [{ status, dataDeVencimento: '2024-05-14' }]), expected, `another charge ${status} on the cycle's last day`)
  }
  t.same(check({}, [{ status: 'ATIVA', dataDeVencimento: '2024-05-15' }, { status: 'CONCLUIDA', dataDeVencimento: '2024-03-15' }]), [], 'the next cycle and before the term')
  t.same(check({ valor: { valorRec: '106.07' } }), [])
  t.same(check({ valor: { valorRec: '106.08' } }), ['O campo cobr.valor.original difere do valor fixo da recorrência (rec.valor.valorRec).'])
  t.same(check({ valor: { valorMinimoRecebedor: '500.00' } }), [], 'a floor for the payer\'s maximum, not for the charge')
})

t.test('the date of the first attempt, moved to a business day with ajusteDiaUtil; the instruction date', async t => {
  t.equal(cobrSettlementDate({ dataDeVencimento: '2024-06-01', ajusteDiaUtil: true }), '2024-06-03', 'a Saturday')
  t.equal(cobrSettlementDate({ dataDeVencimento: '2024-06-01', ajusteDiaUtil: false }), '2024-06-01')
  t.equal(cobrSettlementDate({ dataDeVencimento: '2024-11-15', ajusteDiaUtil: true }), '2024-11-18', 'a holiday on a Friday')
  t.equal(cobrSettlementDate({ dataDeVencimento: '2024-11-20', ajusteDiaUtil: true }), '2024-11-21', 'Consciência Negra, national from 2024')
  t.equal(cobrSettlementDate({ dataDeVencimento: '2024-04-15', ajusteDiaUtil: true }), '2024-04-15')
  t.equal(cobrInstructionDate('2024-04-15', '2024-04-10'), '2024-04-10', 'created 5 days ahead: sent on creation')
  t.equal(cobrInstructionDate('2024-04-15', '2024-03-01'), '2024-04-05')
})

t.test('cancellation (PATCH /cobr/{txid}) before the date of the first attempt', async t => {
  const saturday = { status: 'ATIVA' as const, dataDeVencimento: '2024-06-01', ajusteDiaUtil: true }
  const cancel = (cobr: typeof saturday | { status: CobRStatus, dataDeVencimento: string, ajusteDiaUtil: boolean }, hoje: string) => parseCobRRevision({ status: 'CANCELADA' }, cobr, { hoje })
  t.same(cancel(saturday, '2024-06-02'), { ok: true, cancelar: true }, 'the Sunday before a Monday first attempt')
  const late = examples.OperacaoInvalidaCobRExample2.value.detail
  t.same(cancel(saturday, '2024-06-03'), { ok: false, violacoes: [{ razao: late, propriedade: 'cobr.status' }] }, 'on the date: the YAML\'s own example of the refusal')
  t.same(cancel({ ...saturday, ajusteDiaUtil: false }, '2024-06-01'), { ok: false, violacoes: [{ razao: late, propriedade: 'cobr.status' }] })
  t.ok(cobrCancellable(saturday, '2024-06-02'))
  t.notOk(cobrCancellable(saturday, '2024-06-04'))
  for (const status of ['CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'] as const) {
    t.match(cancel({ ...saturday, status }, '2024-05-01'), { ok: false, violacoes: [{ razao: 'A cobrança encontra-se concluída, expirada, rejeitada ou cancelada.' }] }, status)
  }
  t.same(parseCobRRevision({}, saturday, { hoje: '2024-05-01' }), { ok: true, cancelar: false }, 'nothing to revise')
  t.match(parseCobRRevision({ status: 'ATIVA' }, saturday, { hoje: '2024-05-01' }), { ok: false, violacoes: [{ razao: 'O campo cobr.status não respeita o _schema_: só aceita CANCELADA.' }] })
})

/** A charge due on Monday 2024-06-03 of a monthly recurrence (next due date 2024-07-03), its first attempt expired. */
function retryContext (over: Partial<CobRRetryContext> & { tentativas?: TentativaResumo[] } = {}): CobRRetryContext {
  const { tentativas = [{ dataLiquidacao: '2024-06-03', tipo: 'AGND', status: 'EXPIRADA' }], ...rest } = over
  return {
    politicaRetentativa: 'PERMITE_3R_7D',
    recStatus: 'APROVADA',
    cobr: { status: 'ATIVA', dataDeVencimento: '2024-06-03', ajusteDiaUtil: true, tentativas },
    proximoVencimento: '2024-07-03',
    hoje: '2024-06-03',
    ...rest,
  }
}

t.test('retries (POST /cobr/{txid}/retentativa/{data}): the YAML\'s violations', async t => {
  const v = (data: string, ctx = retryContext()) => checkRetentativa(data, ctx).map(x => x.razao)
  t.same(v('2024-06-04'), [], 'the day after')
  t.same(v('2024-06-10'), [], '7 days after')
  t.same(v('2024-06-04', retryContext({ hoje: '2024-06-05' })), ['O parâmetro data não corresponde a uma data futura.'], 'the window\'s first day, but past')
  t.same(v('2024-06-03').length, 3, 'today, the first attempt\'s date: an attempt stands on it, not future, not in the window')
  t.same(v('2024-06-05', retryContext({ politicaRetentativa: 'NAO_PERMITE' })), [examples.RequisicaoInvalidaCobRTentativaExample1.value.detail as string], 'the YAML\'s own example of the refusal')
  const pending = ['Existe uma tentativa com status SOLICITADA ou AGENDADA.']
  for (const status of ['SOLICITADA', 'AGENDADA'] as const) {
    t.same(v('2024-06-06', retryContext({ tentativas: [{ dataLiquidacao: '2024-06-03', tipo: 'AGND', status: 'EXPIRADA' }, { dataLiquidacao: '2024-06-05', tipo: 'NTAG', status }] })), pending, status)
  }
  t.same(v('2024-06-06', retryContext({ cobr: { ...retryContext().cobr, status: 'CRIADA', tentativas: [] } })), pending, 'a charge not yet active waits for its first attempt')
  const twice = retryContext({ hoje: '2024-06-05', tentativas: [{ dataLiquidacao: '2024-06-03', tipo: 'AGND', status: 'EXPIRADA' }, { dataLiquidacao: '2024-06-05', tipo: 'NTAG', status: 'REJEITADA' }] })
  t.same(v('2024-06-05', twice), ['Existe uma tentativa vigente para a data informada.', 'O parâmetro data não corresponde a uma data futura.'])
  t.same(v('2024-06-06', twice), [])
  t.same(v('2024-06-06', retryContext({ cobr: { ...retryContext().cobr, status: 'CONCLUIDA' } })), ['A cobrança encontra-se concluída, expirada, rejeitada ou cancelada.'])
  t.same(v('06/06/2024'), ['O campo data não respeita o _schema_: deve ser uma data AAAA-MM-DD que exista, como "2026-03-10".'])
  // A recurrence that ended authorizes no retry: PATCH /rec's violation of an ended recurrence, in the YAML's words.
  for (const recStatus of ['CANCELADA', 'EXPIRADA', 'REJEITADA', null] as const) {
    t.same(v('2024-06-05', retryContext({ recStatus })), ['A recorrência encontra-se expirada, cancelada ou rejeitada.'], String(recStatus))
  }
  t.same(v('2024-06-05', retryContext({ recStatus: 'CANCELADA', cobr: { ...retryContext().cobr, status: 'CANCELADA' } })),
    ['A cobrança encontra-se concluída, expirada, rejeitada ou cancelada.', 'A recorrência encontra-se expirada, cancelada ou rejeitada.'], 'its charge cancelled with it')
  // cobRResponse3: a retry AGENDADA on 2024-06-24; another is refused while it stands.
  const { value } = examples.cobRResponse3
  const example = retryContext({ cobr: { status: 'ATIVA', dataDeVencimento: '2024-06-20', ajusteDiaUtil: true, tentativas: value.tentativas as TentativaResumo[] }, proximoVencimento: '2024-07-20', hoje: '2024-06-23' })
  t.same(v('2024-06-25', example), pending)
})

t.test('retries: at most 3, after the first attempt\'s date and within 7 days of the due date, before the next cycle', async t => {
  const v = (data: string, ctx = retryContext()) => checkRetentativa(data, ctx).map(x => x.razao)
  const window = ['O parâmetro data não está entre o dia seguinte à data prevista da primeira tentativa de liquidação e 7 dias corridos após a data de vencimento, antes do próximo ciclo da recorrência.']
  t.same(v('2024-06-11'), window, '8 days after')
  // Due on Saturday 1 June, first attempt on Monday 3 June (ajusteDiaUtil): the 7 days run from the due date.
  t.same(cobrRetryWindow({ dataDeVencimento: '2024-06-01', ajusteDiaUtil: true }, '2024-07-01'), { primeiroDia: '2024-06-04', ultimoDia: '2024-06-08' }, 'counted from the due date, not the moved first attempt')
  const saturday = retryContext({ cobr: { ...retryContext().cobr, dataDeVencimento: '2024-06-01' } })
  t.same(v('2024-06-08', saturday), [], '7 days after the due date')
  t.same(v('2024-06-09', saturday), window, '8 days after the due date, 6 after the first attempt')
  t.same(cobrAfterAttempt(saturday, { status: 'EXPIRADA' }), { status: 'ATIVA', retentativaAte: '2024-06-08' }, 'the charge waits until the window\'s last day')
  t.equal(cobrRetryWindow({ dataDeVencimento: '2024-02-10', ajusteDiaUtil: true }, null)?.ultimoDia, '2024-02-17', 'Carnival moves the first attempt to Wednesday 14 February; the window still ends on the 17th')
  t.same(cobrRetryWindow({ dataDeVencimento: '2024-06-03', ajusteDiaUtil: true }, '2024-06-10'), { primeiroDia: '2024-06-04', ultimoDia: '2024-06-09' }, 'weekly: the next due date ends it')
  t.same(v('2024-06-10', retryContext({ proximoVencimento: '2024-06-10' })), window)
  t.equal(cobrRetryWindow({ dataDeVencimento: '2024-06-01', ajusteDiaUtil: true }, '2024-06-04'), null, 'a moved settlement date reaching the next cycle leaves no retry')
  t.same(cobrRetryWindow({ dataDeVencimento: '2024-06-03', ajusteDiaUtil: true }, null), { primeiroDia: '2024-06-04', ultimoDia: '2024-06-10' }, 'no next due date')
  const three: TentativaResumo[] = [
    { dataLiquidacao: '2024-06-03', tipo: 'AGND', status: 'EXPIRADA' },
    { dataLiquidacao: '2024-06-04', tipo: 'NTAG', status: 'EXPIRADA' },
    { dataLiquidacao: '2024-06-05', tipo: 'RIFL', status: 'REJEITADA' },
    { dataLiquidacao: '2024-06-06', tipo: 'NTAG', status: 'CANCELADA' },
    { dataLiquidacao: '2024-06-07', tipo: 'NTAG', status: 'REJEITADA' },
  ]
  t.same(v('2024-06-09', retryContext({ hoje: '2024-06-08', tentativas: three })), [], 'two retries count: RIFL is no retry, a cancelled one is not spent')
  t.same(v('2024-06-10', retryContext({ hoje: '2024-06-09', tentativas: [...three, { dataLiquidacao: '2024-06-09', tipo: 'NTAG', status: 'EXPIRADA' }] })),
    ['A cobrança já recebeu as 3 retentativas que a política PERMITE_3R_7D permite.'])
})

t.test('what an attempt\'s end makes of its charge', async t => {
  t.same(cobrAfterAttempt(retryContext(), { status: 'PAGA' }), { status: 'CONCLUIDA' })
  const am09 = { codigo: 'AM09' as const, descricao: 'Valor incorreto' }
  t.same(cobrAfterAttempt(retryContext(), { status: 'REJEITADA', rejeicao: am09 }), { status: 'REJEITADA', rejeicao: am09 }, 'a code that rejects the charge')
  t.same(cobrAfterAttempt(retryContext(), { status: 'REJEITADA', rejeicao: { codigo: 'AM02', descricao: 'x' } }), { status: 'ATIVA', retentativaAte: '2024-06-10' }, 'a code that leaves room for a retry')
  t.same(cobrAfterAttempt(retryContext(), { status: 'EXPIRADA' }), { status: 'ATIVA', retentativaAte: '2024-06-10' })
  t.same(cobrAfterAttempt(retryContext({ politicaRetentativa: 'NAO_PERMITE' }), { status: 'EXPIRADA' }), { status: 'EXPIRADA' })
  t.same(cobrAfterAttempt(retryContext({ hoje: '2024-06-10' }), { status: 'EXPIRADA' }), { status: 'EXPIRADA' }, 'the window\'s last day: no future date left')
  t.same(cobrAfterAttempt(retryContext({ hoje: '2024-06-09' }), { status: 'EXPIRADA' }), { status: 'ATIVA', retentativaAte: '2024-06-10' })
  const spent: TentativaResumo[] = ['2024-06-03', '2024-06-04', '2024-06-05', '2024-06-06'].map((d, i) => ({ dataLiquidacao: d, tipo: i === 0 ? 'AGND' : 'NTAG', status: 'EXPIRADA' }))
  t.same(cobrAfterAttempt(retryContext({ hoje: '2024-06-06', tentativas: spent }), { status: 'EXPIRADA' }), { status: 'EXPIRADA' }, 'the third retry failed')
})

t.test('the rejection codes that end a charge are the ones line 7118 lists (DTED twice there)', async t => {
  const description = bacenAsWritten.components.schemas.CobRTentativas.properties.tentativas.items.properties.rejeicao.properties.codigo.description as string
  const listed = [...description.matchAll(/`([A-Z0-9]{4})`/g)].map(m => m[1])
  t.same(listed.filter(c => c === 'DTED').length, 2)
  t.same([...new Set(listed)].sort(), [...REJEICOES_QUE_ENCERRAM_A_COBR].sort())
  t.ok(REJEICOES_QUE_ENCERRAM_A_COBR.every(c => COBR_REJEICAO_CODIGOS.includes(c)))
})

t.test('a charge\'s value against the value rule and the payer\'s maximum', async t => {
  t.equal(cobrValorFits({ kind: 'FIXO', cents: 3500 }, 3500), 'OK')
  t.equal(cobrValorFits({ kind: 'FIXO', cents: 3500 }, 3499), 'DIFERENTE_DO_VALOR_FIXO')
  t.equal(cobrValorFits({ kind: 'MINIMO', cents: 500000 }, 100), 'OK', 'the floor is the maximum\'s, not the charge\'s')
  t.equal(cobrValorFits({ kind: 'MINIMO', cents: 500000 }, 600001, 600000), 'ACIMA_DO_MAXIMO_DO_PAGADOR')
  t.equal(cobrValorFits({ kind: 'LIVRE' }, 600000, 600000), 'OK')
  t.notOk(pagadorMaximoValido({ kind: 'FIXO', cents: 3500 }, 5000), 'no maximum on a fixed value')
  t.notOk(pagadorMaximoValido({ kind: 'MINIMO', cents: 500000 }, 499999))
  t.ok(pagadorMaximoValido({ kind: 'MINIMO', cents: 500000 }, 500000))
  t.ok(pagadorMaximoValido({ kind: 'LIVRE' }, 1))
  t.notOk(pagadorMaximoValido({ kind: 'LIVRE' }, 0))
})

// --- properties ----------------------------------------------------------------------------------

const FIRST = dayNumber('2020-01-01')
const LAST = dayNumber('2035-12-31')
const day = fc.integer({ min: FIRST, max: LAST }).map(dateOfDayNumber)
const periodicidade = fc.constantFrom('SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL' as const)

t.test('the settlement date is the due date, or with ajusteDiaUtil the first business day from it', async t => {
  fc.assert(fc.property(day, fc.boolean(), (dataDeVencimento, ajusteDiaUtil) => {
    const d = cobrSettlementDate({ dataDeVencimento, ajusteDiaUtil })
    return ajusteDiaUtil ? d === businessDayOnOrAfter(dataDeVencimento) && isBusinessDay(d) && d >= dataDeVencimento : d === dataDeVencimento
  }), { numRuns: 2000 })
})

t.test('an instruction is sent 10 to 2 days before the due date of any charge creation accepts', async t => {
  fc.assert(fc.property(day, fc.integer({ min: 0, max: 60 }), (hoje, ahead) => {
    const vencimento = addCalendarDays(hoje, ahead)
    const request = accepted({ ...BODY, calendario: { dataDeVencimento: vencimento } }, hoje)
    const refusedLate = checkCobRAgainstRec(request, { ...APPROVED, calendario: { dataInicial: '2020-01-01', periodicidade: 'SEMANAL' } }, [], { hoje }).length > 0
    if (ahead < 2) return refusedLate
    const sent = cobrInstructionDate(vencimento, hoje)
    return !refusedLate && sent >= hoje && sent >= addCalendarDays(vencimento, -10) && sent <= addCalendarDays(vencimento, -2)
  }), { numRuns: 2000 })
})

/** A charge of a recurrence, a history of attempts, today and a date to ask a retry for. */
const retryCase = fc.record({
  inicio: day,
  periodicidade,
  ciclo: fc.integer({ min: 0, max: 30 }),
  ajusteDiaUtil: fc.boolean(),
  politica: fc.constantFrom('NAO_PERMITE', 'PERMITE_3R_7D' as const),
  retries: fc.array(fc.record({ offset: fc.integer({ min: 1, max: 9 }), tipo: fc.constantFrom('NTAG', 'RIFL' as const), status: fc.constantFrom('PAGA', 'CANCELADA', 'REJEITADA', 'EXPIRADA', 'SOLICITADA', 'AGENDADA' as const) }), { maxLength: 5 }),
  hojeOffset: fc.integer({ min: -3, max: 12 }),
  dataOffset: fc.integer({ min: -3, max: 14 }),
}).map(x => {
  const calendario: RecCalendario = { dataInicial: x.inicio, periodicidade: x.periodicidade }
  const dataDeVencimento = x.periodicidade === 'SEMANAL' ? addCalendarDays(x.inicio, 7 * x.ciclo) : x.inicio
  const cobr = { dataDeVencimento, ajusteDiaUtil: x.ajusteDiaUtil }
  const settlement = cobrSettlementDate(cobr)
  const tentativas: TentativaResumo[] = [{ dataLiquidacao: settlement, tipo: 'AGND', status: 'EXPIRADA' },
    ...x.retries.map(r => ({ dataLiquidacao: addCalendarDays(settlement, r.offset), tipo: r.tipo, status: r.status }))]
  const context: CobRRetryContext = {
    politicaRetentativa: x.politica,
    recStatus: 'APROVADA',
    cobr: { ...cobr, status: 'ATIVA', tentativas },
    proximoVencimento: recNextDueDate(calendario, dataDeVencimento),
    hoje: addCalendarDays(settlement, x.hojeOffset),
  }
  return { context, data: addCalendarDays(settlement, x.dataOffset), settlement, dataDeVencimento }
})

t.test('a retry accepted is in the future, in the window, before the next cycle, on a free date, within 3', async t => {
  fc.assert(fc.property(retryCase, ({ context, data, settlement, dataDeVencimento }) => {
    if (checkRetentativa(data, context).length > 0) return true
    const { tentativas } = context.cobr
    return context.politicaRetentativa === 'PERMITE_3R_7D' && data > context.hoje &&
      data > settlement && data <= addCalendarDays(dataDeVencimento, 7) &&
      (context.proximoVencimento === null || data < context.proximoVencimento) &&
      tentativas.every(a => a.dataLiquidacao !== data || a.status === 'CANCELADA') &&
      tentativas.every(a => a.status !== 'SOLICITADA' && a.status !== 'AGENDADA') &&
      tentativas.filter(a => a.tipo === 'NTAG' && a.status !== 'CANCELADA').length < 3
  }), { numRuns: 5000 })
})

t.test('after a failed attempt the charge waits for a retry only while one can still be accepted', async t => {
  fc.assert(fc.property(retryCase, ({ context }) => {
    const settled = { ...context, cobr: { ...context.cobr, tentativas: context.cobr.tentativas.filter(a => a.status !== 'SOLICITADA' && a.status !== 'AGENDADA' && a.status !== 'PAGA') } }
    const after = cobrAfterAttempt(settled, { status: 'EXPIRADA' })
    if (after.status !== 'ATIVA') return after.status === 'EXPIRADA'
    // The window's last day is open to a retry asked for today, unless an attempt already stands on it.
    const last = checkRetentativa(after.retentativaAte, settled)
    return after.retentativaAte > context.hoje && last.every(v => v.razao === 'Existe uma tentativa vigente para a data informada.')
  }), { numRuns: 5000 })
})

t.test('any JSON is answered, never thrown at: accepted requests match CobRSolicitada (corrected)', async t => {
  const valid = corrected()('CobRSolicitada')
  const member = fc.oneof(fc.jsonValue(), fc.constant(undefined))
  const body = fc.oneof(fc.jsonValue(), fc.record({
    idRec: fc.oneof(member, fc.constant(BODY.idRec)),
    infoAdicional: member,
    status: fc.oneof(fc.constant(undefined), member),
    calendario: fc.oneof(member, fc.record({ dataDeVencimento: fc.oneof(member, day) })),
    valor: fc.oneof(member, fc.constant(BODY.valor), fc.record({ original: member })),
    ajusteDiaUtil: member,
    recebedor: fc.oneof(member, fc.constant(BODY.recebedor), fc.record({ conta: member, tipoConta: member, agencia: member })),
    devedor: fc.oneof(member, fc.constant(BODY.devedor), fc.record({ email: member, uf: member, cep: member })),
  }))
  fc.assert(fc.property(body, b => {
    const result = parseCobRRequest(b, { criacao: '2024-01-01' })
    if (!result.ok) return result.violacoes.length > 0 && result.violacoes.every(v => v.propriedade.startsWith('cobr'))
    return valid(result.request) && result.request.calendario.dataDeVencimento >= '2024-01-01'
  }), { numRuns: 3000 })
})

t.test('the YAML\'s defects in the answers of cobr, as written and corrected (test/helpers/bacen.ts, CORRECTIONS)', async t => {
  const asWritten = schemaValidator(bacenAsWritten.components)
  const corrected = schemaValidator(loadBacen({ dialect: 'api-pix' }).doc.components)
  // cobRResponse4's closing: a cancelamento matches both branches of the oneOf, neither requiring its property.
  const closed = { atualizacao: [{ status: 'CANCELADA', data: '2024-05-26T10:18:20.120Z' }], encerramento: examples.cobRResponse4.value.encerramento }
  t.notOk(asWritten('CobRAtualizacao')(closed))
  t.ok(corrected('CobRAtualizacao')(closed))
  t.notOk(corrected('CobRAtualizacao')({ ...closed, encerramento: { cancelamento: closed.encerramento.cancelamento, rejeicao: { codigo: 'AM02', descricao: 'x' } } }), 'both at once is still refused')
  t.ok(CORRECTIONS.includes('CobRAtualizacao.encerramento: each oneOf branch requires its property'))
  // A paid charge's PIX: `valor` a string that must also be one of five objects.
  const pix = { endToEndId: 'E12345678202406201221abcdef12345', txid: '3136957d93134f2184b369e8f1c0729d', valor: '106.07', horario: '2024-04-15T11:00:00.000Z' }
  t.notOk(asWritten('PixAutomatico')(pix))
  t.ok(corrected('PixAutomatico')(pix))
  t.notOk(corrected('PixAutomatico')({ ...pix, valor: '106.1' }), 'the pattern still holds')
  t.ok(CORRECTIONS.includes('PixAutomatico.valor: anyOf of objects dropped'))
})
