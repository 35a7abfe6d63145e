import { Type } from '@sinclair/typebox'
import {
  ATORES, PERIODICIDADES, POLITICAS_RETENTATIVA, REC_CANCELAMENTO_CODIGOS, REC_REJEICAO_CODIGOS, REC_STATUSES, SOLICREC_STATUSES, TIPOS_JORNADA,
  type RecAtivacao, type RecEncerramento, type RecTerms, type SolicRecDestinatario,
} from '../../domain/rec-types.js'
import { AppliedScenarioSchema, Cents, Id, Instant, OneOf, Open, Text, describes } from './schema.js'

/**
 * Pix Automático (docs/api-pix.md, Pix Automático): recurrences, their locations and confirmation
 * requests, owned by RecurrenceService, and how simulated payers behave, owned by PayerSimulation.
 */

const IsoDay = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })
const Decimal = Type.String({ pattern: '^\\d{1,10}\\.\\d{2}$' })

/** The receiver's terms of a recurrence, as `domain/rec.ts` checked them (RecTerms). */
const RecTermsSchema = describes<RecTerms>()(Open({
  vinculo: Open({
    objeto: Type.Optional(Text),
    contrato: Text,
    devedor: Type.Union([Open({ cpf: Text, nome: Text }), Open({ cnpj: Text, nome: Text })]),
  }),
  calendario: Open({ dataInicial: IsoDay, dataFinal: Type.Optional(IsoDay), periodicidade: OneOf(PERIODICIDADES) }),
  valor: Open({ valorRec: Type.Optional(Decimal), valorMinimoRecebedor: Type.Optional(Decimal) }),
  politicaRetentativa: OneOf(POLITICAS_RETENTATIVA),
  recebedor: Type.Optional(Open({ convenio: Type.Optional(Text) })),
  /** The recurrence location (`recLocations`) it is served at; dropped when that location is unbound from it. */
  loc: Type.Optional(Id),
  ativacao: Type.Optional(Open({ dadosJornada: Open({ txid: Text }) })),
}))

const RecAtivacaoSchema = describes<RecAtivacao>()(Open({ tipoJornada: OneOf(TIPOS_JORNADA), dadosJornada: Type.Optional(Open({ txid: Text })) }))

const RecEncerramentoSchema = describes<RecEncerramento>()(Type.Union([
  Open({ rejeicao: Open({ codigo: OneOf(REC_REJEICAO_CODIGOS), descricao: Text }) }),
  Open({ cancelamento: Open({ solicitante: OneOf(ATORES), codigo: OneOf(REC_CANCELAMENTO_CODIGOS), descricao: Text }) }),
]))

/**
 * A recurrence of Pix Automático (API Pix's `rec`): the receiver's terms, where its life stands
 * (`status`, and `atualizacao`, every status with when it was reached), how the payer approved it and
 * who the payer is, and how it ended. Keyed by its idRec.
 */
export const RecurrenceSchema = Open({
  idRec: Type.String({ pattern: '^[a-zA-Z0-9]{29}$' }),
  accountId: Id,
  status: OneOf(REC_STATUSES),
  terms: RecTermsSchema,
  ativacao: RecAtivacaoSchema,
  /** The payer's PSP and document, once a journey approved it (RecCompleta's `pagador`). */
  pagador: Type.Optional(Type.Union([Open({ ispbParticipante: Text, cpf: Text }), Open({ ispbParticipante: Text, cnpj: Text })])),
  /** The most a charge may take, set by the payer on approving a variable value. */
  valorMaximoPagadorCents: Type.Optional(Cents),
  encerramento: Type.Optional(RecEncerramentoSchema),
  atualizacao: Type.Array(Open({ status: OneOf(REC_STATUSES), data: Instant })),
  createdAt: Instant,
  /** When the sandbox expires it (the day after its dataFinal, São Paulo), while it can still expire. */
  dueAt: Type.Optional(Instant),
  /** Scenarios applied at its creation: what the simulated payer does about it. */
  scenarios: Type.Optional(Type.Array(AppliedScenarioSchema)),
  /** When the payer's PSP cancels it (REC_PAYER_PSP_CANCELS), while it is APROVADA. */
  payerCancelsAt: Type.Optional(Instant),
})

/** A location of a recurrence's payload (API Pix's `locrec`), `<host>/qr/v2/rec/<token>`, serving the recurrence it is bound to. */
export const RecLocationSchema = Open({
  id: Id,
  accountId: Id,
  location: Type.String({ minLength: 1, maxLength: 77 }),
  createdAt: Instant,
  /** The recurrence it serves; absent while it serves none (created alone, or unbound). */
  idRec: Type.Optional(Type.String({ minLength: 1 })),
})

/** A confirmation request of journey 1 (API Pix's `solicrec`): sent to the payer's PSP, answered by the payer. Keyed by its idSolicRec. */
export const SolicRecSchema = Open({
  idSolicRec: Type.String({ pattern: '^[a-zA-Z0-9]{29}$' }),
  accountId: Id,
  idRec: Text,
  status: OneOf(SOLICREC_STATUSES),
  /** dataExpiracaoSolicitacao as the receiver sent it. */
  dataExpiracaoSolicitacao: Instant,
  destinatario: describes<SolicRecDestinatario>()(Type.Union([
    Open({ conta: Text, ispbParticipante: Text, agencia: Type.Optional(Text), cpf: Text }),
    Open({ conta: Text, ispbParticipante: Text, agencia: Type.Optional(Text), cnpj: Text }),
  ])),
  atualizacao: Type.Array(Open({ status: OneOf(SOLICREC_STATUSES), data: Instant })),
  createdAt: Instant,
  /** When its next step is due (sent, received, answered, expired), while it is waiting. */
  dueAt: Type.Optional(Instant),
})

export const AUTHORIZATION_ANSWERS = ['APPROVE', 'REJECT', 'NO_ANSWER'] as const
export type AuthorizationAnswer = typeof AUTHORIZATION_ANSWERS[number]
/** How a simulated payer answers a debit (the `DebitAnswer` of server/ports.ts). */
export const DEBIT_ANSWERS = ['PAGA', 'REJEITADA_SALDO', 'REJEITADA', 'SEM_RESPOSTA'] as const

/**
 * How the simulated payers of an account's recurrences behave when nobody steers them: for every
 * payer of the account (no `document`), or for the debtor with that CPF or CNPJ. At most one per
 * account and document (checked on load).
 */
export const PayerBehaviourSchema = Open({
  id: Id,
  accountId: Id,
  document: Type.Optional(Type.String({ pattern: '^(\\d{11}|[0-9A-Z]{14})$' })),
  /** The answer to a confirmation request (journey 1) once it reaches the payer. */
  authorization: OneOf(AUTHORIZATION_ANSWERS),
  /** The code of a rejection (AP13 when absent). */
  rejectionCode: Type.Optional(OneOf(REC_REJEICAO_CODIGOS)),
  /** The most a charge may take, set on approving a variable value. */
  valorMaximoCents: Type.Optional(Cents),
  debit: OneOf(DEBIT_ANSWERS),
  createdAt: Instant,
  updatedAt: Instant,
})
