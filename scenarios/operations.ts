import { catalogue, scenariosFor } from './catalogue.js'
import type { Endpoint, ScenarioDefinition } from './types.js'

/**
 * Where the scenarios of each operation of the gateway's two families and of API Pix apply: its scenario
 * endpoint, by the operation's OpenAPI operationId (null: it takes none). The transport faults (server/faults.ts) bend every such operation,
 * and the statuses they add are declared in its answers (server/schemas/declared.ts).
 */
const ENDPOINT_OF: Record<string, Endpoint | null> = {
  createToken: 'token',
  getBalance: 'balance',
  getApiBalance: 'balance',
  getBalances: 'balances',
  cashOut: 'cash-out',
  cashOutQrCode: 'cash-out-qrcode',
  dictTransfer: 'dict-pix',
  cashIn: 'cash-in',
  createCob: 'cob',
  createCobWithGeneratedTxid: 'cob',
  getCob: 'cob-query',
  listCobs: 'cob-query',
  // PATCH /cob/{txid}: a revision, a cancellation among them
  reviseCob: 'cob-cancel',
  getReceivedPix: 'pix-query',
  listReceivedPix: 'pix-query',
  refundIn: 'refund-in',
  createDevolucao: 'devolucao',
  getDevolucao: 'devolucao-query',
  listMed: 'med-list',
  registerWebhook: 'webhook-config',
  listWebhooks: 'webhook-config',
  // BACEN's API Pix (docs/api-pix.md): its token and its cob as the gateway's, its locations the
  // transport faults; the payloads and their key, documents a payer's PSP reads without a token and
  // no account's operations, take none (null).
  apiPixToken: 'token',
  apiPixCreateCob: 'cob',
  apiPixCreateCobWithGeneratedTxid: 'cob',
  apiPixGetCob: 'cob-query',
  apiPixListCobs: 'cob-query',
  apiPixReviseCob: 'cob-cancel',
  apiPixCreateLoc: 'loc',
  apiPixGetLoc: 'loc',
  apiPixListLocs: 'loc',
  apiPixUnbindLoc: 'loc',
  apiPixPayload: null,
  apiPixJwks: null,
  // Pix Automático (docs/api-pix.md, Pix Automático): a recurrence's creation takes the payer's PSP
  // scenarios; its reads, revisions and confirmation requests the transport faults; its locations as
  // loc's, its webhook as the gateway's registrations; its payload, read without a token, none.
  apiPixCreateRec: 'rec',
  apiPixGetRec: 'rec-query',
  apiPixListRecs: 'rec-query',
  apiPixReviseRec: 'rec-revise',
  apiPixCreateSolicRec: 'rec-revise',
  apiPixGetSolicRec: 'rec-query',
  apiPixReviseSolicRec: 'rec-revise',
  apiPixCreateLocRec: 'loc',
  apiPixGetLocRec: 'loc',
  apiPixListLocRecs: 'loc',
  apiPixUnbindLocRec: 'loc',
  apiPixRecPayload: null,
  apiPixPutWebhookRec: 'webhook-config',
  apiPixGetWebhookRec: 'webhook-config',
  apiPixDeleteWebhookRec: 'webhook-config',
  // Its recurring charges: a creation and a retry decide how their attempts' debits go; the reads and revisions the transport faults.
  apiPixCreateCobR: 'cobr',
  apiPixCreateCobRWithGeneratedTxid: 'cobr',
  apiPixRetryCobR: 'cobr-retry',
  apiPixReviseCobR: 'cobr-query',
  apiPixGetCobR: 'cobr-query',
  apiPixListCobRs: 'cobr-query',
  apiPixPutWebhookCobR: 'webhook-config',
  apiPixGetWebhookCobR: 'webhook-config',
  apiPixDeleteWebhookCobR: 'webhook-config',
  // API Pix's received PIX and devoluções as the root family's; its webhooks per key as the gateway's registrations.
  apiPixGetPix: 'pix-query',
  apiPixListPix: 'pix-query',
  apiPixCreateDevolucao: 'devolucao',
  apiPixGetDevolucao: 'devolucao-query',
  apiPixPutWebhook: 'webhook-config',
  apiPixGetWebhook: 'webhook-config',
  apiPixDeleteWebhook: 'webhook-config',
  apiPixListWebhooks: 'webhook-config',
  // API Pix's due charges and their batches: as its cobs (a batch's scenarios go to each cobv it creates).
  apiPixCreateCobV: 'cob',
  apiPixGetCobV: 'cob-query',
  apiPixListCobVs: 'cob-query',
  apiPixReviseCobV: 'cob-cancel',
  apiPixCobVPayload: null,
  apiPixPutLoteCobV: 'cob',
  apiPixReviseLoteCobV: 'cob-cancel',
  apiPixGetLoteCobV: 'cob-query',
  apiPixListLoteCobV: 'cob-query',
}

const GATEWAY_TAGS = ['Standard', 'Central bank', 'API Pix']

/** The scenario endpoint of a gateway route (its schema's tags and operationId), or null for the control plane and the pages. */
export function gatewayEndpointOf (route: { schema?: unknown, url: string }): Endpoint | null {
  const schema = route.schema as { tags?: string[], operationId?: string, hide?: boolean } | undefined
  if (!schema || schema.hide || !schema.tags?.some(t => GATEWAY_TAGS.includes(t))) return null
  const endpoint = schema.operationId === undefined ? undefined : ENDPOINT_OF[schema.operationId]
  // A new gateway route must say where its faults apply, or it would silently escape them.
  if (endpoint === undefined) throw new Error(`gateway route ${route.url} (${schema.operationId ?? 'no operationId'}) has no scenario endpoint in scenarios/operations.ts`)
  return endpoint
}

/** An operation of the OpenAPI document: its method, its path as a reader writes it, its operationId. */
export interface Operation { method: string, path: string, operationId: string }

/**
 * docs/api-pix.md's table of where `X-Sandbox-Scenario` applies on API Pix, from this file's table and
 * the catalogue (a test fails when the page drifts): the operations of each scenario endpoint, in the
 * order they come, and the scenarios of that endpoint, the delivery and transport faults by family.
 */
export function scenarioTableMarkdown (operations: readonly Operation[]): string {
  const groups = new Map<Endpoint | null, string[]>()
  for (const op of operations) {
    const endpoint = Object.hasOwn(ENDPOINT_OF, op.operationId) ? ENDPOINT_OF[op.operationId] : undefined
    if (endpoint === undefined) throw new Error(`${op.operationId} has no scenario endpoint in scenarios/operations.ts`)
    groups.set(endpoint, [...groups.get(endpoint) ?? [], `\`${op.method} ${op.path}\``])
  }
  // A family is named as one when each of its scenarios applies.
  const every = (timing: ScenarioDefinition['timing']): number => new Set(catalogue.filter(s => s.timing === timing).map(s => s.name)).size
  const rows = [...groups].map(([endpoint, ops]) => {
    if (endpoint === null) return `| ${ops.join(', ')} | none | none |`
    const applied = scenariosFor(endpoint)
    const family = (timing: ScenarioDefinition['timing'], name: string): string[] => {
      const of = applied.filter(s => s.timing === timing)
      return of.length === 0 ? [] : of.length === every(timing) ? [name] : of.map(s => `\`${s.name}\``)
    }
    const named = applied.filter(s => s.timing !== 'delivery' && s.timing !== 'transport').map(s => `\`${s.name}\``)
    return `| ${ops.join(', ')} | \`${endpoint}\` | ${[...named, ...family('delivery', 'the delivery faults'), ...family('transport', 'the transport faults')].join(', ')} |`
  })
  return ['| Operations | Endpoint | Scenarios |', '|---|---|---|', ...rows].join('\n')
}
