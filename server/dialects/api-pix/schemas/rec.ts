import { Type } from '@sinclair/typebox'
import { REC_STATUSES } from '../../../domain/rec-types.js'
import { IsoDate, StringEnum } from '../../../schemas/common.js'
import { Instant, paging } from '../../../schemas/central-bank.js'
import { LocParams } from './loc.js'

/**
 * Pix Automático in BACEN's API Pix 2.9.0 (tags Rec, SolicRec, PayloadLocationRec, WebhookRec). The
 * bodies are checked by the domain (server/domain/rec.ts, solicrec.ts), which answers every violation
 * in API Pix's words, so their schemas only ask for a JSON object; the answers name their members and
 * carry the nested ones as domain/rec-types.ts defines them.
 */

const ANY_OBJECT = { additionalProperties: true } as const

/** A request body checked by the domain: any JSON object here. */
const CheckedBody = (description: string) => Type.Object({}, { ...ANY_OBJECT, description })

export const RecBody = CheckedBody('RecSolicitada: vinculo (contrato, devedor, objeto), calendario (dataInicial, dataFinal, periodicidade), valor (valorRec or valorMinimoRecebedor or neither), politicaRetentativa, recebedor.convenio, loc, ativacao.dadosJornada.txid')
export const RecPatchBody = CheckedBody('RecRevisada: loc, vinculo.devedor.nome, calendario.dataInicial, ativacao.dadosJornada.txid, status CANCELADA')
export const SolicRecBody = CheckedBody('SolicRecSolicitada: idRec, calendario.dataExpiracaoSolicitacao, destinatario (conta, ispbParticipante, agencia, cpf or cnpj)')
export const SolicRecPatchBody = CheckedBody('SolicRecRevisada: status CANCELADA')

export const RecParams = Type.Object({ idRec: Type.String({ minLength: 1, maxLength: 64, description: 'the recurrence\'s idRec' }) })
export const RecQuery = Type.Object({ txid: Type.Optional(Type.String({ minLength: 1, maxLength: 35, description: 'an immediate charge of the account: dadosQR composes the recurrence with it (journey 3)' })) })
export const SolicRecParams = Type.Object({ idSolicRec: Type.String({ minLength: 1, maxLength: 64, description: 'the request\'s idSolicRec' }) })
export const LocRecParams = LocParams

export const RecListQuery = Type.Object({
  inicio: Instant('RFC 3339: recurrences created at or after it'),
  fim: Instant('RFC 3339: recurrences created at or before it'),
  cpf: Type.Optional(Type.String({ pattern: '^\\d{11}$', description: 'the debtor\'s CPF; not with cnpj' })),
  cnpj: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{14}$', description: 'the debtor\'s CNPJ; not with cpf' })),
  locationPresente: Type.Optional(Type.Boolean({ description: 'whether a location serves the recurrence' })),
  status: Type.Optional(StringEnum(REC_STATUSES)),
  convenio: Type.Optional(Type.String({ maxLength: 60, description: 'the receiver\'s agreement' })),
  ...paging,
})

export const LocRecListQuery = Type.Object({
  inicio: Instant('RFC 3339: locations created at or after it'),
  fim: Instant('RFC 3339: locations created at or before it'),
  idRecPresente: Type.Optional(Type.Boolean({ description: 'whether the location serves a recurrence' })),
  convenio: Type.Optional(Type.String({ maxLength: 60, description: 'the agreement of the recurrence it serves' })),
  ...paging,
})

/** PayloadLocationRecCompleta: `idRec` while it serves a recurrence. */
export const LocRecView = Type.Object({
  id: Type.Integer(),
  location: Type.String({ description: 'the payload URL, without scheme: <host>/qr/v2/rec/<token>' }),
  criacao: IsoDate(),
  idRec: Type.Optional(Type.String()),
})

export const LocRecList = Type.Object({ parametros: Type.Object({}, ANY_OBJECT), loc: Type.Array(LocRecView) })

const recMembers = {
  idRec: Type.String(),
  vinculo: Type.Unknown(),
  calendario: Type.Unknown(),
  valor: Type.Unknown(),
  recebedor: Type.Unknown(),
  politicaRetentativa: Type.String(),
  status: StringEnum(REC_STATUSES),
  loc: Type.Optional(LocRecView),
  atualizacao: Type.Array(Type.Object({ status: Type.String(), data: Type.String() })),
  encerramento: Type.Optional(Type.Unknown()),
  ativacao: Type.Unknown(),
}

/** RecGerada: the answer of POST and PATCH. */
export const RecGerada = Type.Object(recMembers, ANY_OBJECT)

/** RecCompleta: with the payer once approved, the confirmation requests, and the code that carries it (dadosQR). */
export const RecCompleta = Type.Object({
  ...recMembers,
  pagador: Type.Optional(Type.Unknown()),
  solicitacao: Type.Optional(Type.Array(Type.Unknown())),
  dadosQR: Type.Optional(Type.Object({ jornada: Type.String(), pixCopiaECola: Type.String() })),
}, ANY_OBJECT)

export const RecList = Type.Object({ parametros: Type.Object({}, ANY_OBJECT), recs: Type.Array(RecCompleta) })

/** SolicRecCompleta. */
export const SolicRecView = Type.Object({
  idSolicRec: Type.String(),
  idRec: Type.String(),
  calendario: Type.Object({ dataExpiracaoSolicitacao: Type.String() }),
  destinatario: Type.Unknown(),
  status: Type.String(),
  atualizacao: Type.Array(Type.Object({ status: Type.String(), data: Type.String() })),
  recPayload: Type.Unknown(),
}, ANY_OBJECT)
