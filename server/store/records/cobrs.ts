import { Type } from '@sinclair/typebox'
import { ATORES, POLITICAS_RETENTATIVA } from '../../domain/rec-types.js'
import { COBR_CANCELAMENTO_CODIGOS } from '../../domain/rec-lifecycle.js'
import { COBR_REJEICAO_CODIGOS, COBR_STATUSES, TENTATIVA_STATUSES, TENTATIVA_TIPOS, TIPOS_CONTA } from '../../domain/cobr.js'
import { FORCED_OUTCOMES } from '../../domain/cobr-debits.js'
import { Instant, CalendarDate, Id, Text, Open, OneOf, AppliedScenarioSchema } from './schema.js'

/** API Pix's recurring charges of Pix Automático (docs/api-pix.md), with their attempts, owned by CobRService. */

const CobRRejeicaoSchema = Open({ codigo: OneOf(COBR_REJEICAO_CODIGOS), descricao: Text })

/** An attempt to settle a recurring charge (CobRTentativas' items), with what decides its outcome. */
const TentativaSchema = Open({
  /** The date it settles on; its debit runs at the sandbox's settlement time of that São Paulo day. */
  dataLiquidacao: CalendarDate,
  tipo: OneOf(TENTATIVA_TIPOS),
  endToEndId: Text,
  status: OneOf(TENTATIVA_STATUSES),
  atualizacao: Type.Array(Open({ status: OneOf(TENTATIVA_STATUSES), data: Instant })),
  rejeicao: Type.Optional(CobRRejeicaoSchema),
  /** Its debit was tried and the payer's PSP never answered: it expires at the end of its day. */
  semResposta: Type.Optional(Type.Literal(true)),
  /** Its morning debit found no funds: the payer's PSP tries again that evening (domain/cobr-debits.ts, EVENING_DEBIT_TIME). */
  semSaldo: Type.Optional(Type.Literal(true)),
  /** The scenarios of the request that asked for it (the charge's creation, or the retry), which bend its outcome. */
  scenarios: Type.Optional(Type.Array(AppliedScenarioSchema)),
})

/**
 * A recurring charge of API Pix (CobR): what its receiver asked for (the fields of CobRSolicitada),
 * its recurrence's retry policy, its status and history, its attempts and, once paid, the received
 * PIX it became. `txid` is unique per account; `id` is the record's key.
 */
export const CobRSchema = Open({
  id: Id,
  accountId: Id,
  txid: Text,
  idRec: Text,
  /** The São Paulo date of its creation (calendario.criacao). */
  criacao: CalendarDate,
  createdAt: Instant,
  infoAdicional: Type.Optional(Text),
  calendario: Open({ dataDeVencimento: CalendarDate }),
  valor: Open({ original: Text }),
  ajusteDiaUtil: Type.Boolean(),
  recebedor: Open({ conta: Text, tipoConta: OneOf(TIPOS_CONTA), agencia: Type.Optional(Text) }),
  devedor: Type.Optional(Open({ email: Type.Optional(Text), logradouro: Type.Optional(Text), cidade: Type.Optional(Text), uf: Type.Optional(Text), cep: Type.Optional(Text) })),
  /** Its recurrence's, when it was created. */
  politicaRetentativa: OneOf(POLITICAS_RETENTATIVA),
  status: OneOf(COBR_STATUSES),
  atualizacao: Type.Array(Open({ status: OneOf(COBR_STATUSES), data: Instant })),
  encerramento: Type.Optional(Type.Union([
    Open({ cancelamento: Open({ solicitante: OneOf(ATORES), codigo: OneOf(COBR_CANCELAMENTO_CODIGOS), descricao: Text }) }),
    Open({ rejeicao: CobRRejeicaoSchema }),
  ])),
  tentativas: Type.Array(TentativaSchema),
  /** The received PIX (a PIX_IN transaction) its paid attempt became. */
  pixId: Type.Optional(Text),
  /** After a failed attempt: the last day a retry may be asked for (it expires the day after). */
  retentativaAte: Type.Optional(CalendarDate),
  /** The outcome the control plane forced on its next attempt's debit. */
  proximoDebito: Type.Optional(Open({ outcome: OneOf(FORCED_OUTCOMES), codigo: Type.Optional(OneOf(COBR_REJEICAO_CODIGOS)) })),
  /** When its next timed step is due (the instruction, a debit, an expiry), so a restart reschedules it. */
  dueAt: Type.Optional(Instant),
  /** The delivery faults of its webhooks: the scenarios of its creation. */
  scenarios: Type.Optional(Type.Array(AppliedScenarioSchema)),
})
