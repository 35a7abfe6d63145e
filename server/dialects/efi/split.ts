import { Refusal, invalidRequest } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import { centsToString } from '../../domain/money.js'
import { chargeData } from '../../services/charge-records.js'
import type { AppliedScenario } from '../../../scenarios/types.js'
import type { Account, PspSplitConfig, Transaction } from '../../store/state.js'
import type { SplitConfigBodyType } from './schemas.js'

/**
 * Efí's split configurations (docs/efi.md, Split): kept by the PSP settings service with every revision.
 * Its rules: only between accounts of this sandbox (a favorecido is named by the `accountNumber` its
 * account view shows, with its document), at most 20 repasses (the schema), never to the account itself,
 * all parts of one type, percentages adding up to 100, every value above zero, launched at once.
 */

/** Efí's split among the PSP records the sandbox keeps. */
export const EFI_SPLIT = 'efi'

const HUNDRED_PERCENT = 10_000

/** The unlink's last segment as sdk-node-apis-efi sends it, its placeholder unfilled (docs/efi.md, Split). */
const UNFILLED_CONFIG_ID = ':splitConfigId'

/** The charges a configuration links to. */
export type SplitChargeKind = 'COB' | 'COBV'

/** A value `"60.00"` in hundredths (cents, or hundredths of a percent). */
const hundredths = (valor: string): number => Math.round(Number(valor) * 100)

export class EfiSplit {
  constructor (private readonly sb: Sandbox) {}

  /** POST /v2/gn/split/config: a new configuration, its id chosen here (32 hex, as Efí's examples). */
  create (account: Account, body: SplitConfigBodyType) {
    this.check(account, body)
    let id = this.sb.rng.uuid().replace(/-/g, '')
    while (this.sb.pspSettings.splitConfig(account.id, EFI_SPLIT, id) !== undefined) id = this.sb.rng.uuid().replace(/-/g, '')
    return this.view(this.sb.pspSettings.putSplitConfig(account, EFI_SPLIT, id, body))
  }

  /** PUT /v2/gn/split/config/:id: a configuration of that id, or its next revision when it exists. */
  put (account: Account, id: string, body: SplitConfigBodyType) {
    this.check(account, body)
    return this.view(this.sb.pspSettings.putSplitConfig(account, EFI_SPLIT, id, body))
  }

  /** GET /v2/gn/split/config/:id: the newest revision, or the one asked for. */
  get (account: Account, id: string, revisao?: number) {
    const config = this.config(account, id)
    if (revisao !== undefined && revisao >= config.revisions.length) throw new Refusal('NOT_FOUND', `A revisão ${revisao} não existe para esta configuração: a mais recente é ${config.revisions.length - 1}`)
    return this.view(config, revisao)
  }

  /** The account's configuration of this id; 404 SplitConfigNaoEncontrado for any other. */
  private config (account: Account, id: string): PspSplitConfig {
    const config = this.sb.pspSettings.splitConfig(account.id, EFI_SPLIT, id)
    if (config === undefined) throw new Refusal('NOT_FOUND', 'Configuração de split não encontrada para o id informado.')
    return config
  }

  /**
   * PUT /v2/gn/split/{cob|cobv}/:txid/vinculo/:splitConfigId: an ATIVA charge takes the configuration's
   * newest revision, its repasses in cents of the charge's value, paid to their accounts when it is paid
   * (the sandbox's splits). A link replaces any link the charge had.
   */
  link (account: Account, kind: SplitChargeKind, txid: string, configId: string): void {
    const charge = this.charge(account, kind, txid, 'Cobrança não encontrada.')
    const config = this.sb.pspSettings.splitConfig(account.id, EFI_SPLIT, configId)
    if (config === undefined) throw new Refusal('NOT_FOUND', 'Configuração de Split não encontrada.')
    if (charge.status !== 'ATIVA') throw invalidRequest('A cobrança já existe, não está ATIVA, e a presente requisição busca vinculá-la.')
    const revisao = config.revisions.length - 1
    const { split } = config.revisions[revisao].config as SplitConfigBodyType
    if (split.minhaParte.tipo === 'fixo' && [split.minhaParte, ...split.repasses].reduce((sum, p) => sum + hundredths(p.valor), 0) !== charge.amountCents) {
      throw invalidRequest('O valor da cobrança não corresponde à soma dos valores fixos da configuração de split.')
    }
    const splits = split.repasses.map(r => {
      const document = r.favorecido.cpf ?? r.favorecido.cnpj ?? ''
      const amountCents = r.tipo === 'fixo' ? hundredths(r.valor) : Math.floor(charge.amountCents * hundredths(r.valor) / HUNDRED_PERCENT)
      const favorecido = this.sb.store.account(Number(r.favorecido.conta))
      // An account removed since the configuration was made.
      if (favorecido === undefined) throw invalidRequest('Uma das contas informadas na configuração dos repasses não existe.')
      return {
        pixKey: document,
        pixKeyType: r.favorecido.cpf !== undefined ? 'CPF' as const : 'CNPJ' as const,
        name: favorecido.name,
        document,
        type: r.tipo === 'fixo' ? 'FIXED' as const : 'PERCENTAGE' as const,
        value: Number(r.valor),
        immediate: true,
        amountCents,
        accountId: favorecido.id,
      }
    })
    this.sb.store.transact(() => {
      this.sb.splits.setSplits(charge, splits, { id: configId, revisao })
      this.sb.pspSettings.linkSplit(account, EFI_SPLIT, txid, configId, revisao)
    })
  }

  /** DELETE /v2/gn/split/{cob|cobv}/:txid/vinculo: an ATIVA charge's link removed, and its splits. */
  unlink (account: Account, kind: SplitChargeKind, txid: string, configId?: string): void {
    const charge = this.charge(account, kind, txid, 'Cobrança não encontrada.')
    const link = this.sb.pspSettings.splitLink(account.id, EFI_SPLIT, txid)
    // sdk-node-apis-efi leaves its placeholder in the path; any other id must be the linked configuration's.
    if (link === undefined || (configId !== undefined && configId !== UNFILLED_CONFIG_ID && configId !== link.configId)) throw new Refusal('NOT_FOUND', 'A cobrança informada não possui configuração de split vinculada.')
    if (charge.status !== 'ATIVA') throw invalidRequest('A cobrança não está ATIVA, invalidando a presente operação.')
    this.sb.store.transact(() => {
      this.sb.splits.setSplits(charge, [])
      this.sb.pspSettings.unlinkSplit(account, EFI_SPLIT, txid)
    })
  }

  /** GET /v2/gn/split/{cob|cobv}/:txid: the charge with the configuration it is linked to. */
  linked (account: Account, kind: SplitChargeKind, txid: string) {
    const charge = this.charge(account, kind, txid, 'Cobrança não encontrada.')
    const link = this.sb.pspSettings.splitLink(account.id, EFI_SPLIT, txid)
    const config = link === undefined ? undefined : this.sb.pspSettings.splitConfig(account.id, EFI_SPLIT, link.configId)
    if (link === undefined || config === undefined) throw new Refusal('NOT_FOUND', 'A cobrança informada não possui configuração de split vinculada.')
    const body = config.revisions[link.revisao].config as SplitConfigBodyType
    return {
      txid,
      status: charge.status,
      valor: { original: centsToString(charge.amountCents) },
      config: { id: config.id, revisao: link.revisao, status: 'ATIVA' as const, ...(body.descricao !== undefined ? { descricao: body.descricao } : {}) },
      repasses: chargeData(charge).splits.map(s => ({ favorecido: { conta: s.accountId === undefined ? '' : String(s.accountId) }, valor: centsToString(s.amountCents), status: s.status })),
    }
  }

  /**
   * PUT /v2/gn/split/pix/:e2eid/devolucao/:id: API Pix's devolução (its rules, body and answer) of a PIX
   * the account received paying a charge linked to a configuration; 404 SplitNaoEncontrado for any other.
   * The receiver returns the amount from its own balance; the repasses already paid stay paid.
   */
  devolucao (account: Account, e2eid: string, id: string, body: { valor: string, natureza?: 'ORIGINAL' | 'RETIRADA', descricao?: string }, scenarios: AppliedScenario[]): Transaction {
    const original = this.sb.transactions.findReceived(e2eid)
    // A repasse credited to a favorecido is a PIX_IN of no charge: not a split PIX of its account.
    const txid = original?.accountId === account.id && (original.kind === 'COB' || original.kind === 'COBV') ? chargeData(original).txid : null
    if (txid === null || this.sb.pspSettings.splitLink(account.id, EFI_SPLIT, txid) === undefined) {
      throw new Refusal('NOT_FOUND', `O PIX ${e2eid} não é de uma cobrança vinculada a uma configuração de split.`)
    }
    return this.sb.apiPixPix.devolucao(account, e2eid, id, body, scenarios)
  }

  /** The account's cob or cobv of this txid; 404 for any other. */
  private charge (account: Account, kind: SplitChargeKind, txid: string, notFound: string): Transaction {
    const charge = this.sb.store.chargeOfTxid(account.id, txid)
    if (charge === undefined || !('kind' in charge) || charge.kind !== kind) throw new Refusal('NOT_FOUND', notFound)
    return charge
  }

  /** A configuration as Efí shows it: a revision's body with its id, number and status. */
  view (config: PspSplitConfig, revisao = config.revisions.length - 1) {
    return { id: config.id, revisao, status: 'ATIVA' as const, ...(config.revisions[revisao].config as SplitConfigBodyType) }
  }

  /** Efí's rules beyond the schema, each refused with its razão (docs/efi.md, Split). */
  private check (account: Account, body: SplitConfigBodyType): void {
    if (!body.lancamento.imediato) throw invalidRequest('No momento, lançamentos só podem ser feitos de forma imediata.')
    const { minhaParte, repasses } = body.split
    if (repasses.some(r => r.tipo !== minhaParte.tipo)) throw invalidRequest('O tipo do valor especificado é inválido.')
    if (repasses.some(r => hundredths(r.valor) <= 0)) throw invalidRequest('Um dos valores informados na configuração dos repasses é inválido, deve ser maior que zero.')
    if (minhaParte.tipo === 'porcentagem') {
      const total = [minhaParte, ...repasses].reduce((sum, p) => sum + hundredths(p.valor), 0)
      if (total > HUNDRED_PERCENT) throw invalidRequest('A soma total das porcentagens é inválida, resulta em mais de cem porcento.')
      if (total < HUNDRED_PERCENT) throw invalidRequest('A soma total das porcentagens é inválida, não atinge cem porcento.')
    }
    for (const { favorecido } of repasses) {
      if ((favorecido.cpf === undefined) === (favorecido.cnpj === undefined)) throw invalidRequest('Os parâmetros de repasse devem informar o cpf ou o cnpj do favorecido, um dos dois.')
      // accountNumber is the account's id (the account view, docs/efi.md): a lookup, not a scan.
      const target = this.sb.store.account(Number(favorecido.conta))
      if (target === undefined) throw invalidRequest('Uma das contas informadas na configuração dos repasses não existe.')
      if (target.id === account.id) throw invalidRequest('Não é possível realizar o split para a própria conta.')
      if (target.document !== (favorecido.cpf ?? favorecido.cnpj)) throw invalidRequest('O documento de uma das contas informadas na configuração dos repasses não condiz com o documento real da conta.')
    }
  }
}
