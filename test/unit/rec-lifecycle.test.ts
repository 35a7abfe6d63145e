import t from 'tap'
import fc from 'fast-check'
import { COBR_FINAL_STATUSES, COBR_STATUSES, TENTATIVA_FINAL_STATUSES, TENTATIVA_STATUSES } from '../../server/domain/cobr.js'
import { REC_FINAL_STATUSES, REC_STATUSES } from '../../server/domain/rec.js'
import {
  CANCELAMENTO, cancelamentoPorRecEncerrada, canMove, cobrsToCancelWithRec, COBR_LIFE, isFinal, moveCobR, moveRec, moveSolicRec, moveTentativa,
  recAfterSolicRec, REC_LIFE, SOLICREC_LIFE, TENTATIVA_LIFE, type Ator, type Life
} from '../../server/domain/rec-lifecycle.js'
import { SOLICREC_ACTIVE_STATUSES, SOLICREC_STATUSES } from '../../server/domain/solicrec.js'
import { examples } from '../helpers/api-pix-schemas.js'

// The lives of Pix Automático's records (server/domain/rec-lifecycle.ts): who may move a recurrence,
// a confirmation request, a recurring charge and an attempt from one status to the next.

const ATORES: readonly Ator[] = ['USUARIO_RECEBEDOR', 'PSP_RECEBEDOR', 'PSP_PAGADOR', 'USUARIO_PAGADOR']
const LIVES: Record<string, [Life<string>, readonly string[]]> = { rec: [REC_LIFE, REC_STATUSES], solicrec: [SOLICREC_LIFE, SOLICREC_STATUSES], cobr: [COBR_LIFE, COBR_STATUSES], tentativa: [TENTATIVA_LIFE, TENTATIVA_STATUSES] }

/** Every allowed move of a life, as `FROM>TO:by,by`. */
function table<S extends string> (life: Life<S>, statuses: readonly S[]): string[] {
  const rows: string[] = []
  for (const from of statuses) {
    for (const to of statuses) {
      const by = ATORES.filter(a => canMove(life, from, to, a))
      if (by.length > 0) rows.push(`${from}>${to}:${by.join(',')}`)
    }
  }
  return rows
}

t.test('the tables, move by move', async t => {
  t.same(table(REC_LIFE, REC_STATUSES), [
    'CRIADA>APROVADA:USUARIO_PAGADOR',
    'CRIADA>REJEITADA:PSP_PAGADOR,USUARIO_PAGADOR',
    'CRIADA>EXPIRADA:PSP_RECEBEDOR',
    'CRIADA>CANCELADA:USUARIO_RECEBEDOR,PSP_RECEBEDOR',
    'APROVADA>EXPIRADA:PSP_RECEBEDOR',
    'APROVADA>CANCELADA:USUARIO_RECEBEDOR,PSP_RECEBEDOR,PSP_PAGADOR,USUARIO_PAGADOR',
  ])
  t.same(table(SOLICREC_LIFE, SOLICREC_STATUSES), [
    'CRIADA>ENVIADA:PSP_RECEBEDOR',
    'CRIADA>EXPIRADA:PSP_RECEBEDOR,PSP_PAGADOR',
    'CRIADA>CANCELADA:USUARIO_RECEBEDOR',
    'ENVIADA>RECEBIDA:PSP_PAGADOR',
    'ENVIADA>REJEITADA:PSP_PAGADOR,USUARIO_PAGADOR',
    'ENVIADA>ACEITA:USUARIO_PAGADOR',
    'ENVIADA>EXPIRADA:PSP_RECEBEDOR,PSP_PAGADOR',
    'ENVIADA>CANCELADA:USUARIO_RECEBEDOR',
    'RECEBIDA>REJEITADA:PSP_PAGADOR,USUARIO_PAGADOR',
    'RECEBIDA>ACEITA:USUARIO_PAGADOR',
    'RECEBIDA>EXPIRADA:PSP_RECEBEDOR,PSP_PAGADOR',
    'RECEBIDA>CANCELADA:USUARIO_RECEBEDOR',
  ])
  t.same(table(COBR_LIFE, COBR_STATUSES), [
    'CRIADA>ATIVA:PSP_PAGADOR',
    'CRIADA>EXPIRADA:PSP_RECEBEDOR',
    'CRIADA>REJEITADA:PSP_PAGADOR',
    'CRIADA>CANCELADA:USUARIO_RECEBEDOR,PSP_RECEBEDOR,PSP_PAGADOR,USUARIO_PAGADOR',
    'ATIVA>CONCLUIDA:PSP_PAGADOR',
    'ATIVA>EXPIRADA:PSP_RECEBEDOR',
    'ATIVA>REJEITADA:PSP_PAGADOR',
    'ATIVA>CANCELADA:USUARIO_RECEBEDOR,PSP_RECEBEDOR,PSP_PAGADOR,USUARIO_PAGADOR',
  ])
  t.same(table(TENTATIVA_LIFE, TENTATIVA_STATUSES), [
    'SOLICITADA>AGENDADA:PSP_PAGADOR',
    'SOLICITADA>CANCELADA:USUARIO_RECEBEDOR,PSP_RECEBEDOR,PSP_PAGADOR,USUARIO_PAGADOR',
    'SOLICITADA>REJEITADA:PSP_PAGADOR',
    'SOLICITADA>EXPIRADA:PSP_RECEBEDOR,PSP_PAGADOR',
    'AGENDADA>PAGA:PSP_PAGADOR',
    'AGENDADA>CANCELADA:USUARIO_RECEBEDOR,PSP_RECEBEDOR,PSP_PAGADOR,USUARIO_PAGADOR',
    'AGENDADA>REJEITADA:PSP_PAGADOR',
    'AGENDADA>EXPIRADA:PSP_RECEBEDOR,PSP_PAGADOR',
  ])
})

t.test('final statuses have no way out, every status is reached from the first, and the lists of final statuses agree', async t => {
  for (const [name, [life, statuses]] of Object.entries(LIVES)) {
    const exits = life.finals.flatMap(f => statuses.filter(to => ATORES.some(a => canMove(life, f, to, a))).map(to => `${f}>${to}`))
    t.same(exits, [], `${name}: no move out of a final status`)
    const reached = new Set([life.initial])
    for (let grew = true; grew;) {
      grew = false
      for (const m of life.moves) {
        if (m.from.some(f => reached.has(f)) && !reached.has(m.to)) { reached.add(m.to); grew = true }
      }
    }
    t.same([...reached].sort(), [...statuses].sort(), `${name}: every status is reached`)
    t.ok(statuses.filter(s => !life.finals.includes(s)).every(s => life.moves.some(m => m.from.includes(s))), `${name}: every status not final has a way on`)
  }
  t.same([...REC_LIFE.finals].sort(), [...REC_FINAL_STATUSES].sort())
  t.same([...COBR_LIFE.finals].sort(), [...COBR_FINAL_STATUSES].sort())
  t.same([...TENTATIVA_LIFE.finals].sort(), [...TENTATIVA_FINAL_STATUSES].sort())
  t.same(SOLICREC_STATUSES.filter(s => !SOLICREC_LIFE.finals.includes(s)), [...SOLICREC_ACTIVE_STATUSES])
})

t.test('random walks never leave a final status', async t => {
  for (const [name, [life, statuses]] of Object.entries(LIVES)) {
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom(...statuses), fc.constantFrom(...ATORES)), { maxLength: 30 }), steps => {
      let status = life.initial
      for (const [to, by] of steps) {
        const wasFinal = isFinal(life, status)
        if (canMove(life, status, to, by)) {
          if (wasFinal) return false
          status = to
        }
      }
      return true
    }), { numRuns: 500 })
    t.pass(name)
  }
})

/** A history's statuses; the recurrence examples write `nome` where RecAtualizacao says `status`. */
function path (atualizacao: Array<{ status?: string, nome?: string }>): string[] {
  return atualizacao.map(a => a.status ?? a.nome as string)
}

/** Whether some actor may make each step of a path. */
function follows (life: Life<string>, steps: string[]): boolean {
  return steps[0] === life.initial && steps.every((s, i) => i === 0 || ATORES.some(a => canMove(life, steps[i - 1], s, a)))
}

t.test('every history in the YAML\'s examples follows the tables and ends at the status shown', async t => {
  const usingNome: string[] = []
  for (const [name, { value }] of Object.entries(examples)) {
    const records: Array<{ life: Life<string>, record: any }> = []
    if (/^recResponse|^recPayload/.test(name)) records.push({ life: REC_LIFE, record: value })
    if (/^solicRecResponse/.test(name)) records.push({ life: SOLICREC_LIFE, record: value }, { life: REC_LIFE, record: value.recPayload })
    if (/^cobRResponse/.test(name)) records.push({ life: COBR_LIFE, record: value })
    if (name === 'getCobR1') records.push(...value.cobsr.map((record: unknown) => ({ life: COBR_LIFE, record })))
    if (name === 'getRec1') records.push(...value.recs.map((record: unknown) => ({ life: REC_LIFE, record })))
    for (const { life, record } of records) {
      const steps = path(record.atualizacao)
      if (record.atualizacao.some((a: { nome?: string }) => a.nome !== undefined)) usingNome.push(name)
      t.ok(follows(life, steps), `${name}: ${steps.join(' > ')}`)
      if (record.status !== undefined) t.equal(steps.at(-1), record.status, `${name}: the last entry is the status`)
      for (const attempt of record.tentativas ?? []) {
        if (attempt.atualizacao !== undefined) t.ok(follows(TENTATIVA_LIFE, path(attempt.atualizacao)), `${name}: attempt ${path(attempt.atualizacao).join(' > ')}`)
      }
    }
  }
  t.same([...new Set(usingNome)], ['recResponse1', 'recResponse2', 'recResponse3', 'recResponse4', 'recResponse5', 'recResponse6', 'recResponse7', 'recResponse8', 'getRec1'],
    'the recurrence responses write atualizacao[].nome for .status: a defect of the examples')
})

t.test('closing details: REJEITADA a rejeicao, CANCELADA a cancelamento by whoever cancels, nothing otherwise', async t => {
  const recCancel = examples.recResponse5.value.encerramento
  t.same(recCancel, { cancelamento: CANCELAMENTO.rec.USUARIO_RECEBEDOR }, 'recResponse5 is the receiver\'s cancellation the sandbox records')
  t.same(moveRec('APROVADA', 'CANCELADA', 'USUARIO_RECEBEDOR', recCancel), { ok: true, status: 'CANCELADA', encerramento: recCancel })
  t.same(moveRec('APROVADA', 'CANCELADA', 'USUARIO_PAGADOR', recCancel), { ok: false, reason: 'ENCERRAMENTO' }, 'the solicitante is who cancels')
  t.same(moveRec('APROVADA', 'CANCELADA', 'USUARIO_PAGADOR', { cancelamento: CANCELAMENTO.rec.USUARIO_PAGADOR }), { ok: true, status: 'CANCELADA', encerramento: { cancelamento: CANCELAMENTO.rec.USUARIO_PAGADOR } })
  t.same(moveRec('APROVADA', 'CANCELADA', 'USUARIO_RECEBEDOR'), { ok: false, reason: 'ENCERRAMENTO' }, 'a cancellation says why')
  t.same(moveRec('CRIADA', 'REJEITADA', 'USUARIO_PAGADOR', { rejeicao: { codigo: 'AP13', descricao: 'Recusada pelo pagador' } }), { ok: true, status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13', descricao: 'Recusada pelo pagador' } } })
  t.same(moveRec('CRIADA', 'REJEITADA', 'USUARIO_PAGADOR', { rejeicao: { codigo: 'AM09' as 'AP13', descricao: 'x' } }), { ok: false, reason: 'ENCERRAMENTO' }, 'a code of the charge\'s list')
  t.same(moveRec('CRIADA', 'REJEITADA', 'USUARIO_PAGADOR', { rejeicao: { codigo: 'AP14', descricao: 'x'.repeat(401) } }), { ok: false, reason: 'ENCERRAMENTO' }, 'descricao <= 400')
  t.same(moveRec('CRIADA', 'APROVADA', 'USUARIO_PAGADOR', recCancel), { ok: false, reason: 'ENCERRAMENTO' }, 'nothing closes on approval')
  t.same(moveRec('CRIADA', 'APROVADA', 'USUARIO_PAGADOR'), { ok: true, status: 'APROVADA' })
  t.same(moveRec('CRIADA', 'APROVADA', 'USUARIO_RECEBEDOR'), { ok: false, reason: 'TRANSICAO' }, 'only the payer approves')
  t.same(moveRec('CANCELADA', 'APROVADA', 'USUARIO_PAGADOR'), { ok: false, reason: 'TRANSICAO' })

  const cobrCancel = examples.cobRResponse4.value.encerramento
  t.same(cobrCancel, { cancelamento: CANCELAMENTO.cobr.USUARIO_RECEBEDOR }, 'cobRResponse4 is the receiver\'s cancellation the sandbox records')
  t.same(moveCobR('ATIVA', 'CANCELADA', 'USUARIO_RECEBEDOR', cobrCancel), { ok: true, status: 'CANCELADA', encerramento: cobrCancel })
  t.same(moveCobR('ATIVA', 'CANCELADA', 'USUARIO_RECEBEDOR', { cancelamento: { ...CANCELAMENTO.cobr.USUARIO_RECEBEDOR, codigo: 'SLDB' as 'SLCR' } }), { ok: false, reason: 'ENCERRAMENTO' }, 'SLDB is the recurrence\'s code, not the charge\'s')
  t.same(moveCobR('ATIVA', 'REJEITADA', 'PSP_PAGADOR', { rejeicao: { codigo: 'AM09', descricao: 'Valor incorreto' } }), { ok: true, status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AM09', descricao: 'Valor incorreto' } } })
  t.same(moveCobR('ATIVA', 'CONCLUIDA', 'PSP_PAGADOR'), { ok: true, status: 'CONCLUIDA' })
  t.same(moveCobR('CONCLUIDA', 'CANCELADA', 'USUARIO_RECEBEDOR', cobrCancel), { ok: false, reason: 'TRANSICAO' })

  t.same(moveSolicRec('RECEBIDA', 'ACEITA', 'USUARIO_PAGADOR'), { ok: true, status: 'ACEITA' })
  t.same(moveSolicRec('ACEITA', 'CANCELADA', 'USUARIO_RECEBEDOR'), { ok: false, reason: 'TRANSICAO' })
  t.same(moveTentativa('AGENDADA', 'REJEITADA', 'PSP_PAGADOR', { codigo: 'AM02', descricao: 'x' }), { ok: true, status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AM02', descricao: 'x' } } })
  t.same(moveTentativa('AGENDADA', 'REJEITADA', 'PSP_PAGADOR'), { ok: false, reason: 'ENCERRAMENTO' })
  t.same(moveTentativa('AGENDADA', 'CANCELADA', 'USUARIO_PAGADOR'), { ok: true, status: 'CANCELADA' }, 'an attempt\'s cancellation has no details')
  t.same(moveTentativa('AGENDADA', 'EXPIRADA', 'PSP_PAGADOR', { codigo: 'AM02', descricao: 'x' }), { ok: false, reason: 'ENCERRAMENTO' })
})

t.test('what one record\'s end does to another', async t => {
  t.same(recAfterSolicRec('ACEITA'), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_1' } })
  t.same(recAfterSolicRec('REJEITADA'), { status: 'REJEITADA' })
  t.same(recAfterSolicRec('EXPIRADA'), { status: 'EXPIRADA' })
  for (const s of ['CRIADA', 'ENVIADA', 'RECEBIDA', 'CANCELADA'] as const) t.equal(recAfterSolicRec(s), null, s)
  const cobrs = [
    { txid: 'a', status: 'ATIVA' as const },
    { txid: 'b', status: 'CRIADA' as const },
    { txid: 'c', status: 'ATIVA' as const, comment: 'past its first attempt, waiting for a retry' },
    { txid: 'd', status: 'CONCLUIDA' as const },
    { txid: 'e', status: 'EXPIRADA' as const },
  ]
  t.same(cobrsToCancelWithRec(cobrs).map(c => c.txid), ['a', 'b', 'c'], 'every charge not yet settled, whatever its date; d is paid, e over')
  // CCLD, by the side that cancelled the recurrence; by the receiver's PSP when it expired or was rejected.
  const cancelada = (cancelamento: { solicitante: 'USUARIO_RECEBEDOR' | 'USUARIO_PAGADOR' | 'PSP_PAGADOR', codigo: 'SLCR' | 'SLDB' | 'FRUD', descricao: string }) => ({ status: 'CANCELADA' as const, encerramento: { cancelamento } })
  t.same(cancelamentoPorRecEncerrada(cancelada(CANCELAMENTO.rec.USUARIO_RECEBEDOR)), { solicitante: 'USUARIO_RECEBEDOR', codigo: 'CCLD', descricao: 'Cancelamento de agendamento em razão do cancelamento da recorrência' })
  t.match(cancelamentoPorRecEncerrada(cancelada(CANCELAMENTO.rec.USUARIO_PAGADOR)), { solicitante: 'USUARIO_PAGADOR', codigo: 'CCLD' })
  t.match(cancelamentoPorRecEncerrada(cancelada({ solicitante: 'PSP_PAGADOR', codigo: 'FRUD', descricao: 'Fraude' })), { solicitante: 'PSP_PAGADOR', codigo: 'CCLD' })
  t.same(cancelamentoPorRecEncerrada({ status: 'EXPIRADA' }), { solicitante: 'PSP_RECEBEDOR', codigo: 'CCLD', descricao: 'Cancelamento de agendamento em razão do fim da vigência da recorrência' })
  t.match(cancelamentoPorRecEncerrada({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13', descricao: 'x' } } }), { solicitante: 'PSP_RECEBEDOR', codigo: 'CCLD', descricao: /rejeição/ })
  t.match(cancelamentoPorRecEncerrada(null), { solicitante: 'PSP_RECEBEDOR', codigo: 'CCLD' }, 'a recurrence that is gone')
  for (const rec of [cancelada({ solicitante: 'PSP_PAGADOR', codigo: 'FRUD', descricao: 'Fraude' }), { status: 'EXPIRADA' as const }]) {
    const cancelamento = cancelamentoPorRecEncerrada(rec)
    t.ok(moveCobR('ATIVA', 'CANCELADA', cancelamento.solicitante, { cancelamento }).ok, `${rec.status}: a move the charge's table allows`)
  }
})
