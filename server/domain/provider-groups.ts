// Who checks a cash-out's details.document against the key holder (docs/gateway.md §2.4): the settlement
// provider of the account, by group. The gateway itself never compares them.

export type ProviderGroup = 'A' | 'B' | 'C' | 'D' | 'E'

/**
 * Whether the account's provider compares the document with the key holder's. A always; B and D
 * only with the account's documentCheck on (B "no, by default", D "not guaranteed"); C and E never
 * (C forwards the field unchecked, E does not send it).
 */
export function checksDocument (group: string, documentCheck: boolean): boolean {
  switch (group) {
    case 'A': return true
    case 'B':
    case 'D': return documentCheck
    default: return false
  }
}

/**
 * The same question under the DOCUMENT_MISMATCH scenario, which simulates a provider that finds
 * the mismatch: groups whose check is optional (B, D) are taken with it on, so the scenario refuses
 * there; C and E still never check, so the payment completes to the key owner.
 */
export function checksDocumentWhenSimulated (group: string): boolean {
  return checksDocument(group, true)
}
