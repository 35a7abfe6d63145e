import type { Store } from '../../../store/store.js'
import type { CobR, Tentativa } from '../../../store/state.js'
import type { RefundReads } from '../../../ports.js'
import { receivedPixView } from '../../shared/bacen.js'

/* Pix Automático's recurring charges as API Pix 2.9.0 shows them (docs/api-pix.md, "Recurring charges"): pure functions of the records. */

export interface CobRViewDeps {
  store: Pick<Store, 'account' | 'transaction'>
  refunds: RefundReads
}

/** An attempt as API Pix shows it (CobRTentativas' items). */
function tentativaView (t: Tentativa) {
  return {
    dataLiquidacao: t.dataLiquidacao,
    tipo: t.tipo,
    endToEndId: t.endToEndId,
    status: t.status,
    atualizacao: t.atualizacao.map(a => ({ status: a.status, data: a.data })),
    ...(t.rejeicao !== undefined ? { rejeicao: { codigo: t.rejeicao.codigo, descricao: t.rejeicao.descricao } } : {}),
  }
}

/** A charge as API Pix shows it (CobRGerada, CobRCompleta): the receiver named by the account, the PIX once paid (PixAutomatico). */
export function cobrView (deps: CobRViewDeps, cobr: CobR) {
  const account = deps.store.account(cobr.accountId)
  const tx = cobr.pixId === undefined ? undefined : deps.store.transaction(cobr.pixId)
  const pix = tx === undefined ? undefined : receivedPixView(deps.refunds, tx)
  return {
    idRec: cobr.idRec,
    txid: cobr.txid,
    ...(cobr.infoAdicional !== undefined ? { infoAdicional: cobr.infoAdicional } : {}),
    calendario: { criacao: cobr.criacao, dataDeVencimento: cobr.calendario.dataDeVencimento },
    valor: { original: cobr.valor.original },
    ajusteDiaUtil: cobr.ajusteDiaUtil,
    status: cobr.status,
    politicaRetentativa: cobr.politicaRetentativa,
    ...(cobr.devedor !== undefined ? { devedor: { ...cobr.devedor } } : {}),
    // CobRGerada's recebedor is the receiver too: its CNPJ and name, beside its account.
    recebedor: { cnpj: account?.document ?? '', nome: account?.name ?? '', ...cobr.recebedor },
    ...(pix !== undefined ? { pix: [{ endToEndId: pix.endToEndId, txid: cobr.txid, valor: pix.valor, horario: pix.horario, devolucoes: pix.devolucoes }] } : {}),
    ...(cobr.tentativas.length > 0 ? { tentativas: cobr.tentativas.map(tentativaView) } : {}),
    atualizacao: cobr.atualizacao.map(a => ({ status: a.status, data: a.data })),
    ...(cobr.encerramento !== undefined ? { encerramento: cobr.encerramento } : {}),
  }
}

/** CobRNotification: what `/webhookcobr` sends of a charge. */
export type CobRNotification = Pick<ReturnType<typeof cobrView>, 'idRec' | 'txid' | 'status' | 'atualizacao' | 'encerramento' | 'tentativas' | 'pix'>

export function cobrNotification (deps: CobRViewDeps, cobr: CobR): CobRNotification {
  const { idRec, txid, status, atualizacao, encerramento, tentativas, pix } = cobrView(deps, cobr)
  return { idRec, txid, status, atualizacao, ...(encerramento !== undefined ? { encerramento } : {}), ...(tentativas !== undefined ? { tentativas } : {}), ...(pix !== undefined ? { pix } : {}) }
}
