/**
 * The asynchronous errors of docs/gateway.md §6.4: what a settlement (or POST
 * /__sandbox/transactions/:id/fail) can end with. The one list: the schema of the control plane, the
 * scenario catalogue and the dashboard derive from it.
 */
export const ASYNC_ERROR_CODES = ['TAX_ID_MISMATCH', 'INVALID_TAX_ID', 'BLOCKED_ACCOUNT', 'ACCOUNT_CLOSED', 'ORDER_REJECTED', 'PAYMENT_EXPIRED', 'SETTLEMENT_TIMEOUT'] as const
export type AsyncErrorCode = typeof ASYNC_ERROR_CODES[number]

export const ASYNC_ERROR_MESSAGES: Record<AsyncErrorCode, string> = {
  TAX_ID_MISMATCH: 'O CPF/CNPJ informado não corresponde ao titular da chave PIX',
  INVALID_TAX_ID: 'CPF/CNPJ do recebedor inválido',
  BLOCKED_ACCOUNT: 'Conta de destino bloqueada judicialmente',
  ACCOUNT_CLOSED: 'Conta de destino encerrada',
  ORDER_REJECTED: 'Pagamento rejeitado pela instituição de destino',
  PAYMENT_EXPIRED: 'Pagamento expirou antes de ser processado; envie novamente',
  SETTLEMENT_TIMEOUT: 'A instituição de destino não respondeu a tempo; envie novamente',
}
