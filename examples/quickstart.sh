# Every money flow with curl, against a sandbox started with `npm start`: sh examples/quickstart.sh
#   PIX        where the sandbox answers (default http://127.0.0.1:8080)
#   HOOK_PORT  the port of 127.0.0.1 this script's webhook receiver takes (default 3000)
# It checks both first and starts from a reset; a step that fails stops it with one line on stderr.
set -eu
cd "$(dirname "$0")/.."
PIX=${PIX:-http://127.0.0.1:8080}
HOOK_PORT=${HOOK_PORT:-3000}
JSON='content-type: application/json'
fail () { echo "quickstart: $*" >&2; exit 1; }
# curl for one request: prints the answer's body, or fails with its status and body.
pix () {
  out=$(curl -sS --max-time 30 -w '\n%{http_code} %{url_effective}' "$@" 2>/dev/null) || fail "no answer from $PIX: is the sandbox still running?"
  status=$(printf '%s' "$out" | tail -n 1) body=$(printf '%s' "$out" | sed '$d')
  [ "${status%% *}" -lt 400 ] || fail "${status#* } answered ${status%% *}: $body"
  printf '%s\n' "$body"
}
# Prints one field of the JSON on stdin: pix ... | get .transactionId (no input: the request said why).
get () { node -e "const text = require('fs').readFileSync(0, 'utf8'); if (!text) process.exit(1)
  const v = '$1'.split('.').slice(1).reduce((o, k) => o?.[k], JSON.parse(text))
  if (v === undefined) { console.error('quickstart: no $1 in ' + text.trim()); process.exit(1) }
  console.log(typeof v === 'string' ? v : JSON.stringify(v))"; }

# 0. The sandbox answers, the receiver's port is free, and everything starts over: a reset, the clock running.
curl -fsS --max-time 5 "$PIX/__sandbox/health" >/dev/null 2>&1 ||
  fail "no pix-sandbox answers at $PIX: start one with \`npm start\` in this folder, or say where it runs: PIX=http://host:port sh examples/quickstart.sh"
node -e "require('net').createServer().on('error', () => process.exit(1)).listen($HOOK_PORT, '127.0.0.1', function () { this.close() })" ||
  fail "port $HOOK_PORT of 127.0.0.1 is taken (by an app of yours?): give the receiver another, HOOK_PORT=3001 sh examples/quickstart.sh"
pix -X POST $PIX/__sandbox/reset -H "$JSON" -d '{}' >/dev/null
pix -X POST $PIX/__sandbox/clock/resume >/dev/null

# A webhook receiver that prints each delivery it gets (in the background, stopped at the end).
node -e "require('http').createServer((req, res) => { let body = ''; req.on('data', d => { body += d }).on('end', () => { console.log('webhook', req.headers['x-sandbox-event-type'], body); res.end() }) }).listen($HOOK_PORT, '127.0.0.1')" &
RECEIVER=$!
trap 'kill $RECEIVER 2>/dev/null || true' EXIT

# 1. A token for the default account (BRL 10,000.00), from its client id, secret and certificate.
CERT=$(node -p 'encodeURIComponent(require("fs").readFileSync("fixtures/certs/default-client.crt.pem", "utf8"))')
TOKEN=$(pix $PIX/api/auth/token -H "X-SSL-Client-Cert: $CERT" -H "$JSON" \
  -d '{"clientId": "pix-sandbox-client", "clientSecret": "pix-sandbox-secret-2026"}' | get .access_token)
AUTH="Authorization: Bearer $TOKEN"
pix $PIX/balance -H "$AUTH"

# 2. Register the receiver for the account's pay-outs, charges and refunds.
for EVENT in cash_out cash_in refund_in; do
  pix $PIX/__sandbox/webhooks -H "$JSON" -d '{"accountId": 1, "eventType": "'$EVENT'", "url": "http://127.0.0.1:'$HOOK_PORT'/webhooks"}' | get .eventType
done

# 3. A cash-out to a PIX key: answered PENDING; it settles 50 ms later and its webhook says CONFIRMED.
PAYOUT=$(pix $PIX/api/pix/cash-out -H "$AUTH" -H "$JSON" \
  -d '{"value": 10, "externalId": "order-1", "details": {"key": "maria@example.com", "keyType": "EMAIL", "name": "Maria", "document": "52998224725"}}')
echo "$PAYOUT"
# Wait for a webhook instead of sleeping: this answers as soon as it is delivered.
pix "$PIX/__sandbox/webhooks/deliveries/wait?eventType=cash_out&status=delivered&transactionId=$(echo "$PAYOUT" | get .transactionId)" | get .body.status

# 4. A charge with a QR code, paid as a payer's bank app would: the balance rises and cash_in fires.
CHARGE=$(pix $PIX/api/pix/cash-in -H "$AUTH" -H "$JSON" \
  -d '{"transaction": {"value": 25, "description": "Pedido 42", "externalId": "order-42"}, "payer": {"fullName": "Maria", "document": "52998224725"}}')
echo "$CHARGE" | get .pixCode
CHARGE_ID=$(echo "$CHARGE" | get .transactionId)
pix $PIX/__sandbox/pix/pay -H "$JSON" -d '{"pixCode": "'"$(echo "$CHARGE" | get .pixCode)"'"}' | get .status
pix "$PIX/__sandbox/webhooks/deliveries/wait?eventType=cash_in&status=delivered&transactionId=$CHARGE_ID" | get .body.data.status

# 5. Refund BRL 5.00 of that payment: it settles like a pay-out, and refund_in fires.
REFUND=$(pix $PIX/api/pix/refund-in/$CHARGE_ID -H "$AUTH" -H "$JSON" -d '{"refundValue": 5}')
echo "$REFUND"
pix "$PIX/__sandbox/webhooks/deliveries/wait?eventType=refund_in&status=delivered&transactionId=$(echo "$REFUND" | get .transactionId)" | get .body.data.status

# 6. A scenario: the same cash-out to a blocked account. Accepted, then the webhook says ERROR, with why.
FAILED=$(pix $PIX/api/pix/cash-out -H "$AUTH" -H "$JSON" -H 'X-Sandbox-Scenario: BLOCKED_ACCOUNT' \
  -d '{"value": 10, "externalId": "order-2", "details": {"key": "maria@example.com", "keyType": "EMAIL", "name": "Maria", "document": "52998224725"}}')
pix "$PIX/__sandbox/webhooks/deliveries/wait?eventType=cash_out&status=delivered&transactionId=$(echo "$FAILED" | get .transactionId)" | get .body.errorCode

# 7. The clock: frozen, nothing settles until you move it (expiries and webhook retries follow it too).
pix -X POST $PIX/__sandbox/clock/freeze | get .frozen
LATER=$(pix $PIX/api/pix/cash-out -H "$AUTH" -H "$JSON" \
  -d '{"value": 10, "externalId": "order-3", "details": {"key": "maria@example.com", "keyType": "EMAIL", "name": "Maria", "document": "52998224725"}}')
pix $PIX/__sandbox/transactions/$(echo "$LATER" | get .transactionId) | get .status
pix $PIX/__sandbox/clock/advance -H "$JSON" -d '{"ms": 60000}' | get .now
pix $PIX/__sandbox/transactions/$(echo "$LATER" | get .transactionId) | get .status
pix -X POST $PIX/__sandbox/clock/resume | get .frozen
pix $PIX/balance -H "$AUTH"

# 8. BACEN's API Pix (docs/api-pix.md), on the same account: an OAuth token with Basic credentials, a
#    cob whose code carries its payload location, paid as a payer's bank app would.
APIPIX=$(pix $PIX/oauth/token -u pix-sandbox-client:pix-sandbox-secret-2026 -H "X-SSL-Client-Cert: $CERT" \
  -d grant_type=client_credentials -d 'scope=cob.write cob.read' | get .access_token)
COB=$(pix -X PUT $PIX/v2/cob/pedido43pedido43pedido43pedido43 -H "Authorization: Bearer $APIPIX" -H "$JSON" \
  -d '{"calendario": {"expiracao": 3600}, "valor": {"original": "12.34"}, "chave": "loja@example.com"}')
echo "$COB" | get .location
pix $PIX/__sandbox/pix/pay -H "$JSON" -d '{"pixCode": "'"$(echo "$COB" | get .pixCopiaECola)"'"}' | get .amount
pix $PIX/v2/cob/pedido43pedido43pedido43pedido43 -H "Authorization: Bearer $APIPIX" | get .status

# 9. Pix Automático (docs/api-pix.md): a monthly subscription of BRL 49.90. The receiver creates the
#    recurrence, its payer approves it (played by the control plane), the receiver charges its first
#    month (cobr) due in 3 days, and the clock moves to that debit, which runs: the account is credited.
REC=$(pix $PIX/oauth/token -u pix-sandbox-client:pix-sandbox-secret-2026 -H "X-SSL-Client-Cert: $CERT" \
  -d grant_type=client_credentials -d 'scope=rec.write rec.read cobr.write cobr.read' | get .access_token)
NOW=$(pix $PIX/__sandbox/clock | get .now)
DUE=$(node -p "new Date(Date.parse('$NOW') + 3 * 86400000).toISOString().slice(0, 10)")
IDREC=$(pix $PIX/v2/rec -H "Authorization: Bearer $REC" -H "$JSON" -d '{"vinculo": {"contrato": "assinatura-1",
  "devedor": {"cpf": "52998224725", "nome": "Maria"}}, "calendario": {"dataInicial": "'$DUE'", "periodicidade": "MENSAL"},
  "valor": {"valorRec": "49.90"}, "politicaRetentativa": "NAO_PERMITE"}' | get .idRec)
echo "$IDREC"
pix -X POST $PIX/__sandbox/recurrences/$IDREC/approve -H "$JSON" -d '{}' | get .status
pix -X PUT $PIX/v2/cobr/mensalidade1mensalidade1mensal -H "Authorization: Bearer $REC" -H "$JSON" \
  -d '{"idRec": "'$IDREC'", "calendario": {"dataDeVencimento": "'$DUE'"}, "valor": {"original": "49.90"}, "ajusteDiaUtil": false,
  "recebedor": {"agencia": "9708", "conta": "012682", "tipoConta": "CORRENTE"}}' | get .status
pix $PIX/__sandbox/clock/next-due -H "$JSON" -d '{"accountId": 1}' | get .debit.status
pix $PIX/__sandbox/accounts/1 | get .balance.available

# 10. Reset: every account back to its fixtures, receivers and records gone; tokens issued before get 401.
pix -X POST $PIX/__sandbox/reset -H "$JSON" -d '{}'
pix $PIX/__sandbox/accounts/1 | get .balance
curl -s -o /dev/null -w '%{http_code}\n' $PIX/balance -H "$AUTH"
