import { Type } from '@sinclair/typebox'
import { IsoDate, StringEnum } from '../../../schemas/common.js'
import { CobBody, CobParams, CobPatchBody, CobResponse } from '../../../schemas/payins.js'
import { COB_STATUSES, CobList, CobListQuery } from '../../../schemas/central-bank.js'
import { LOCATION_MAX_LENGTH } from '../../../domain/payload-locations.js'
import { ApiPixPix } from './pix.js'

/**
 * The immediate charge of BACEN's API Pix 2.9.0 (tag Cob): the gateway's request with API Pix's
 * own rules (chave required, a location by `loc.id`), and its answer, where `location` is the payload
 * URL and `pixCopiaECola` the BR Code that carries it.
 */

export const ApiPixCobParams = CobParams

const LocId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'a location of the account (POST /loc), of tipoCob cob, serving no other charge' })

/**
 * CobSolicitada: valor and chave required. The schema requires calendario too, but API Pix's own
 * examples of a Pix Saque or Troco (cobBody6, 8, 9) have none, and the example wins: expiracao 86400.
 */
export const ApiPixCobBody = Type.Object({
  ...CobBody.properties,
  calendario: Type.Optional(CobBody.properties.calendario),
  chave: Type.String({ minLength: 1, maxLength: 77, description: 'the receiver\'s key' }),
  loc: Type.Optional(Type.Object({ id: LocId })),
})

/** CobRevisada: every field optional; the receiver cancels with the status, alone. */
export const ApiPixCobPatchBody = CobPatchBody

export const ApiPixCobQuery = Type.Object({
  revisao: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'the revision to read: the current one (the sandbox keeps no other)' })),
})

export const ApiPixLocation = Type.String({ maxLength: LOCATION_MAX_LENGTH, description: 'the payload URL, without scheme: <host>/qr/v2/<token>' })

/** PayloadLocation as a cob shows it. */
const CobLoc = Type.Object({
  id: Type.Integer(),
  location: ApiPixLocation,
  tipoCob: StringEnum(['cob', 'cobv'] as const),
  criacao: IsoDate(),
  txid: Type.String(),
})

/** CobGerada and CobCompleta: `loc`, `location` and `pixCopiaECola` while the cob has a location. */
export const ApiPixCob = Type.Object({
  ...CobResponse.properties,
  loc: Type.Optional(CobLoc),
  location: Type.Optional(ApiPixLocation),
  status: StringEnum(COB_STATUSES),
  pixCopiaECola: Type.Optional(Type.String({ maxLength: 512, description: 'the BR Code; its tag 26-25 is `location`' })),
  pix: Type.Optional(Type.Array(ApiPixPix, { description: 'the PIX received, once CONCLUIDA, as GET /pix/{e2eid} shows them' })),
})

export const ApiPixCobListQuery = CobListQuery

export const ApiPixCobList = Type.Object({
  parametros: CobList.properties.parametros,
  cobs: Type.Array(ApiPixCob),
})
