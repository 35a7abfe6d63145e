import { Type } from '@sinclair/typebox'
import { Text, Open, OneOf } from './schema.js'

/** The key directory (docs/gateway.md §2.3): who holds a key, at which institution. */

export const DirectoryEntrySchema = Open({
  key: Text,
  keyType: OneOf(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']),
  name: Text,
  document: Text,
  ispb: Text,
  bankName: Text,
  bankCode: Type.Optional(Text),
  accountBranch: Type.Optional(Text),
  accountNumber: Type.Optional(Text),
  /** Status of the destination account, used by the asynchronous settlement errors. */
  accountStatus: Type.Optional(OneOf(['ACTIVE', 'BLOCKED', 'CLOSED'])),
})
