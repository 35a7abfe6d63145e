import type { Account, DeepReadonly, Recurrence, RecLocation, SolicRec } from '../../../store/state.js'
import type { RecAtivacao } from '../../../domain/rec.js'

/*
 * Pix Automático's records as API Pix 2.9.0 shows them (docs/api-pix.md, Pix Automático): a recurrence
 * as created or revised (RecGerada), read (RecCompleta, RecCompletaPesquisada in a list), read by a
 * payer's PSP (RecPayload) and notified (RecNotification); a confirmation request (SolicRecCompleta); a
 * recurrence's location (PayloadLocationRecCompleta). Pure functions of the records, apart from the
 * service that keeps them.
 */

/** The receiver as a recurrence shows it: the account's company (PessoaJuridicaRecorrencia) and its agreement. */
function recebedor (rec: Recurrence, account: Account) {
  const convenio = rec.terms.recebedor?.convenio
  return { cnpj: account.document, nome: account.name.slice(0, 140), ...(convenio !== undefined ? { convenio } : {}) }
}

/** RecBase: what the receiver set. */
function base (rec: Recurrence) {
  const { vinculo, calendario, valor } = rec.terms
  return { idRec: rec.idRec, vinculo, calendario, valor }
}

/** `ativacao`: the journey once approved; before, AGUARDANDO_DEFINICAO with the charge journey 3 is to pay, when the receiver named one. */
export function ativacaoOf (rec: Recurrence): DeepReadonly<RecAtivacao> {
  if (rec.ativacao.tipoJornada !== 'AGUARDANDO_DEFINICAO') return rec.ativacao
  const txid = rec.terms.ativacao?.dadosJornada.txid
  return txid === undefined ? rec.ativacao : { tipoJornada: 'AGUARDANDO_DEFINICAO', dadosJornada: { txid } }
}

export function recLocationView (loc: RecLocation) {
  return { id: loc.id, location: loc.location, criacao: loc.createdAt, ...(loc.idRec !== undefined ? { idRec: loc.idRec } : {}) }
}

/** RecGerada: the answer of POST /rec and PATCH /rec/{idRec}. */
export function recGerada (rec: Recurrence, account: Account, loc: RecLocation | undefined) {
  return {
    ...base(rec),
    recebedor: recebedor(rec, account),
    politicaRetentativa: rec.terms.politicaRetentativa,
    status: rec.status,
    ...(loc !== undefined ? { loc: recLocationView(loc) } : {}),
    atualizacao: rec.atualizacao,
    ...(rec.encerramento !== undefined ? { encerramento: rec.encerramento } : {}),
    ativacao: ativacaoOf(rec),
  }
}

/** RecCompletaPesquisada (GET /rec) and, with dadosQR, RecCompleta (GET /rec/{idRec}): the payer and the confirmation requests too. */
export function recCompleta (rec: Recurrence, account: Account, loc: RecLocation | undefined, solicitacoes: readonly SolicRec[]) {
  return {
    ...recGerada(rec, account, loc),
    ...(rec.pagador !== undefined ? { pagador: rec.pagador } : {}),
    ...(solicitacoes.length > 0 ? { solicitacao: solicitacoes.map(s => solicRecView(s, rec, account)) } : {}),
  }
}

/** RecPayload: what a payer's PSP reads at the recurrence's location (signed), the receiver's ISPB with it. */
export function recPayload (rec: Recurrence, account: Account) {
  const { convenio: _convenio, ...who } = recebedor(rec, account)
  return {
    ...base(rec),
    recebedor: { ...who, ispbParticipante: account.ispb },
    politicaRetentativa: rec.terms.politicaRetentativa,
    atualizacao: rec.atualizacao,
  }
}

/** RecNotification: one entry of a `/webhookrec` delivery's `recs`. */
export function recNotification (rec: Recurrence) {
  return {
    idRec: rec.idRec,
    status: rec.status,
    atualizacao: rec.atualizacao,
    ...(rec.encerramento !== undefined ? { encerramento: rec.encerramento } : {}),
    ativacao: ativacaoOf(rec),
  }
}

/** SolicRecCompleta: a confirmation request, with the payload of its recurrence as the payer's PSP receives it. */
export function solicRecView (s: SolicRec, rec: Recurrence, account: Account) {
  return {
    idSolicRec: s.idSolicRec,
    idRec: s.idRec,
    calendario: { dataExpiracaoSolicitacao: s.dataExpiracaoSolicitacao },
    destinatario: s.destinatario,
    status: s.status,
    atualizacao: s.atualizacao,
    recPayload: recPayload(rec, account),
  }
}
