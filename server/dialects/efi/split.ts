import { Refusal, invalidRequest } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import type { Account, PspSplitConfig } from '../../store/state.js'
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
