#!/usr/bin/env bash
# Lists and calls every MCP tool, lists and reads the resources, and lists and gets the prompts
# with the official MCP Inspector CLI, as an agent meets the server.
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
call getEvaluationHistory symbol=AAPL limit=5
call compareEvaluations symbol=AAPL
call getPortfolioXray ${PORTFOLIO:+"portfolioId=$PORTFOLIO"}

echo '$ inspector --method tools/call (failures)'
call getMoatEvaluation symbol=ZZZZ
call listHoldings portfolioId=00000000-0000-4000-8000-000000000000
call screenMoat limit=500
call saveMoatReport symbol=AAPL
call compareEvaluations symbol=AAPL from=00000000-0000-4000-8000-000000000000

echo '$ inspector --method resources/templates/list, resources/list, resources/read'
inspect --method resources/templates/list | jq -r '.resourceTemplates[] | "\(.name): \(.uriTemplate) (\(.mimeType))"'
inspect --method resources/list | jq -r '.resources[] | "\(.uri) \(.mimeType)"' | head -8
report=$(inspect --method resources/list | jq -r '[.resources[] | select(.uri | startswith("moat://reports/"))][0].uri')
for uri in "$report" "$report/markdown" moat://evaluations/AAPL moat://evaluations/AAPL/markdown; do
  out=$(inspect --method resources/read --uri "$uri")
  printf '%-60s exit %s  %s\n' "$uri" "$?" "$(jq -c '.contents[0] | {mimeType, text: (.text | .[0:60] + "…")}' <<<"$out")"
done
echo '(a report id that is not the token owner'"'"'s, and an uncached symbol: -32002, exit 1)'
inspect --method resources/read --uri moat://reports/00000000-0000-4000-8000-000000000000 >/dev/null
echo "exit $?"
inspect --method resources/read --uri moat://evaluations/ZZZZ >/dev/null
echo "exit $?"

echo '$ inspector --method prompts/list, prompts/get'
inspect --method prompts/list | jq -r '.prompts[] | "\(.name)(\([.arguments[]? | .name + (if .required then "" else "?" end)] | join(", ")))"'
prompt() {
  local name=$1 out status
  shift
  local args=()
  for a in "$@"; do args+=(--prompt-args "$a"); done
  out=$(inspect --method prompts/get --prompt-name "$name" "${args[@]}")
  status=$?
  printf '%-22s exit %s  %s\n' "$name" "$status" "$(jq -c '[.messages[] | .content | if .type == "text" then .text[0:70] + "…" else {type, uri: .resource.uri} end]' <<<"$out")"
}
prompt evaluateCompany symbol=AAPL
prompt reviewPortfolioMoats ${PORTFOLIO:+"portfolioId=$PORTFOLIO"}
prompt explainCriterion criterion=gross_margin
