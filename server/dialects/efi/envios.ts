import { parseDecimalString } from '../../domain/money.js'
import type { CashOutKeyType } from '../../domain/keys.js'
import { Refusal, invalidRequest } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import { directoryKeyOf } from '../../services/directory.js'
import { PAYOUT_SCOPE } from '../../services/payouts.js'
import { bacenList, type Window } from '../shared/bacen-list.js'
import type { Account, Counterpart } from '../../store/state.js'
import type { AppliedScenario } from '../../../scenarios/types.js'
import { envioOf, envioView, ENVIO_STATUS, type Envio } from './views.js'
import type { PixQrCodePayBodyType, PixSendBodyType, PixSentListQueryType } from './schemas.js'

/**
 * Efí's pay-outs (docs/efi.md, Pay-outs) over the sandbox's pay-outs: the rules Efí adds before one is
 * made (the payer's key is the account's and has a webhook; the idEnvio is new; the favorecido's key is
 * in the directory and its holder's document the one sent), then the pay-out service's cash-out (to a
 * key or to account data) or cash-out by QR code, with its ledger, limits, fees and scenarios; and the
 * reads of what was sent.
 */

/** The route a pay-out came by: v3 and v2 differ only in how an unknown favorecido key is refused. */
export type SendRoute = 'v3' | 'v2' | 'mesma-titularidade'

/** Efí's test key (docs/efi.md, Homologação): the only key a pay-out by key reaches in homologação. */
export const HOMOLOGACAO_KEY = 'efipay@sejaefi.com.br'

/** Who holds it: Efí itself. */
const HOMOLOGACAO_HOLDER: Counterpart = { name: 'EFI S.A. - INSTITUICAO DE PAGAMENTO', document: '09089356000118', ispb: '09089356', bankName: 'EFI S.A.', bankCode: '364', accountBranch: '0001', accountNumber: '1' }

/** The scenario that fails a pay-out of R$ 10.01 to 20.00 in homologação (by webhook, after the 201). */
const HOMOLOGACAO_REJECTION: AppliedScenario = { name: 'SETTLEMENT_TIMEOUT', params: {} }

const DIRECTORY_TO_CASH_OUT: Readonly<Record<string, CashOutKeyType>> = { CPF: 'DOCUMENT', CNPJ: 'DOCUMENT', EMAIL: 'EMAIL', PHONE: 'PHONE', EVP: 'RANDOM' }

export class Envios {
  constructor (private readonly sb: Sandbox) {}

  /** `pagador.chave`: a key the account holds, in canonical form, whose API Pix webhook will hear the pay-out. */
  private senderKey (account: Account, chave: string): string {
    const key = this.sb.directory.keys.canonical(chave)
    if (key === null || !this.sb.directory.keys.holds(account, key)) throw new Refusal('EFI_PAYER_KEY_INVALID', 'A chave informada não faz referência à conta Efí autenticada')
    if (this.sb.apiPixWebhooks.pixCallbackUrl(account.id, key) === undefined) {
      throw new Refusal('EFI_NO_WEBHOOK', `A chave Pix do pagador não possui um webhook associado: configure-o em PUT /v2/webhook/${chave}`)
    }
    return key
  }

  /** A reused idEnvio is refused whatever the body, and nothing is debited (the pay-out service checks it again in its unit). */
  private fresh (account: Account, idEnvio: string): void {
    if (this.sb.store.transactionByExternalId(account.id, PAYOUT_SCOPE, idEnvio) !== undefined) {
      throw new Refusal('PIX_DUPLICATE_EXTERNAL_ID', 'O id de envio informado já foi utilizado em outro pagamento')
    }
  }

  /** PUT /v3/gn/pix/:idEnvio, /v2/gn/pix/:idEnvio and /v2/gn/pix/:idEnvio/mesma-titularidade. */
  send (account: Account, idEnvio: string, body: PixSendBodyType, route: SendRoute, asked: AppliedScenario[]): Envio {
    let scenarios = asked
    this.fresh(account, idEnvio)
    const amount = parseDecimalString(body.valor)
    if (!amount.ok || amount.cents <= 0) throw invalidRequest(['Campo valor deve ser maior que zero'])
    const { chave, contaBanco } = body.favorecido
    if ((chave === undefined) === (contaBanco === undefined)) throw invalidRequest(['Informe favorecido.chave ou favorecido.contaBanco (um dos dois)'])
    const senderKey = this.senderKey(account, body.pagador.chave)
    const sameOwner = route === 'mesma-titularidade'
    let to: Parameters<Sandbox['payouts']['createTransfer']>[1]['to']
    const homologacao = account.efiHomologacao === true && chave !== undefined
    if (homologacao) {
      // Efí's homologação (docs/efi.md): by key, only its test key; above R$ 20.00 refused on the request,
      // R$ 10.01 to 20.00 accepted and then rejected by webhook, up to R$ 10.00 confirmed. By account data: no change.
      if (chave.toLowerCase() !== HOMOLOGACAO_KEY) throw new Refusal('PIX_INVALID_PIX_KEY', `A chave informada é inválida: em homologação, envios por chave só são feitos para ${HOMOLOGACAO_KEY}`)
      if (amount.cents > 2000) throw new Refusal('EFI_PAYMENT_DENIED', 'Pagamento negado por análises (homologação: valores acima de R$ 20.00 são rejeitados na requisição)')
      if (amount.cents > 1000) scenarios = [...scenarios, HOMOLOGACAO_REJECTION]
      // R$ 4.00 comes back as two devoluções of R$ 2.00, R$ 5.00 as one of R$ 5.00.
      if (amount.cents === 400 || amount.cents === 500) scenarios = [...scenarios, { name: 'PAYOUT_RETURNED', params: { parts: amount.cents === 400 ? '2' : '1' } }]
      to = { key: HOMOLOGACAO_KEY, keyType: 'EMAIL', holder: HOMOLOGACAO_HOLDER }
    } else if (chave !== undefined) {
      const key = directoryKeyOf(chave)
      if (key === null) throw new Refusal('PIX_INVALID_PIX_KEY', `A chave do favorecido "${chave}" não é uma chave Pix válida`)
      const listed = this.sb.directory.holders.listed(key.key)
      if (listed === undefined) {
        throw route === 'v2'
          ? new Refusal('PIX_INVALID_PIX_KEY', 'A chave do favorecido não foi encontrada')
          : new Refusal('EFI_RECEIVER_KEY_NOT_FOUND', 'A chave do favorecido não foi encontrada')
      }
      const sent = body.favorecido.cpf ?? body.favorecido.cnpj
      if (sent !== undefined && sent !== listed.counterpart.document) {
        throw new Refusal('EFI_DOCUMENT_MISMATCH', `O ${body.favorecido.cpf !== undefined ? 'cpf' : 'cnpj'} do favorecido é diferente do documento em posse da chave`)
      }
      if (sameOwner && listed.counterpart.document !== account.document) throw new Refusal('EFI_DOCUMENT_MISMATCH', 'O favorecido não pertence ao mesmo titular da conta')
      to = { key: key.key, keyType: DIRECTORY_TO_CASH_OUT[key.keyType], holder: listed.counterpart }
    } else {
      const bank = contaBanco!
      const document = bank.cpf ?? bank.cnpj
      if (document === undefined || (bank.cpf !== undefined && bank.cnpj !== undefined)) throw invalidRequest(['Informe favorecido.contaBanco.cpf ou favorecido.contaBanco.cnpj (um dos dois)'])
      if (sameOwner && document !== account.document) throw new Refusal('EFI_DOCUMENT_MISMATCH', 'O favorecido não pertence ao mesmo titular da conta')
      const holder: Counterpart = { name: bank.nome, document, ispb: bank.codigoBanco, bankName: `ISPB ${bank.codigoBanco}`, bankCode: null, accountBranch: bank.agencia, accountNumber: bank.conta }
      to = { account: holder, accountType: bank.tipoConta }
    }
    return this.sb.payouts.createTransfer(account, {
      externalId: idEnvio,
      amountCents: amount.cents,
      ...(body.pagador.infoPagador !== undefined ? { description: body.pagador.infoPagador } : {}),
      senderKey,
      to,
    }, scenarios)
  }

  /** PUT /v2/gn/pix/:idEnvio/qrcode: the code's amount, paid as the gateway's cash-out by QR code pays it. */
  payCode (account: Account, idEnvio: string, body: PixQrCodePayBodyType, scenarios: AppliedScenario[]): Envio {
    this.fresh(account, idEnvio)
    const senderKey = this.senderKey(account, body.pagador.chave)
    const { tx, error } = this.sb.payouts.createQrCashOut(account, {
      qrCode: body.pixCopiaECola,
      externalId: idEnvio,
      ...(body.pagador.infoPagador !== undefined ? { description: body.pagador.infoPagador } : {}),
      senderKey,
    }, scenarios)
    if (error !== undefined) throw error
    return tx
  }

  /** A pay-out as the reads show it, with the devoluções received on it. */
  view (tx: Envio) {
    return envioView(tx, this.sb.refunds.returnsOf(tx))
  }

  /** GET /v2/gn/pix/enviados/id-envio/:idEnvio. */
  byIdEnvio (account: Account, idEnvio: string): Envio {
    const tx = envioOf(this.sb.store.transactionByExternalId(account.id, PAYOUT_SCOPE, idEnvio))
    if (tx === undefined) throw new Refusal('NOT_FOUND', 'Pix enviado não encontrado para o idEnvio informado.')
    return tx
  }

  /** GET /v2/gn/pix/enviados/:e2eId: a pay-out of the account only. */
  byEndToEndId (account: Account, e2eId: string): Envio {
    const tx = envioOf(this.sb.store.transactionByEndToEndId(e2eId))
    if (tx === undefined || tx.accountId !== account.id) throw new Refusal('NOT_FOUND', 'Pix enviado não encontrado para o e2eId informado.')
    return tx
  }

  /** GET /v2/gn/pix/enviados: the account's pay-outs asked within [inicio, fim], oldest first, paged (one way with BACEN's lists: shared/bacen-list.ts). */
  list (account: Account, q: PixSentListQueryType) {
    const { parametros, items } = bacenList(q, w => this.envios(account, w), {
      at: tx => tx.createdAt,
      filters: {
        status: (tx, asked) => ENVIO_STATUS[tx.status] === (asked === 'CONCLUIDA' ? 'REALIZADO' : asked),
        cpf: (tx, document) => (tx.counterpart?.document ?? tx.data.document) === document,
        cnpj: (tx, document) => (tx.counterpart?.document ?? tx.data.document) === document,
        devolucaoPresente: (tx, present) => (this.sb.refunds.returnsOf(tx).length > 0) === present,
      },
      echo: ['status', 'cpf', 'cnpj'],
      order: (a, b) => a.seq - b.seq,
    })
    return { parametros, pix: items.map(tx => this.view(tx)) }
  }

  /** The account's pay-outs of these routes made within the window, from the pay-out service's index of them. */
  private * envios (account: Account, created: Window): Iterable<Envio> {
    for (const t of this.sb.payouts.sentFromKeysOf(account.id, created)) {
      const tx = envioOf(t)
      if (tx !== undefined) yield tx
    }
  }
}
