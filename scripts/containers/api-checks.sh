# shellcheck shell=bash
# Sourced by scripts/test-containers.sh: the HTTP calls its checks make, from
# the host, through the ports compose publishes on 127.0.0.1.
#
# Needs: log, die (scripts/lib.sh), curl, python3, $MDC_ADMIN_TOKEN.

# wait_health URL SECONDS: until GET URL/health answers 200.
wait_health() {
  local url=$1 deadline=$((SECONDS + $2))
  until curl -fsS -o /dev/null --max-time 3 "$url/health" 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 1
  done
}

# http_call METHOD URL TOKEN [BODY]: prints the status code, then the body,
# on one line each (the body of mdc's answers is one line of JSON).
http_call() {
  local method=$1 url=$2 token=$3 body=${4:-}
  local args=(-sS --max-time 30 -X "$method" -H "Authorization: Bearer $token"
    -w '\n%{http_code}')
  [ -z "$body" ] || args+=(-H 'Content-Type: application/json' --data "$body")
  local out
  out=$(curl "${args[@]}" "$url") || return 1
  printf '%s\n%s\n' "${out##*$'\n'}" "${out%$'\n'*}"
}

# expect_status WANT METHOD URL TOKEN [BODY]: the call's body on stdout when
# it answers WANT; dies naming the call otherwise.
expect_status() {
  local want=$1 answer status
  shift
  answer=$(http_call "$@") || die "$1 $2: no answer"
  status=$(head -n1 <<<"$answer")
  [ "$status" = "$want" ] || die "$1 $2: $status, not $want: $(tail -n +2 <<<"$answer")"
  tail -n +2 <<<"$answer"
}

# json_field FIELD: FIELD of the JSON object on stdin.
json_field() {
  python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

# new_developer GATEWAY NAME: creates developer NAME with the admin token and
# prints its token.
new_developer() {
  expect_status 200 POST "$1/v1/admin/developers" "$MDC_ADMIN_TOKEN" \
    "{\"username\": \"$2\", \"role\": \"developer\"}" | json_field token
}

# shortlist_body TIME SYMBOL PRICE: a TOP_GAINERS shortlist of one entry at
# TIME (Asia/Kolkata).
shortlist_body() {
  printf '{"data": {"timestamp": "%s", "timezone": "Asia/Kolkata", "shortlistType": "TOP_GAINERS", "scope": "FULL", "entries": [{"nseSymbol": "%s", "name": "%s Ltd", "price": %s}]}}' \
    "$1" "$2" "$2" "$3"
}

# save_shortlist GATEWAY TOKEN TIME SYMBOL PRICE: the write, answered 200.
save_shortlist() {
  expect_status 200 POST "$1/v1/developer/collector/shortlists" "$2" \
    "$(shortlist_body "$3" "$4" "$5")" >/dev/null
}

# read_shortlist GATEWAY TOKEN TIME: "SYMBOL PRICE" of the first entry of the
# TOP_GAINERS shortlist as of TIME, or nothing when there is none (404).
read_shortlist() {
  local answer status
  answer=$(http_call GET "$1/v1/developer/lists?type=TOP_GAINERS&scope=FULL&datetime=$3&timezone=Asia/Kolkata" "$2") ||
    return 1
  status=$(head -n1 <<<"$answer")
  case $status in
    200) tail -n +2 <<<"$answer" | python3 -c 'import json, sys
e = json.load(sys.stdin)["entries"][0]
print(e["nseSymbol"], e["price"])' ;;
    404) ;;
    *) die "GET $1/v1/developer/lists: $status: $(tail -n +2 <<<"$answer")" ;;
  esac
}

# expect_shortlist GATEWAY TOKEN TIME SYMBOL PRICE SECONDS: reads the
# shortlist at TIME until it is SYMBOL at PRICE (a read may go to a standby
# that lags behind by up to MDC_REPLICA_MAX_LAG), for at most SECONDS.
expect_shortlist() {
  local got deadline=$((SECONDS + $6))
  while true; do
    got=$(read_shortlist "$1" "$2" "$3")
    [ "$got" != "$4 $5" ] || return 0
    [ "$SECONDS" -lt "$deadline" ] || die "shortlist at $3 through $1: '$got', not '$4 $5'"
    sleep 0.5
  done
}
