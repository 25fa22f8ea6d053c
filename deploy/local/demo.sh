#!/usr/bin/env bash
# The demo configuration of the local run, through the state-service admin API, and what to try.
#
#   deploy/local/demo.sh seed    create what is missing (idempotent): three groups, four api credentials
#                                on the demo upstream (demo-d in no group), one official Codex account
#                                authorized with the demo upstream's mock OAuth server (demo-codex),
#                                one AccessKey (plaintext kept in .local/run/demo-access-key)
#   deploy/local/demo.sh info    print the AccessKey and the failover walkthrough
#   deploy/local/demo.sh badges  light up every badge of the console at once (demo-b, demo-c, demo-d;
#                                cooldowns raised to 5 minutes so there is time to look; ~10 s)
#   deploy/local/demo.sh calm    undo badges: demo upstream healthy, seed policies and mappings back,
#                                models cleared and resumed, accounts restored
#
# run.sh calls both once the services are ready. Settings: STATE_URL (http://127.0.0.1:8081),
# GATEWAY_URL (http://127.0.0.1:8080), DEMO_UPSTREAM_URL (http://127.0.0.1:9300), ADMIN_TOKEN,
# DEMO_OAUTH_FRESH=1 (the demo upstream was just started: authorize the official account again).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

STATE_URL=${STATE_URL:-http://127.0.0.1:8081}
GATEWAY_URL=${GATEWAY_URL:-http://127.0.0.1:8080}
DEMO_UPSTREAM_URL=${DEMO_UPSTREAM_URL:-http://127.0.0.1:9300}
ADMIN_TOKEN=${ADMIN_TOKEN:-local-dev-admin-token}
KEY_FILE="$LOCAL_DIR/run/demo-access-key"
ADMIN="$STATE_URL/admin/v1"
# The official (subscription) account: a Codex account of the demo upstream's mock OAuth server, whose
# OAuth account id names it in the demo's answers and counts.
OFFICIAL_ID=demo-codex
OFFICIAL_MODELS='["gpt-5","gpt-5.1-codex"]'
DEMO_OAUTH_FRESH=${DEMO_OAUTH_FRESH:-0}

# Every demo credential maps the same three client-facing models onto the demo upstream's names, has
# the failure cooldown on (10 s, the spec's default) and keeps the default retry policy.
MAPPINGS='[{"from":"gpt-5.6-sol","to":"upstream-sol"},{"from":"glm-5.3","to":"upstream-glm"},{"from":"claude-sonnet-4-5","to":"claude-sonnet-4-5"}]'
POLICY='{"cooldown_enabled":true,"cooldown_seconds":10}'
# What `badges` sets: a 5-minute cooldown, so there is time to look; for one failure of demo-b, one
# failure enough for the error status (the threshold counts every model failure, 429s included).
BADGES_POLICY='{"cooldown_enabled":true,"cooldown_seconds":300}'
ERROR_AT_ONCE_POLICY='{"cooldown_enabled":true,"cooldown_seconds":300,"semantic_error_threshold":1}'

# admin <method> <path> [json]: prints the body, then the HTTP status on its own last line.
admin() {
  local method=$1 path=$2 body=${3:-}
  if [ -n "$body" ]; then
    curl -sS -X "$method" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
      -d "$body" -w '\n%{http_code}' "$ADMIN$path"
  else
    curl -sS -X "$method" -H "Authorization: Bearer $ADMIN_TOKEN" -w '\n%{http_code}' "$ADMIN$path"
  fi
}

status_of() { tail -n 1 <<<"$1"; }
body_of() { sed '$d' <<<"$1"; }

exists() {
  local answer
  answer=$(admin GET "$1")
  case $(status_of "$answer") in
    200) return 0 ;;
    404) return 1 ;;
    *) die "GET $1 answered $(status_of "$answer"): $(body_of "$answer")" ;;
  esac
}

create() {
  local path=$1 what=$2 body=$3 answer
  answer=$(admin POST "$path" "$body")
  [ "$(status_of "$answer")" = 201 ] || die "creating $what answered $(status_of "$answer"): $(body_of "$answer")"
  # stdout carries the answer; the progress line goes to stderr
  log "created $what" >&2
  body_of "$answer"
}

credential_body() {
  local id=$1 letter=$2 recovery=$3
  cat <<JSON
{"id":"$id","name":"demo account $letter","platform":"openai","kind":"api","base_url":"$DEMO_UPSTREAM_URL",
 "secret":"demo-account-$letter~local-demo","model_mappings":$MAPPINGS,"failure_policy":$POLICY,"recovery":$recovery}
JSON
}

seed_credential() {
  local id=$1 letter=$2 recovery=$3
  if exists "/credentials/$id"; then
    log "credential $id exists"
  else
    create /credentials "credential $id (demo-account-$letter)" "$(credential_body "$id" "$letter" "$recovery")" >/dev/null
  fi
}

seed_group() {
  local id=$1 weight=$2 members=$3
  if exists "/groups/$id"; then
    log "group $id exists"
  else
    create /groups "group $id" \
      "{\"id\":\"$id\",\"name\":\"$id\",\"weight_mode\":\"manual\",\"weight\":$weight,\"credential_ids\":$members}" >/dev/null
  fi
}

# The official account: created without a secret (it awaits authorization), then given the OAuth
# material a login at the mock OAuth server would leave (POST /_control/oauth/grants) through the
# onboarding API (PUT /credentials/{id}/oauth). From then on state-service refreshes its access token
# before it expires. It is authorized again when it is new, not authorized (or revoked), or the demo
# upstream was just started (its mock OAuth server knows no earlier token).
seed_official() {
  local created=0 answer state grant fields
  if exists "/credentials/$OFFICIAL_ID"; then
    log "credential $OFFICIAL_ID exists"
  else
    create /credentials "credential $OFFICIAL_ID (official Codex account)" \
      "{\"id\":\"$OFFICIAL_ID\",\"name\":\"demo Codex subscription\",\"platform\":\"codex\",\"kind\":\"official\",
        \"base_url\":\"$DEMO_UPSTREAM_URL\",\"failure_policy\":$POLICY,\"recovery\":{\"mode\":\"off\"}}" >/dev/null
    created=1
  fi
  answer=$(admin GET "/credentials/$OFFICIAL_ID/oauth")
  [ "$(status_of "$answer")" = 200 ] || die "GET /credentials/$OFFICIAL_ID/oauth answered $(status_of "$answer"): $(body_of "$answer")"
  state=$(sed -n 's/.*"state":"\([a-z]*\)".*/\1/p' <<<"$(body_of "$answer")")
  answer=$(admin GET "/credentials/$OFFICIAL_ID")
  if [ "$created" = 0 ] && [ "$DEMO_OAUTH_FRESH" != 1 ] && [ "$state" = authorized ] \
    && ! grep -q '"status":"revoked"' <<<"$(body_of "$answer")"; then
    log "credential $OFFICIAL_ID is authorized"
    return 0
  fi
  grant=$(curl -sS -X POST -d "{\"account_id\":\"$OFFICIAL_ID\"}" "$DEMO_UPSTREAM_URL/_control/oauth/grants")
  # the grant's own fields come first; credentials_json after them repeats them inside the CLI files
  fields=$(sed -n 's/^{"access_token":"\([^"]*\)","refresh_token":"\([^"]*\)","expires_at":"\([^"]*\)","account_id":"\([^"]*\)".*/{"access_token":"\1","refresh_token":"\2","expires_at":"\3","account_id":"\4"}/p' <<<"$grant")
  [ -n "$fields" ] || die "the demo upstream's mock OAuth server gave no grant"
  expect 200 PUT "/credentials/$OFFICIAL_ID/oauth" "$fields" >/dev/null
  log "credential $OFFICIAL_ID authorized with the mock OAuth server"
}

seed_official_group() {
  if exists /groups/official; then
    log "group official exists"
  else
    create /groups "group official" \
      "{\"id\":\"official\",\"name\":\"official\",\"exposed_models\":$OFFICIAL_MODELS,\"credential_ids\":[\"$OFFICIAL_ID\"]}" >/dev/null
  fi
}

# The plaintext of an AccessKey is shown once, at creation: it is kept in $KEY_FILE. A key whose
# plaintext was lost is replaced.
seed_access_key() {
  if exists /access-keys/demo; then
    if [ -s "$KEY_FILE" ]; then
      log "AccessKey demo exists"
      return 0
    fi
    log "AccessKey demo exists but its plaintext is not in $KEY_FILE: replacing it"
    [ "$(status_of "$(admin DELETE /access-keys/demo)")" = 204 ] || die "could not delete AccessKey demo"
  fi
  local created key
  created=$(create /access-keys "AccessKey demo" \
    '{"id":"demo","name":"demo","group_ids":["primary","backup","official"]}')
  key=$(sed -n 's/.*"key":"\([^"]*\)".*/\1/p' <<<"$created")
  [ -n "$key" ] || die "no key in the answer: $created"
  mkdir -p "$(dirname "$KEY_FILE")"
  (umask 077 && printf '%s\n' "$key" >"$KEY_FILE")
}

cmd_seed() {
  # demo-a comes back by healthcheck probes (every minute), demo-b by schedule (03:00 UTC), demo-c by
  # its cooldown only.
  seed_credential demo-a a '{"mode":"healthcheck","interval_minutes":1}'
  seed_credential demo-b b '{"mode":"scheduled","times":["03:00"],"time_zone":"UTC"}'
  seed_credential demo-c c '{"mode":"off"}'
  # demo-d is in no group: no client traffic reaches it, only the tests `badges` runs
  seed_credential demo-d d '{"mode":"off"}'
  # primary takes nearly all traffic; backup takes over when primary has no working credential
  seed_group primary 100 '["demo-a","demo-b"]'
  seed_group backup 1 '["demo-c"]'
  # the official account serves the Codex models of its own group; a failure there leaves the rest of
  # the demo usable (a subshell: its die ends only this step)
  ( seed_official && seed_official_group ) || log "the official account $OFFICIAL_ID is not seeded (see above)"
  seed_access_key
}

# expect <status> <method> <path> [json]: an admin call that must answer <status>.
expect() {
  local want=$1 answer
  shift
  answer=$(admin "$@")
  [ "$(status_of "$answer")" = "$want" ] || die "$1 $2 answered $(status_of "$answer"), expected $want: $(body_of "$answer")"
}

# upstream <account letter> [json]: sets how demo-account-<letter> answers (no json: healthy again).
upstream() {
  local account="demo-account-$1" body=${2:-} code
  if [ -n "$body" ]; then
    code=$(curl -sS -o /dev/null -w '%{http_code}' -X PUT -d "$body" "$DEMO_UPSTREAM_URL/_control/accounts/$account")
  else
    code=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$DEMO_UPSTREAM_URL/_control/accounts/$account")
  fi
  case $code in 2??) ;; *) die "the demo upstream answered $code for $account" ;; esac
}

# model_test <credential> <model>: a connectivity test through recovery-service; its outcome goes
# through Kafka to state-service like any request's (a failing test counts as a failure).
model_test() {
  expect 200 POST "/credentials/$1/test" "{\"model\":\"$2\"}" >/dev/null
}

# await_model <credential> <model key> <field> <value>: waits until state-service shows the model
# with that field (a test's outcome reaches it through Kafka, a moment later).
await_model() {
  local began=$SECONDS
  until admin GET "/credentials/$1/models" | grep -q "\"model_key\":\"$2\"[^}]*\"$3\":$4"; do
    [ $((SECONDS - began)) -lt 30 ] || die "$1: $2 has no $3 $4 after 30s"
    sleep 0.5
  done
}

cmd_badges() {
  for id in demo-b demo-c demo-d; do
    exists "/credentials/$id" || die "credential $id is missing: run deploy/local/demo.sh seed"
    expect 200 PATCH "/credentials/$id" "{\"failure_policy\":$BADGES_POLICY}" >/dev/null
  done

  # demo-b, model by model (its account stays usable): upstream-sol throttled (cooling); upstream-glm
  # answering an error envelope that names sensitive words, with the error status after one failure
  # (and the sensitive-word reminder); then claude-sonnet-4-5 paused by hand and its mapping removed.
  # Each outcome is awaited before the next step: the policy is read when the outcome is applied, and
  # with the pause in place earlier the glm failure would leave no model available and escalate to an
  # account cooldown.
  upstream b '{"mode":"status","status":429,"model":"upstream-sol"}'
  model_test demo-b gpt-5.6-sol
  await_model demo-b upstream-sol has_row true
  expect 200 PATCH /credentials/demo-b "{\"failure_policy\":$ERROR_AT_ONCE_POLICY}" >/dev/null
  upstream b '{"mode":"error_body","model":"upstream-glm","message":"request blocked: sensitive_words_detected"}'
  model_test demo-b glm-5.3
  await_model demo-b upstream-glm status '"error"'
  expect 200 PATCH /credentials/demo-b "{\"failure_policy\":$BADGES_POLICY}" >/dev/null
  expect 200 POST /credentials/demo-b/models/claude-sonnet-4-5/pause >/dev/null
  expect 200 PATCH /credentials/demo-b \
    '{"model_mappings":[{"from":"gpt-5.6-sol","to":"upstream-sol"},{"from":"glm-5.3","to":"upstream-glm"}]}' >/dev/null
  log "demo-b: 错误 2 次, 模型 3 不可用 (cooling, error, paused with 已移除映射), sensitive-word reminder"

  # demo-c, the account: every model answers 500; once each has failed (cooling) no model is left and
  # the account cools as a whole
  upstream c '{"mode":"status","status":500}'
  model_test demo-c gpt-5.6-sol
  model_test demo-c glm-5.3
  model_test demo-c claude-sonnet-4-5
  log "demo-c: 错误 3 次, 冷却 N 秒 counting down from 300, 模型 3 不可用"

  # demo-d: the relay's shared budget pool is empty (the quota channel: status error at once)
  upstream d '{"mode":"quota"}'
  model_test demo-d gpt-5.6-sol
  log "demo-d: 异常 (error) with the blue budget-pool reminder"
  cat <<TXT

The console ($STATE_URL/console/) shows these within a few seconds. Hover a status tag for the
failure and the reminders, the orange badge for the models. demo-a is untouched, but a request that
fails there now finds demo-b and demo-c cooling: run the failover walkthrough after
deploy/local/demo.sh calm, which undoes all this.
TXT
}

cmd_calm() {
  local id
  for letter in b c d; do upstream "$letter"; done
  expect 200 PATCH /credentials/demo-b "{\"model_mappings\":$MAPPINGS}" >/dev/null
  for id in demo-b demo-c demo-d; do
    expect 200 PATCH "/credentials/$id" "{\"failure_policy\":$POLICY}" >/dev/null
    expect 200 POST "/credentials/$id/models/clear-all" >/dev/null
    expect 200 POST "/credentials/$id/restore" >/dev/null
  done
  expect 200 POST /credentials/demo-b/models/claude-sonnet-4-5/resume >/dev/null
  log "demo-b, demo-c, demo-d are healthy again, with the seed's policy and mappings"
}

cmd_info() {
  [ -s "$KEY_FILE" ] || die "no demo AccessKey yet: run deploy/local/demo.sh seed"
  local key
  key=$(cat "$KEY_FILE")
  cat <<TXT

Demo configuration: groups primary (demo-a, demo-b), backup (demo-c) and official (demo-codex); credentials on the demo
upstream $DEMO_UPSTREAM_URL with the keys demo-account-a/b/c/d (demo-d in no group); models
gpt-5.6-sol, glm-5.3, claude-sonnet-4-5. Cooldown 10 s; demo-a recovers by healthcheck, demo-b by
schedule.

Your AccessKey (also in $KEY_FILE):
  $key

Send a request (OpenAI Chat Completions):
  curl -s $GATEWAY_URL/v1/chat/completions -H "Authorization: Bearer $key" \\
    -H 'Content-Type: application/json' -d '{"model":"gpt-5.6-sol","messages":[{"role":"user","content":"hi"}]}'

Or with the OpenAI Python SDK (pip install openai):
  from openai import OpenAI
  client = OpenAI(base_url="$GATEWAY_URL/v1", api_key="$key")
  print(client.chat.completions.create(model="gpt-5.6-sol",
        messages=[{"role": "user", "content": "hi"}]).choices[0].message.content)

A bridged agent loop: an Anthropic Messages client against this OpenAI-compatible pool (the gateway
converts both ways). Offered a tool, the demo upstream calls it (arguments from the tool's schema):
  curl -s $GATEWAY_URL/v1/messages -H "x-api-key: $key" -H 'anthropic-version: 2023-06-01' \\
    -H 'Content-Type: application/json' -d '{"model":"claude-sonnet-4-5","max_tokens":256,
    "messages":[{"role":"user","content":"Weather in Paris?"}],
    "tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]}'
  -> "stop_reason":"tool_use" and a tool_use block with "id":"call_demo_1". Send the tool's result,
  the answer is a final text:
  curl -s $GATEWAY_URL/v1/messages -H "x-api-key: $key" -H 'anthropic-version: 2023-06-01' \\
    -H 'Content-Type: application/json' -d '{"model":"claude-sonnet-4-5","max_tokens":256,
    "messages":[{"role":"user","content":"Weather in Paris?"},
      {"role":"assistant","content":[{"type":"tool_use","id":"call_demo_1","name":"get_weather","input":{"city":"Paris"}}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"call_demo_1","content":"18 degrees"}]}],
    "tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]}'
  Add "stream":true to either to see it streamed frame by frame.

Try failover:
  1. make demo-account-a answer 429 for upstream-sol:
     curl -X PUT $DEMO_UPSTREAM_URL/_control/accounts/demo-account-a -d '{"mode":"status","status":429,"model":"upstream-sol"}'
  2. send requests: every one still answers 200 (the answer names the account that served it):
     for i in \$(seq 10); do curl -s -o /dev/null -w '%{http_code} ' $GATEWAY_URL/v1/chat/completions \\
       -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \\
       -d '{"model":"gpt-5.6-sol","messages":[{"role":"user","content":"hi"}]}'; done; echo
  3. see the model cooling on demo-a (reason cooling, remaining seconds), and the account's badges:
     curl -s -H "Authorization: Bearer $ADMIN_TOKEN" $ADMIN/credentials/demo-a/models
     curl -s -H "Authorization: Bearer $ADMIN_TOKEN" $ADMIN/credentials/demo-a
  4. flip it back, wait out the 10 s cooldown, send a few requests: once one lands on demo-a the row is gone:
     curl -X DELETE $DEMO_UPSTREAM_URL/_control/accounts/demo-account-a
  The demo upstream's request counts per account and model: curl -s $DEMO_UPSTREAM_URL/_control/accounts

An official (subscription) account: demo-codex, a Codex account of the demo upstream's mock OAuth
server, serves gpt-5 and gpt-5.1-codex (group official). Its access tokens live 6 minutes;
state-service refreshes each one 5 minutes before it expires, so about once a minute:
  curl -s $GATEWAY_URL/v1/chat/completions -H "Authorization: Bearer $key" \\
    -H 'Content-Type: application/json' -d '{"model":"gpt-5","messages":[{"role":"user","content":"hi"}]}'
  -> "Hello from demo account demo-codex via gpt-5"
  its authorization (state, access_expires_at and refreshed_at moving on; never a token):
     curl -s -H "Authorization: Bearer $ADMIN_TOKEN" $ADMIN/credentials/$OFFICIAL_ID/oauth
  the mock OAuth server's counters (refresh_calls, refresh_reuse) and switches:
     curl -s $DEMO_UPSTREAM_URL/_control/oauth
  make its next refresh fail for good (the account is revoked; seed authorizes it again):
     curl -X PUT $DEMO_UPSTREAM_URL/_control/oauth -d '{"invalid_grant_account":"$OFFICIAL_ID"}'
     ... wait for the refresh, then: curl -X DELETE $DEMO_UPSTREAM_URL/_control/oauth; deploy/local/demo.sh seed
  a usage-limit answer (the account cools until the reported reset, 2 minutes):
     curl -X PUT $DEMO_UPSTREAM_URL/_control/accounts/$OFFICIAL_ID -d '{"mode":"usage_limit","reset_after_seconds":120,"window":"5h"}'
  (An AccessKey demo made before the official group existed does not reach it: remove
  $KEY_FILE and run deploy/local/demo.sh seed for a new one.)

The console: $STATE_URL/console/ (sign in with the admin token $ADMIN_TOKEN). After step 1 and 2
the demo-a row shows 错误 1 次 and 模型 1 不可用. Every other badge at once (demo-b, demo-c, demo-d):
  deploy/local/demo.sh badges     (undo: deploy/local/demo.sh calm)
TXT
}

case ${1:-} in
  seed) cmd_seed ;;
  info) cmd_info ;;
  badges) cmd_badges ;;
  calm) cmd_calm ;;
  *) echo "usage: $0 seed|info|badges|calm" >&2; exit 2 ;;
esac
