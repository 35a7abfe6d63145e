import t from 'tap'
import { jsonErrorLocation, readDocument } from '../../server/store/document.js'
import { emptyState, type TransactionOf } from '../../server/store/state.js'
import { accountRecord } from './services/harness.js'

/**
 * Reading a document that claims to be a sandbox state: where broken JSON breaks, and every part of a
 * state that is checked before it is accepted (marker, sequences, records, references, clock, stream).
 */
const marked = (extra: Record<string, unknown> = {}) => ({ format: 'pix-sandbox/state', formatVersion: 2, ...emptyState(), ...extra })

t.test('where a text stops being JSON: line, column, and whether it ran out', async t => {
  const cases: Array<[string, { line: number, column: number, truncated: boolean }]> = [
    ['{"a": 1,', { line: 1, column: 9, truncated: true }],
    ['{\n  "a": [1, 2', { line: 2, column: 13, truncated: true }],
    ['{"a": [1, 2}', { line: 1, column: 12, truncated: false }],
    ['{"a": "x\\qy"}', { line: 1, column: 10, truncated: false }],
    ['{"a": "\\u12G4"}', { line: 1, column: 12, truncated: false }],
    ['{"a": "line\nbreak"}', { line: 1, column: 12, truncated: false }],
    ['{"a": nul}', { line: 1, column: 10, truncated: false }],
    ['{"a": falsy}', { line: 1, column: 11, truncated: false }],
    ['{"a": -}', { line: 1, column: 7, truncated: false }],
    ['{"a": 1.}', { line: 1, column: 8, truncated: false }],
    ['{a: 1}', { line: 1, column: 2, truncated: false }],
    ['{"a" 1}', { line: 1, column: 6, truncated: false }],
    ['[1 2]', { line: 1, column: 4, truncated: false }],
    ['{"a": 1}}', { line: 1, column: 9, truncated: false }],
    ['{"a": "\\', { line: 1, column: 9, truncated: true }],
    ['{"a": "abc', { line: 1, column: 11, truncated: true }],
    ['', { line: 1, column: 1, truncated: true }],
  ]
  for (const [text, where] of cases) {
    t.throws(() => JSON.parse(text), SyntaxError, `${JSON.stringify(text)} is not JSON`)
    t.same(jsonErrorLocation(text), where, JSON.stringify(text))
  }
  t.same(jsonErrorLocation('{"a": [true, false, null, "\\n\\u00e9", -1.5e3, {}, []]}x'), { line: 1, column: 55, truncated: false }, 'every kind of value scanned')
})

t.test('sequences, the clock, the stream and the journal generation are checked too', async t => {
  const bad = await readDocument(marked({
    seq: { account: -1, transaction: 1.5 },
    clock: { now: '2026-02-30T00:00:00Z', frozen: true },
    rng: [1, 2, 3],
    journalGeneration: -1,
  }))
  t.equal(bad.ok, false)
  t.same(!bad.ok && bad.problems, [
    'seq/account: must be a non-negative integer, not -1',
    'seq/transaction: must be a non-negative integer, not 1.5',
    'clock: must be { now: an ISO 8601 instant, frozen: boolean, offsetMs?: number }',
    'rng: must be four integers from 0 to 2^32 - 1',
    'journalGeneration: must be a non-negative integer',
  ])
  const seqNotObject = await readDocument(marked({ seq: [] }))
  t.match(!seqNotObject.ok && seqNotObject.problems, ['seq: must be an object of sequence names to integers, not an array'])
  const far = await readDocument(marked({ clock: { now: '9999-01-01T00:00:00Z', frozen: false, offsetMs: 5 } }))
  t.match(!far.ok && far.problems, [/^clock\/now: 9999-01-01T00:00:00Z is outside sandbox time/])
  const ok = await readDocument(marked({ clock: { now: '2026-03-10T15:00:00Z', frozen: false, offsetMs: 5 }, rng: [1, 2, 3, 4], journalGeneration: 3 }))
  t.ok(ok.ok)
  t.same(ok.ok && [ok.clock, ok.rng, ok.journalGeneration, ok.legacy], [{ now: '2026-03-10T15:00:00Z', frozen: false, offsetMs: 5 }, [1, 2, 3, 4], 3, false])
})

t.test('records: a key that is not the record\'s id, an unknown kind, a missing collection', async t => {
  const d = await readDocument(marked({
    directory: { k: { key: 'other', keyType: 'EVP', name: 'N', document: '52998224725', ispb: '00000000', bankName: 'B' } },
    transactions: { t1: { id: 't1', kind: 'TELEPORT' } },
  }))
  t.same(!d.ok && d.problems, ['transactions/t1/kind: must be one of CASH_OUT, CASH_OUT_QRCODE, DICT_TRANSFER, SPLIT, CASH_IN, COB, PIX_IN, REFUND_IN, DEVOLUCAO, REFUND_RECEIVED, COBV', 'directory/k: the record\'s key is "other"'])
  const missing = await readDocument({ format: 'pix-sandbox/state', formatVersion: 2, seq: {}, accounts: {} })
  t.same(!missing.ok && missing.problems, ['transactions: missing', 'directory: missing'])
  const many = await readDocument(marked({ accounts: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [String(i + 1), { id: i + 1 }])) }))
  t.equal(!many.ok && many.problems.length, 21, 'twenty problems and a count of the rest')
  t.match(!many.ok && many.problems[20], /^\.\.\. and 10 more$/)
})

t.test('a transaction\'s status, and every status of its history, is one of its own kind\'s', async t => {
  const at = '2026-03-10T15:00:00.000Z'
  const cob: TransactionOf<'COB'> = {
    id: 't1',
    seq: 1,
    accountId: 1,
    kind: 'COB',
    direction: 'IN',
    status: 'ATIVA',
    amountCents: 100,
    feeCents: 0,
    data: { txid: 'x', location: 'l', pixCode: 'p', splits: [], cob: { expiracao: 60, original: '1.00', modalidadeAlteracao: 0, locId: 1 } },
    createdAt: at,
    updatedAt: at,
    history: [{ status: 'ATIVA', at }],
  }
  const withCob = (record: object) => marked({ accounts: { 1: accountRecord(1) }, transactions: { t1: record } })
  t.ok((await readDocument(withCob(cob))).ok, 'a cob ATIVA')
  const pending = await readDocument(withCob({ ...cob, status: 'PENDING' }))
  t.same(!pending.ok && pending.problems, ['transactions/t1/status: must be one of ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP, not "PENDING"'], 'PENDING is a cash-in\'s, not a cob\'s')
  const history = await readDocument(withCob({ ...cob, history: [{ status: 'CONFIRMED', at }] }))
  t.same(!history.ok && history.problems, ['transactions/t1/history/0/status: must be one of ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP, not "CONFIRMED"'])
  const received = await readDocument(withCob({ ...cob, kind: 'PIX_IN', status: 'ERROR', history: [], data: { ...cob.data, received: { endToEndId: 'E', amountCents: 100, payer: { name: 'P', document: 'd', ispb: 'i', bankName: 'b' }, at } } }))
  t.same(!received.ok && received.problems, ['transactions/t1/status: must be one of CONFIRMED, not "ERROR"'], 'a PIX_IN arrives confirmed and stays so')
  const group = await readDocument(marked({ accounts: { 1: { ...accountRecord(1), providerGroup: 'F' } } }))
  t.same(!group.ok && group.problems, ['accounts/1/providerGroup: must be one of A, B, C, D, E, not "F"'], 'every enumeration names what it allows')
})

t.test('the previous format is told apart from a look-alike', async t => {
  const legacy = await readDocument({ schemaVersion: 1, ...emptyState() })
  t.ok(legacy.ok && legacy.legacy)
  const extraKey = await readDocument({ schemaVersion: 1, ...emptyState(), mine: true })
  t.equal(!extraKey.ok && extraKey.kind, 'foreign', 'a key the sandbox never wrote: not its file')
  const noAccounts = await readDocument({ schemaVersion: 1, seq: {}, transactions: {}, directory: {} })
  t.equal(!noAccounts.ok && noAccounts.kind, 'foreign')
})

t.test('Pix Automático\'s records name their own account\'s recurrence, and a payer\'s behaviour is one per account and document', async t => {
  const at = '2026-03-10T15:00:00.000Z'
  const rec = (idRec: string, accountId: number, loc?: number) => ({
    idRec,
    accountId,
    status: 'CRIADA',
    terms: { vinculo: { contrato: 'c', devedor: { cpf: '45164632481', nome: 'F' } }, calendario: { dataInicial: '2026-04-01', periodicidade: 'MENSAL' }, valor: {}, politicaRetentativa: 'NAO_PERMITE', ...(loc !== undefined ? { loc } : {}) },
    ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
    atualizacao: [{ status: 'CRIADA', data: at }],
    createdAt: at,
  })
  const idA = 'RN9999900420260310aaaaaaaaaaa'
  const idB = 'RN9999900420260310bbbbbbbbbbb'
  const behaviour = (id: number) => ({ id, accountId: 1, document: '45164632481', authorization: 'REJECT', debit: 'PAGA', createdAt: at, updatedAt: at })
  const d = await readDocument(marked({
    seq: { account: 2, locrec: 1, payerBehaviour: 2 },
    accounts: { 1: accountRecord(1), 2: accountRecord(2) },
    recurrences: { [idA]: rec(idA, 1), [idB]: rec(idB, 2, 1) },
    recLocations: { 1: { id: 1, accountId: 2, location: 'localhost:80/qr/v2/rec/0123456789abcdef0123456789abcdef', createdAt: at, idRec: idA } },
    solicRecs: {
      SC9999900420260310aaaaaaaaaaa: {
        idSolicRec: 'SC9999900420260310aaaaaaaaaaa',
        accountId: 1,
        idRec: idB,
        status: 'CRIADA',
        dataExpiracaoSolicitacao: at,
        destinatario: { conta: '1', ispbParticipante: '91193552', cpf: '45164632481' },
        atualizacao: [{ status: 'CRIADA', data: at }],
        createdAt: at,
      },
    },
    payerBehaviours: { 1: behaviour(1), 2: behaviour(2) },
  }))
  t.same(!d.ok && d.problems, [
    `solicRecs/SC9999900420260310aaaaaaaaaaa: recurrence ${idB} is not account 1's`,
    `recLocations/1: recurrence ${idA} is not account 2's`,
    `recurrences/${idB}: location 1 does not serve it`,
    'payerBehaviours/2: account 1 has behaviour 1 for 45164632481 already',
  ])
})

t.test('API Pix\'s webhooks: each record checked, owned by an account, one per account, callback and key', async t => {
  const webhook = (id: number, over: Record<string, unknown> = {}) => ({ id, accountId: 1, callback: 'pix', chave: 'loja@example.com', webhookUrl: 'https://erp.example.com/hook', createdAt: '2026-03-10T15:00:00.000Z', updatedAt: '2026-03-10T15:00:00.000Z', ...over })
  const accounts = { 1: accountRecord(1) }
  const ok = await readDocument(marked({ accounts, apiPixWebhooks: { 1: webhook(1), 2: webhook(2, { chave: '11222333000181' }) } }))
  t.ok(ok.ok, JSON.stringify(!ok.ok && ok.problems))
  t.equal(ok.ok && ok.state.seq.apiPixWebhook, 2, 'the sequence follows the records')
  const bad = await readDocument(marked({
    accounts,
    apiPixWebhooks: { 1: webhook(1, { callback: 'cobv' }), 2: webhook(2, { accountId: 9 }), 3: webhook(3, { webhookUrl: undefined }), 4: webhook(4), 5: webhook(5), 6: webhook(6, { callback: 'cobr', chave: undefined }), 7: webhook(7, { callback: 'cobr', chave: undefined }), 8: webhook(8, { callback: 'rec', chave: undefined }), 9: webhook(9, { callback: 'rec', chave: undefined }) },
  }))
  t.same(!bad.ok && bad.problems, [
    'apiPixWebhooks/1/callback: must be one of pix, cobr, rec, not "cobv"',
    'apiPixWebhooks/3/webhookUrl: Expected string',
    'apiPixWebhooks/2: account 9 does not exist',
    'apiPixWebhooks/5: account 1 has webhook 4 for pix on key loja@example.com already',
    'apiPixWebhooks/7: account 1 has webhook 6 for cobr already',
    'apiPixWebhooks/9: account 1 has webhook 8 for rec already',
  ], 'one /webhookcobr and one /webhookrec per account')
})
