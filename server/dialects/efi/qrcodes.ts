import QRCode from 'qrcode'
import { parseBrCode } from '../../domain/brcode.js'
import { maskDocument } from '../../domain/documents.js'
import { centsToString } from '../../domain/money.js'
import { QR_IMAGE_OPTIONS } from '../../domain/qr-image.js'
import { Refusal } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import { isKind, type Account, type Transaction } from '../../store/state.js'

/**
 * Efí's QR code routes (docs/efi.md, QR codes): a location's code with its image and a page that shows
 * it (`GET /v2/loc/:id/qrcode`), and what a BR Code of this sandbox asks to be paid
 * (`POST /v2/gn/qrcodes/detalhar`), both read from the charges API Pix created.
 */

/** A CPF or CNPJ masked, under its own name. */
function masked (document: string | undefined): { cpf: string } | { cnpj: string } | Record<string, never> {
  if (document === undefined) return {}
  return document.length === 11 ? { cpf: maskDocument(document) } : { cnpj: maskDocument(document) }
}

/** The SVG image of a code, as a data URI (what Efí answers in `imagemQrcode`). */
export async function svgDataUri (code: string): Promise<string> {
  const svg = await QRCode.toString(code, { ...QR_IMAGE_OPTIONS, type: 'svg' })
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

export class EfiQrCodes {
  constructor (private readonly sb: Sandbox) {}

  /** The charge a location of the account serves, with the location's token (its last segment). */
  located (account: Account, id: number): { charge: Transaction, code: string, token: string, tipoCob: 'cob' | 'cobv' } {
    const loc = this.sb.store.data.locations[id]
    if (loc === undefined || loc.accountId !== account.id) throw new Refusal('EFI_LOCATION_NOT_FOUND', 'Nenhuma location encontrado para o identificador informado')
    const charge = this.sb.locations.charge(loc)
    const code = charge !== undefined && isKind(charge, ['COB', 'COBV'] as const) ? charge.data.pixCode : null
    if (charge === undefined || code === null) throw new Refusal('EFI_LOCATION_EMPTY', 'A location informada não possui cobrança vinculada')
    return { charge, code, token: loc.location.slice(loc.location.lastIndexOf('/') + 1), tipoCob: loc.tipoCob }
  }

  /** The charge a location's token serves, whoever's it is: what the page of `linkVisualizacao` shows. */
  byToken (token: string): { charge: Transaction, code: string } | undefined {
    const loc = this.sb.locations.byTokenOf(token)
    const charge = loc === undefined ? undefined : this.sb.locations.charge(loc)
    if (charge === undefined || !isKind(charge, ['COB', 'COBV'] as const) || charge.data.pixCode === null) return undefined
    return { charge, code: charge.data.pixCode }
  }

  /** POST /v2/gn/qrcodes/detalhar: the charge a dynamic code of this sandbox points at, as its payer would be shown it. */
  detail (pixCopiaECola: string) {
    const parsed = parseBrCode(pixCopiaECola)
    if (!parsed.ok) throw new Refusal('EFI_QRCODE_UNREADABLE', 'O pixCopiaECola informado é inválido.')
    if (parsed.value.location === undefined) throw new Refusal('INVALID_PIX_CODE', 'O pixCopiaECola informado é referente a uma cobrança estática')
    const lookup = this.sb.chargePayments.chargeForCode(parsed.value)
    const charge = lookup?.charge
    if (lookup === undefined || charge === undefined || !isKind(charge, ['COB', 'COBV'] as const)) throw new Refusal('INVALID_PIX_CODE', 'A chave do recebedor não foi encontrada')
    const receiver = this.sb.store.account(charge.accountId)
    const due = lookup.status === 'payable' && lookup.amountCents !== null ? centsToString(lookup.amountCents) : undefined
    const common = {
      txid: charge.data.txid ?? '',
      status: charge.status,
      recebedor: { nome: receiver?.name ?? '', ...masked(receiver?.document) },
    }
    if (charge.kind === 'COBV') {
      const d = charge.data.cobv
      return {
        tipoCob: 'cobv' as const,
        ...common,
        revisao: d.revisao,
        calendario: { criacao: charge.createdAt, apresentacao: new Date(this.sb.clock.now()).toISOString(), dataDeVencimento: d.calendario.dataDeVencimento, validadeAposVencimento: d.calendario.validadeAposVencimento },
        devedor: { nome: d.devedor.nome, ...masked(d.devedor.cpf ?? d.devedor.cnpj) },
        valor: { original: d.valor.original, ...(due !== undefined ? { final: due } : {}) },
        chave: d.chave,
        ...(d.solicitacaoPagador !== undefined ? { solicitacaoPagador: d.solicitacaoPagador } : {}),
      }
    }
    const cob = charge.data.cob
    return {
      tipoCob: 'cob' as const,
      ...common,
      revisao: cob?.revisao ?? 0,
      calendario: { criacao: charge.createdAt, apresentacao: new Date(this.sb.clock.now()).toISOString(), expiracao: cob?.expiracao ?? 0 },
      ...(cob?.devedor !== undefined ? { devedor: { nome: cob.devedor.nome, ...masked(cob.devedor.cpf ?? cob.devedor.cnpj) } } : {}),
      valor: { original: cob?.original ?? centsToString(charge.amountCents), ...(due !== undefined ? { final: due } : {}) },
      ...(cob?.chave !== undefined ? { chave: cob.chave } : {}),
      ...(cob?.solicitacaoPagador !== undefined ? { solicitacaoPagador: cob.solicitacaoPagador } : {}),
    }
  }
}

/** The page `linkVisualizacao` names: the charge's value, receiver, QR image and copy-and-paste code. */
export function chargePage (charge: Transaction, code: string, receiver: string, image: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Cobrança Pix</title></head>
<body>
<h1>Cobrança Pix</h1>
<p>Valor: R$ ${esc(centsToString(charge.amountCents))}</p>
<p>Recebedor: ${esc(receiver)}</p>
<p>Situação: ${esc(charge.status)}</p>
<img alt="QR Code Pix" src="${esc(image)}" width="256" height="256">
<p>Pix Copia e Cola:</p>
<textarea readonly rows="4" cols="60">${esc(code)}</textarea>
</body></html>
`
}
