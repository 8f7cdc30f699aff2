#!/usr/bin/env bash
# Lists and calls every MCP tool with the official MCP Inspector CLI, as an agent meets the server.
#   B=http://127.0.0.1:3000 TOKEN=svc_pat_... PORTFOLIO=<id> bash apps/mcp/scripts/inspect.sh
# `tools/list --strict` prints every schema-portability finding on stderr (none expected); each
# call prints the tool, the Inspector's exit status (0 success, 5 isError) and the structured
# content, or the problem object read from the text content of a failed call.
set -uo pipefail
B=${B:-http://127.0.0.1:3000}
: "${TOKEN:?TOKEN=svc_pat_... is required}"
INSPECTOR=${INSPECTOR:-@modelcontextprotocol/inspector@latest}

inspect() {
  npx -y "$INSPECTOR" --cli "$B/api/mcp/user/mcp" --transport http \
    --header "Authorization: Bearer $TOKEN" "$@" 2> >(grep -v -e '^npm warn' -e '"tool_is_error"' >&2)
}

call() {
  local name=$1 out status
  shift
  local args=()
  for a in "$@"; do args+=(--tool-arg "$a"); done
  out=$(inspect --method tools/call --tool-name "$name" "${args[@]}")
  status=$?
  printf '%-22s exit %s  %s\n' "$name" "$status" "$(jq -c 'if .isError
    then {isError, problem: (.content[0].text | fromjson | {code, status, errors})}
    else {structuredContent: (.structuredContent | tostring | .[0:80] + "…")} end' <<<"$out")"
}

echo '$ inspector --method tools/list --strict'
inspect --method tools/list --strict | jq -r '.tools[] | "\(.name): \(.inputSchema.properties | keys | join(", "))"'
echo "exit ${PIPESTATUS[0]}"

echo '$ inspector --method tools/call (every tool)'
call listPortfolios
call listHoldings ${PORTFOLIO:+"portfolioId=$PORTFOLIO"}
call listCash
call getMoatEvaluation symbol=AAPL
call generateMoatNarrative symbol=AAPL language=en
call screenMoat sortBy=score limit=5
evaluation=$(inspect --method tools/call --tool-name getMoatEvaluation --tool-arg symbol=AAPL | jq -c .structuredContent)
call saveMoatReport symbol=AAPL "evaluationJson=$(jq -Rn --arg s "$evaluation" '$s')" 'tags=["core"]'
call listMoatReports 'tags=["core"]'

echo '$ inspector --method tools/call (failures)'
call getMoatEvaluation symbol=ZZZZ
call listHoldings portfolioId=00000000-0000-4000-8000-000000000000
call screenMoat limit=500
call saveMoatReport symbol=AAPL
