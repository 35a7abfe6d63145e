import { Type } from '@sinclair/typebox'
import { IsoDate, StringEnum } from '../../../schemas/common.js'
import { Instant, Paginacao, paging } from '../../../schemas/central-bank.js'
import { NewestFirstQuery, NextCursor } from '../../../schemas/sandbox.js'
import { ApiPixCobVBody, ApiPixCobVParams, ApiPixCobVPatchBody } from './cobv.js'

/**
 * The batches of due charges of BACEN's API Pix 2.9.0 (tag LoteCobV): PUT and PATCH /lotecobv/{id}
 * (202, processed later), GET one and the list. Each request of a batch is a cobv's, with its txid;
 * its structure is checked here (a broken one refuses the whole batch), its rules when it is processed.
 */

export const LoteCobVParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the batch\'s id, chosen by the receiver (a positive integer: API Pix shows it as one)' }),
})

const Txid = ApiPixCobVParams.properties.txid

export const LoteCobVBody = Type.Object({
  descricao: Type.String({ maxLength: 1000 }),
  cobsv: Type.Array(Type.Object({ txid: Txid, ...ApiPixCobVBody.properties }), { minItems: 1, maxItems: 1000, description: 'the cobvs\' creation requests; on an existing batch, those of the very same txids' }),
})

export const LoteCobVPatchBody = Type.Object({
  descricao: Type.Optional(Type.String({ maxLength: 1000 })),
  cobsv: Type.Optional(Type.Array(Type.Object({ txid: Txid, ...ApiPixCobVPatchBody.properties }), { maxItems: 1000, description: 'revisions of some of the batch\'s cobvs' })),
})

const Problema = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  violacoes: Type.Optional(Type.Array(Type.Object({ razao: Type.String(), propriedade: Type.Optional(Type.String()), valor: Type.Optional(Type.String()) }))),
})

/** LoteCobVConsultado: each request's status (EM_PROCESSAMENTO, CRIADA, NEGADA), its problem once refused. */
export const LoteCobVView = Type.Object({
  id: Type.Integer(),
  descricao: Type.String(),
  criacao: IsoDate(),
  cobsv: Type.Array(Type.Object({
    txid: Type.String(),
    status: StringEnum(['EM_PROCESSAMENTO', 'CRIADA', 'NEGADA'] as const),
    problema: Type.Optional(Problema),
    criacao: Type.Optional(IsoDate('when its cobv was created')),
  })),
})

export const LoteCobVListQuery = Type.Object({
  inicio: Instant('RFC 3339: batches created at or after it'),
  fim: Instant('RFC 3339: batches created at or before it'),
  ...paging,
})

export const LoteCobVList = Type.Object({
  parametros: Type.Object({ inicio: Type.String(), fim: Type.String(), paginacao: Paginacao }),
  lotes: Type.Array(LoteCobVView),
})

/** A batch as the control plane shows it (`GET /__sandbox/cobv-batches`): LoteCobVConsultado and its account. */
export const SandboxLoteCobVView = Type.Object({ ...LoteCobVView.properties, accountId: Type.Integer() })

export const SandboxLoteCobVListQuery = NewestFirstQuery('batches')

export const SandboxLoteCobVList = Type.Object({ batches: Type.Array(SandboxLoteCobVView, { description: 'the last made first' }), nextCursor: NextCursor('batches') })
