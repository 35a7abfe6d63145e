import { Type } from '@sinclair/typebox'

export const StandardBalance = Type.Object({
  grossBalance: Type.Number({ description: 'available + blocked' }),
  blockedBalance: Type.Number({ description: 'reserved for operations in processing' }),
  netBalance: Type.Number({ description: 'available' }),
  consultedAt: Type.String({ format: 'date-time' }),
}, { $id: 'StandardBalance' })

export const CentralBankBalances = Type.Object({
  data: Type.Array(Type.Object({
    eventDate: Type.String({ format: 'date-time' }),
    balanceAmount: Type.Object({
      available: Type.Number(),
      blocked: Type.Number(),
      overdraft: Type.Number({ description: 'not implemented by the gateway: always 0' }),
    }),
  })),
}, { $id: 'CentralBankBalances' })
