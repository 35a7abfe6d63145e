import { maskDocument } from '../../domain/documents.js'
import { Refusal } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import { bacenList } from '../shared/bacen-list.js'
import type { Account, MedRecord } from '../../store/state.js'
import type { AppliedScenario } from '../../../scenarios/types.js'
import type { InfracaoType, InfracoesQueryType } from './schemas.js'

/**
 * Efí's MED routes (docs/efi.md, MED): the sandbox's MED cases on PIX the account received (opened at
 * `POST /__sandbox/med`) as Efí's infrações, and the account's defence of one.
 */

/** An infração's id: a UUID whose last 12 hex digits are the MED case's id (the case keeps no UUID of its own). */
export const idInfracaoOf = (id: number): string => `00000000-0000-4000-8000-${id.toString(16).padStart(12, '0')}`

function medIdOf (idInfracao: string): number | undefined {
  const m = /^00000000-0000-4000-8000-([0-9a-f]{12})$/.exec(idInfracao)
  return m === null ? undefined : parseInt(m[1], 16)
}

/** The deadline of a defence, and of the case's analysis: 7 days from its opening (a rule of the sandbox). */
const DEADLINE_MS = 7 * 86_400_000

function statusOf (m: MedRecord): InfracaoType['status'] {
  if (m.status === 'CANCELLED') return 'CANCELADA_EFI'
  if (m.status === 'ANALYZED') return m.analysisResult === 'APPROVED' ? 'ACEITA' : 'REJEITADA'
  return m.defence?.analysis === 'CONTESTED' ? 'EM_DEFESA' : 'ABERTA'
}

export class EfiMed {
  constructor (private readonly sb: Sandbox) {}

  view (account: Account, m: MedRecord): InfracaoType {
    const closed = m.status === 'ANALYZED' || m.status === 'CANCELLED'
    const t = m.originalTransaction
    return {
      idInfracao: idInfracaoOf(m.id),
      endToEndId: m.endToEnd,
      protocolo: m.id,
      dataTransacao: t?.dateTime ?? m.createdAt,
      valor: t?.amount ?? 0,
      status: statusOf(m),
      razao: m.reason === 'REFUND_REQUEST' ? 'Solicitação de devolução' : 'Cancelamento de solicitação de devolução',
      ...(m.cause !== null ? { tipoSituacao: m.cause } : {}),
      ...(m.description !== null ? { comentario: m.description } : {}),
      ...(m.defence !== undefined ? { defesa: m.defence.justification } : {}),
      ...(m.analysisDetails !== null && m.defence?.justification !== m.analysisDetails ? { justificativaAnalista: m.analysisDetails } : {}),
      dadosAnalise: {
        abertura: m.createdAt,
        prazoFinalizacao: new Date(Date.parse(m.createdAt) + DEADLINE_MS).toISOString(),
        ...(m.defence !== undefined ? { recebimentoDefesa: m.defence.at } : {}),
        ...(closed ? { finalizacao: m.updatedAt } : {}),
      },
      origem: { nomeParticipante: m.requestingBank.name, nome: t?.name ?? '', documento: t?.document ?? '' },
      destino: { nomeParticipante: m.contestedBank.name, conta: account.id, nome: account.name, documento: maskDocument(account.document) },
      criadoEm: m.createdAt,
      atualizadoEm: m.updatedAt,
    }
  }

  /** GET /v2/gn/infracoes: the account's cases opened within [inicio, fim], oldest first, paged. */
  list (account: Account, q: InfracoesQueryType) {
    const { parametros, items } = bacenList(q, w => this.sb.med.openedWithin(account.id, w), { at: m => m.createdAt, filters: {}, echo: [], order: (a, b) => a.id - b.id })
    return { parametros, infracoes: items.map(m => this.view(account, m)) }
  }

  /** POST /v2/gn/infracoes/:idInfracao/defesa: once; after the deadline, 422. */
  defend (account: Account, idInfracao: string, body: { analise: 'aceito' | 'rejeitado', justificativa: string }, scenarios: readonly AppliedScenario[]): void {
    const id = medIdOf(idInfracao)
    const record = id === undefined ? undefined : this.sb.store.data.meds[id]
    if (record === undefined || record.accountId !== account.id) throw new Refusal('MED_NOT_FOUND', 'Infração não encontrada.')
    if (record.defence === undefined && this.sb.clock.now() > Date.parse(record.createdAt) + DEADLINE_MS) throw new Refusal('MED_DEFENCE_LATE', 'O prazo para defesa foi excedido.')
    this.sb.med.defend(account.id, record.id, { analysis: body.analise === 'aceito' ? 'ACCEPTED' : 'CONTESTED', justification: body.justificativa }, () => [...scenarios])
  }
}
