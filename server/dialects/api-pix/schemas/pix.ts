import { Type } from '@sinclair/typebox'
import { IsoDate } from '../../../schemas/common.js'
import { Paginacao, PixListQuery } from '../../../schemas/central-bank.js'
import { DevolucaoBody, DevolucaoParams, DevolucaoView } from '../../../schemas/payins.js'

/**
 * The received PIX of BACEN's API Pix 2.9.0 (tag Pix): GET /pix/{e2eid}, GET /pix, and their
 * devoluções, PUT and GET /pix/{e2eid}/devolucao/{id}. A PIX shows only what API Pix's `Pix` defines.
 */

const Valor = Type.Object({ valor: Type.String({ description: 'a decimal with 2 places' }) })

/** Pix: `txid` only for a PIX that paid a charge of API Pix (a cob, a cobv), `chave` the key it was paid to. */
export const ApiPixPix = Type.Object({
  endToEndId: Type.String(),
  txid: Type.Optional(Type.String({ description: 'the txid (26 to 35 characters) of the cob or cobv the PIX paid; absent for any other PIX' })),
  valor: Type.String({ description: 'a decimal with 2 places' }),
  componentesValor: Type.Optional(Type.Object({
    original: Type.Optional(Valor),
    juros: Type.Optional(Valor),
    multa: Type.Optional(Valor),
    abatimento: Type.Optional(Valor),
    desconto: Type.Optional(Valor),
  }, { description: 'what the value of a PIX that paid a charge is made of' })),
  chave: Type.Optional(Type.String({ description: 'the receiver\'s key the charge names' })),
  horario: IsoDate(),
  devolucoes: Type.Array(DevolucaoView),
})

export const ApiPixPixParams = Type.Object({ e2eid: Type.String({ minLength: 1, maxLength: 100, description: 'the endToEndId of a PIX the account received (32 alphanumerics)' }) })

/** GET /pix's parameters: the gateway's, with API Pix's txid (26 to 35 alphanumerics, as Pix.txid). */
export const ApiPixPixListQuery = Type.Object({
  ...PixListQuery.properties,
  txid: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9]{26,35}$' })),
})

export const ApiPixPixList = Type.Object({
  parametros: Type.Object({
    inicio: Type.String(),
    fim: Type.String(),
    txid: Type.Optional(Type.String()),
    txIdPresente: Type.Optional(Type.Boolean()),
    devolucaoPresente: Type.Optional(Type.Boolean()),
    cpf: Type.Optional(Type.String()),
    cnpj: Type.Optional(Type.String()),
    paginacao: Paginacao,
  }),
  pix: Type.Array(ApiPixPix),
})

export const ApiPixDevolucaoParams = DevolucaoParams

/** A devolução to read: any e2eid and id, a devolução of the account or 404 (GET declares no 400). */
export const ApiPixDevolucaoReadParams = Type.Object({
  e2eid: ApiPixPixParams.properties.e2eid,
  id: Type.String({ minLength: 1, maxLength: 100, description: 'the devolução\'s id (1 to 35 alphanumerics)' }),
})

/** DevolucaoSolicitada: `natureza` ORIGINAL (the default) or RETIRADA. */
export const ApiPixDevolucaoBody = DevolucaoBody

export const ApiPixDevolucao = DevolucaoView
