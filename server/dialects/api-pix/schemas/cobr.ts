import { Type } from '@sinclair/typebox'
import { IsoDate, StringEnum } from '../../../schemas/common.js'
import { Instant, Paginacao, paging } from '../../../schemas/central-bank.js'
import { ClockView, NewestFirstQuery, NextCursor } from '../../../schemas/sandbox.js'
import { COBR_REJEICAO_CODIGOS, COBR_STATUSES, TENTATIVA_STATUSES, TENTATIVA_TIPOS, TIPOS_CONTA } from '../../../domain/cobr.js'
import { POLITICAS_RETENTATIVA } from '../../../domain/rec.js'
import { COBR_CANCELAMENTO_CODIGOS } from '../../../domain/rec-lifecycle.js'
import { FORCED_OUTCOMES } from '../../../domain/cobr-debits.js'
import { RecCompleta } from './rec.js'

/**
 * The recurring charges of BACEN's API Pix 2.9.0 (tag CobR, Pix Automático): PUT, POST, PATCH and GET
 * /cobr, the retry, and the answers. The body's shape is checked here; its rules (dates, the recurrence,
 * the cycle, the value) by the domain (cobr.ts), in API Pix's words.
 */

const TxId = Type.String({ pattern: '^[a-zA-Z0-9]{26,35}$', description: 'the charge\'s txid: 26 to 35 letters and digits' })
const CalendarDate = (description: string) => Type.String({ format: 'date', description })
const Decimal = (description: string) => Type.String({ maxLength: 13, description })

export const CobRParams = Type.Object({ txid: TxId })

export const CobRRetryParams = Type.Object({
  txid: TxId,
  data: Type.String({ maxLength: 32, description: 'YYYY-MM-DD: the date the retry settles on (after today, within the retry window of the charge\'s recurrence)' }),
})

const Devedor = Type.Object({
  email: Type.Optional(Type.String()),
  logradouro: Type.Optional(Type.String({ maxLength: 200 })),
  cidade: Type.Optional(Type.String({ maxLength: 200 })),
  uf: Type.Optional(Type.String({ maxLength: 2 })),
  cep: Type.Optional(Type.String({ maxLength: 9, description: 'up to 9 characters: API Pix\'s own example writes it with its hyphen' })),
})

const DadosBancarios = {
  conta: Type.String({ maxLength: 20 }),
  tipoConta: StringEnum(TIPOS_CONTA),
  agencia: Type.Optional(Type.String({ maxLength: 4 })),
}

/** CobRSolicitada. */
export const CobRBody = Type.Object({
  idRec: Type.String({ description: 'an approved recurrence of the account' }),
  infoAdicional: Type.Optional(Type.String({ maxLength: 140 })),
  calendario: Type.Object({ dataDeVencimento: CalendarDate('at least 2 days ahead, within the recurrence\'s term, one charge per cycle') }),
  valor: Type.Object({ original: Decimal('\\d{1,10}\\.\\d{2}; with a fixed value, the recurrence\'s valorRec') }),
  ajusteDiaUtil: Type.Optional(Type.Boolean({ description: 'true when absent: the first attempt moves to the next business day' })),
  recebedor: Type.Object(DadosBancarios),
  devedor: Type.Optional(Devedor),
})

/** CobRRevisada: status CANCELADA cancels the charge before its first attempt's date. */
export const CobRPatchBody = Type.Object({
  status: Type.Optional(Type.String({ description: 'CANCELADA' })),
})

const Atualizacao = <T extends readonly string[]>(statuses: T) => Type.Array(Type.Object({ status: StringEnum(statuses), data: IsoDate() }))
const Rejeicao = Type.Object({ codigo: StringEnum(COBR_REJEICAO_CODIGOS), descricao: Type.String() })

const Tentativa = Type.Object({
  dataLiquidacao: CalendarDate('the day its debit runs'),
  tipo: StringEnum(TENTATIVA_TIPOS),
  endToEndId: Type.String(),
  status: StringEnum(TENTATIVA_STATUSES),
  atualizacao: Atualizacao(TENTATIVA_STATUSES),
  rejeicao: Type.Optional(Rejeicao),
})

const Encerramento = Type.Object({
  cancelamento: Type.Optional(Type.Object({
    solicitante: StringEnum(['PSP_PAGADOR', 'USUARIO_PAGADOR', 'PSP_RECEBEDOR', 'USUARIO_RECEBEDOR'] as const),
    codigo: StringEnum(COBR_CANCELAMENTO_CODIGOS),
    descricao: Type.String(),
  })),
  rejeicao: Type.Optional(Rejeicao),
})

const PixRecorrente = Type.Object({
  endToEndId: Type.String(),
  txid: Type.String(),
  valor: Type.String(),
  horario: IsoDate(),
  devolucoes: Type.Array(Type.Object({
    id: Type.String(),
    rtrId: Type.String(),
    valor: Type.String(),
    natureza: Type.Optional(Type.String()),
    descricao: Type.Optional(Type.String()),
    horario: Type.Object({ solicitacao: IsoDate(), liquidacao: Type.Optional(IsoDate()) }),
    status: Type.String(),
    motivo: Type.Optional(Type.String()),
  })),
})

/** CobRGerada and CobRCompleta: the receiver named by its account, the attempts once there are some, the PIX once paid. */
export const CobRView = Type.Object({
  idRec: Type.String(),
  txid: Type.String(),
  infoAdicional: Type.Optional(Type.String()),
  calendario: Type.Object({ criacao: CalendarDate('São Paulo date of creation'), dataDeVencimento: CalendarDate('due date') }),
  valor: Type.Object({ original: Type.String() }),
  ajusteDiaUtil: Type.Boolean(),
  status: StringEnum(COBR_STATUSES),
  politicaRetentativa: StringEnum(POLITICAS_RETENTATIVA),
  devedor: Type.Optional(Devedor),
  recebedor: Type.Object({ cnpj: Type.String(), nome: Type.String(), ...DadosBancarios }),
  pix: Type.Optional(Type.Array(PixRecorrente)),
  tentativas: Type.Optional(Type.Array(Tentativa)),
  atualizacao: Atualizacao(COBR_STATUSES),
  encerramento: Type.Optional(Encerramento),
})

/** CobRNotification: what `{webhookUrl}/cobr` receives, in `{ cobsr: [...] }`. */
export const CobRNotificationView = Type.Object({
  idRec: Type.String(),
  txid: Type.String(),
  status: StringEnum(COBR_STATUSES),
  atualizacao: Atualizacao(COBR_STATUSES),
  encerramento: Type.Optional(Encerramento),
  tentativas: Type.Optional(Type.Array(Tentativa)),
  pix: Type.Optional(Type.Array(PixRecorrente)),
})

export const CobRListQuery = Type.Object({
  inicio: Instant('RFC 3339: charges created at or after it'),
  fim: Instant('RFC 3339: charges created at or before it'),
  idRec: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9]{29}$' })),
  cpf: Type.Optional(Type.String({ pattern: '^\\d{11}$', description: 'the recurrence\'s debtor; not with cnpj' })),
  cnpj: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{14}$', description: 'the recurrence\'s debtor; not with cpf' })),
  status: Type.Optional(StringEnum(COBR_STATUSES)),
  convenio: Type.Optional(Type.String({ maxLength: 60, description: 'the recurrence\'s recebedor.convenio' })),
  ...paging,
})

export const CobRList = Type.Object({
  parametros: Type.Object({
    inicio: Type.String(),
    fim: Type.String(),
    idRec: Type.Optional(Type.String()),
    cpf: Type.Optional(Type.String()),
    cnpj: Type.Optional(Type.String()),
    status: Type.Optional(Type.String()),
    recebedor: Type.Optional(Type.Object({ convenio: Type.String() })),
    paginacao: Paginacao,
  }),
  cobsr: Type.Array(CobRView),
})

// ---- the control plane ---------------------------------------------------------------------------

export const SandboxRecurrenceListQuery = NewestFirstQuery('recurrences')

/** A recurrence's recurring charges counted: what the list shows of them (GET /__sandbox/recurrences/{idRec} shows them whole). */
export const CobRSummaryView = Type.Object({
  total: Type.Integer({ description: 'how many recurring charges it has' }),
  byStatus: Type.Object(Object.fromEntries(COBR_STATUSES.map(s => [s, Type.Optional(Type.Integer())])), { additionalProperties: false, description: 'how many are in each status (a status none is in is absent)' }),
})

/** A recurrence as the control plane lists it: as GET /rec/{idRec} shows it, with its account and its charges counted. */
export const SandboxRecurrenceSummary = Type.Object({ ...RecCompleta.properties, accountId: Type.Integer(), charges: CobRSummaryView }, { additionalProperties: true })

export const SandboxRecurrenceList = Type.Object({
  recurrences: Type.Array(SandboxRecurrenceSummary, { description: 'the last made first' }),
  nextCursor: NextCursor('recurrences'),
})

/** One recurrence for the control plane: as GET /rec/{idRec} shows it, with its account and its charges as GET /cobr/{txid} shows them, oldest first. */
export const SandboxRecurrenceDetail = Type.Object({ ...RecCompleta.properties, accountId: Type.Integer(), cobsr: Type.Array(CobRView) }, { additionalProperties: true })

export const NextDebitParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the account' }),
  txid: TxId,
})

export const NextDebitBody = Type.Object({
  outcome: StringEnum(FORCED_OUTCOMES, { description: 'PAID: the debit is paid; INSUFFICIENT_FUNDS: the attempt ends EXPIRADA; REFUSED: REJEITADA with codigo; NO_ANSWER: it expires at midnight' }),
  codigo: Type.Optional(StringEnum(COBR_REJEICAO_CODIGOS, { description: 'REFUSED\'s rejection code (AC06 by default)' })),
})

export const NextDebitView = Type.Object({
  accountId: Type.Integer(),
  txid: Type.String(),
  status: StringEnum(COBR_STATUSES),
  nextDebit: NextDebitBody,
  dueAt: Type.Union([IsoDate('when its next timed step runs'), Type.Null()]),
})

export const NextDueBody = Type.Object({
  accountId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'only this account\'s recurring charges' })),
})

export const NextDueView = Type.Object({
  clock: ClockView,
  debit: Type.Union([
    Type.Object({
      accountId: Type.Integer(),
      txid: Type.String(),
      at: IsoDate('when its debit ran'),
      status: StringEnum(COBR_STATUSES, { description: 'the charge\'s status after it' }),
    }),
    Type.Null(),
  ], { description: 'the debit the clock moved to; null, the clock unmoved, when no live recurring charge has one to come' }),
})
