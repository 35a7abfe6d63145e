# Every money flow with curl, against `npm start` (http://127.0.0.1:8080), from the checkout's folder.
# Paste the commands one by one, or run them all: sh examples/quickstart.sh
PIX=${PIX:-http://127.0.0.1:8080}
HOOK_PORT=${HOOK_PORT:-3000}
JSON='content-type: application/json'
# Prints one field of the JSON on stdin: curl ... | get .transactionId
get () { node -e "const v = JSON.parse(require('fs').readFileSync(0, 'utf8'))$1; console.log(typeof v === 'string' ? v : JSON.stringify(v))"; }

# A webhook receiver that prints each delivery it gets (in the background, stopped at the end).
node -e "require('http').createServer((req, res) => { let body = ''; req.on('data', d => { body += d }).on('end', () => { console.log('webhook', req.headers['x-sandbox-event-type'], body); res.end() }) }).listen($HOOK_PORT)" &
RECEIVER=$!
trap 'kill $RECEIVER 2>/dev/null || true' EXIT

# 1. A token for the default account (BRL 10,000.00), from its client id, secret and certificate.
CERT=$(node -p 'encodeURIComponent(require("fs").readFileSync("fixtures/certs/default-client.crt.pem", "utf8"))')
TOKEN=$(curl -s $PIX/api/auth/token -H "X-SSL-Client-Cert: $CERT" -H "$JSON" \
  -d '{"clientId": "pix-sandbox-client", "clientSecret": "pix-sandbox-secret-2026"}' | get .access_token)
AUTH="Authorization: Bearer $TOKEN"
curl -s $PIX/balance -H "$AUTH"; echo

# 2. Register the receiver for the account's pay-outs, charges and refunds.
for EVENT in cash_out cash_in refund_in; do
  curl -s $PIX/__sandbox/webhooks -H "$JSON" -d '{"accountId": 1, "eventType": "'$EVENT'", "url": "http://127.0.0.1:'$HOOK_PORT'/webhooks"}' | get .eventType
done

# 3. A cash-out to a PIX key: answered PENDING; it settles 50 ms later and its webhook says CONFIRMED.
PAYOUT=$(curl -s $PIX/api/pix/cash-out -H "$AUTH" -H "$JSON" \
  -d '{"value": 10, "externalId": "order-1", "details": {"key": "maria@example.com", "keyType": "EMAIL", "name": "Maria", "document": "52998224725"}}')
echo "$PAYOUT"
# Wait for a webhook instead of sleeping: this answers as soon as it is delivered.
curl -s "$PIX/__sandbox/webhooks/deliveries/wait?eventType=cash_out&status=delivered&transactionId=$(echo "$PAYOUT" | get .transactionId)" | get .body.status

# 4. A charge with a QR code, paid as a payer's bank app would: the balance rises and cash_in fires.
CHARGE=$(curl -s $PIX/api/pix/cash-in -H "$AUTH" -H "$JSON" \
  -d '{"transaction": {"value": 25, "description": "Pedido 42", "externalId": "order-42"}, "payer": {"fullName": "Maria", "document": "52998224725"}}')
echo "$CHARGE" | get .pixCode
CHARGE_ID=$(echo "$CHARGE" | get .transactionId)
curl -s $PIX/__sandbox/pix/pay -H "$JSON" -d '{"pixCode": "'"$(echo "$CHARGE" | get .pixCode)"'"}' | get .status
curl -s "$PIX/__sandbox/webhooks/deliveries/wait?eventType=cash_in&status=delivered&transactionId=$CHARGE_ID" | get .body.data.status

# 5. Refund BRL 5.00 of that payment: it settles like a pay-out, and refund_in fires.
REFUND=$(curl -s $PIX/api/pix/refund-in/$CHARGE_ID -H "$AUTH" -H "$JSON" -d '{"refundValue": 5}')
echo "$REFUND"
curl -s "$PIX/__sandbox/webhooks/deliveries/wait?eventType=refund_in&status=delivered&transactionId=$(echo "$REFUND" | get .transactionId)" | get .body.data.status

# 6. A scenario: the same cash-out to a blocked account. Accepted, then the webhook says ERROR, with why.
FAILED=$(curl -s $PIX/api/pix/cash-out -H "$AUTH" -H "$JSON" -H 'X-Sandbox-Scenario: BLOCKED_ACCOUNT' \
  -d '{"value": 10, "externalId": "order-2", "details": {"key": "maria@example.com", "keyType": "EMAIL", "name": "Maria", "document": "52998224725"}}')
curl -s "$PIX/__sandbox/webhooks/deliveries/wait?eventType=cash_out&status=delivered&transactionId=$(echo "$FAILED" | get .transactionId)" | get .body.errorCode

# 7. The clock: frozen, nothing settles until you move it (expiries and webhook retries follow it too).
curl -s -X POST $PIX/__sandbox/clock/freeze | get .frozen
LATER=$(curl -s $PIX/api/pix/cash-out -H "$AUTH" -H "$JSON" \
  -d '{"value": 10, "externalId": "order-3", "details": {"key": "maria@example.com", "keyType": "EMAIL", "name": "Maria", "document": "52998224725"}}')
curl -s $PIX/__sandbox/transactions/$(echo "$LATER" | get .transactionId) | get .status
curl -s $PIX/__sandbox/clock/advance -H "$JSON" -d '{"ms": 60000}' | get .now
curl -s $PIX/__sandbox/transactions/$(echo "$LATER" | get .transactionId) | get .status
curl -s -X POST $PIX/__sandbox/clock/resume | get .frozen
curl -s $PIX/balance -H "$AUTH"; echo

# 8. BACEN's API Pix (docs/api-pix.md), on the same account: an OAuth token with Basic credentials, a
#    cob whose code carries its payload location, paid as a payer's bank app would.
APIPIX=$(curl -s $PIX/oauth/token -u pix-sandbox-client:pix-sandbox-secret-2026 -H "X-SSL-Client-Cert: $CERT" \
  -d grant_type=client_credentials -d 'scope=cob.write cob.read' | get .access_token)
COB=$(curl -s -X PUT $PIX/v2/cob/pedido43pedido43pedido43pedido43 -H "Authorization: Bearer $APIPIX" -H "$JSON" \
  -d '{"calendario": {"expiracao": 3600}, "valor": {"original": "12.34"}, "chave": "loja@example.com"}')
echo "$COB" | get .location
curl -s $PIX/__sandbox/pix/pay -H "$JSON" -d '{"pixCode": "'"$(echo "$COB" | get .pixCopiaECola)"'"}' | get .amount
curl -s $PIX/v2/cob/pedido43pedido43pedido43pedido43 -H "Authorization: Bearer $APIPIX" | get .status

# 9. Pix Automático (docs/api-pix.md): a monthly subscription of BRL 49.90. The receiver creates the
#    recurrence, its payer approves it (the control plane plays the payer: `pix-sandbox rec approve`
#    does the same), the receiver charges its first month (cobr) due in 3 days, and the clock moves to
#    that debit, which runs (`pix-sandbox clock next-due` does the same): the charge is paid and the
#    account credited. Three days later on the sandbox clock, the tokens issued so far have expired.
REC=$(curl -s $PIX/oauth/token -u pix-sandbox-client:pix-sandbox-secret-2026 -H "X-SSL-Client-Cert: $CERT" \
  -d grant_type=client_credentials -d 'scope=rec.write rec.read cobr.write cobr.read' | get .access_token)
NOW=$(curl -s $PIX/__sandbox/clock | get .now)
DUE=$(node -p "new Date(Date.parse('$NOW') + 3 * 86400000).toISOString().slice(0, 10)")
IDREC=$(curl -s $PIX/v2/rec -H "Authorization: Bearer $REC" -H "$JSON" -d '{"vinculo": {"contrato": "assinatura-1",
  "devedor": {"cpf": "52998224725", "nome": "Maria"}}, "calendario": {"dataInicial": "'$DUE'", "periodicidade": "MENSAL"},
  "valor": {"valorRec": "49.90"}, "politicaRetentativa": "NAO_PERMITE"}' | get .idRec)
echo "$IDREC"
curl -s -X POST $PIX/__sandbox/recurrences/$IDREC/approve -H "$JSON" -d '{}' | get .status
curl -s -X PUT $PIX/v2/cobr/mensalidade1mensalidade1mensal -H "Authorization: Bearer $REC" -H "$JSON" \
  -d '{"idRec": "'$IDREC'", "calendario": {"dataDeVencimento": "'$DUE'"}, "valor": {"original": "49.90"}, "ajusteDiaUtil": false,
  "recebedor": {"agencia": "9708", "conta": "012682", "tipoConta": "CORRENTE"}}' | get .status
curl -s $PIX/__sandbox/clock/next-due -H "$JSON" -d '{"accountId": 1}' | get .debit.status
curl -s $PIX/__sandbox/accounts/1 | get .balance.available

# 10. Reset: every account back to its fixtures, receivers and records gone; tokens issued before get 401.
curl -s -X POST $PIX/__sandbox/reset -H "$JSON" -d '{}'; echo
curl -s $PIX/__sandbox/accounts/1 | get .balance
curl -s -o /dev/null -w '%{http_code}\n' $PIX/balance -H "$AUTH"
kill $RECEIVER
