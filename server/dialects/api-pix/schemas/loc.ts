import { Type } from '@sinclair/typebox'
import { IsoDate, StringEnum } from '../../../schemas/common.js'
import { Instant, Paginacao, paging } from '../../../schemas/central-bank.js'
import { NewestFirstQuery, NextCursor } from '../../../schemas/sandbox.js'
import { ApiPixLocation } from './cob.js'

/** The payload locations of BACEN's API Pix 2.9.0 (tag PayloadLocation): POST /loc, GET /loc, GET /loc/{id}, DELETE /loc/{id}/txid. */

const TipoCob = StringEnum(['cob', 'cobv'] as const)

export const LocBody = Type.Object({ tipoCob: TipoCob })

export const LocParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the location\'s id' }) })

/** PayloadLocation and PayloadLocationCompleta: `txid` while it serves a charge. */
export const LocView = Type.Object({
  id: Type.Integer(),
  location: ApiPixLocation,
  tipoCob: TipoCob,
  criacao: IsoDate(),
  txid: Type.Optional(Type.String()),
})

export const LocListQuery = Type.Object({
  inicio: Instant('RFC 3339: locations created at or after it'),
  fim: Instant('RFC 3339: locations created at or before it'),
  txIdPresente: Type.Optional(Type.Boolean({ description: 'whether the location serves a charge' })),
  tipoCob: Type.Optional(TipoCob),
  ...paging,
})

export const LocList = Type.Object({
  parametros: Type.Object({ inicio: Type.String(), fim: Type.String(), txIdPresente: Type.Optional(Type.Boolean()), tipoCob: Type.Optional(Type.String()), paginacao: Paginacao }),
  loc: Type.Array(LocView),
})

/** A location as the control plane shows it (`GET /__sandbox/locations`): its account, and the transaction of the charge it serves. */
export const SandboxLocView = Type.Object({
  ...LocView.properties,
  accountId: Type.Integer(),
  chargeId: Type.Optional(Type.String({ description: 'The transaction (GET /__sandbox/transactions/{id}) of the charge it serves, while it serves one' })),
})

export const SandboxLocListQuery = NewestFirstQuery('locations')

export const SandboxLocList = Type.Object({ locations: Type.Array(SandboxLocView, { description: 'the last made first' }), nextCursor: NextCursor('locations') })
