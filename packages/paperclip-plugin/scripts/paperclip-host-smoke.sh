#!/usr/bin/env bash
# Smoke test of @memplane/paperclip-plugin inside a real Paperclip host (not the SDK test harness).
#
# Run by hand, never in CI: it needs the npm registry (Node 24, paperclipai, the plugin's
# dependencies), a PostgreSQL server, and a C/C++ toolchain (python3, make, g++) to build
# better-sqlite3 for Node 24. Nothing else is reached over the network; the host's telemetry,
# feedback export and announcements are switched off.
#
# What it does, in a work folder outside the repository:
#   1. Node 24 from the registry (`node@24`), `paperclipai@$PAPERCLIP_VERSION` (scripts ignored).
#   2. Packs this package and the workspace packages it needs (its @memplane dependencies, and
#      theirs, and markdown, the worker's default provider) from their built dist/, installs them
#      as a local-path plugin folder with better-sqlite3 built against Node 24's headers.
#   3. Starts Paperclip on PostgreSQL (`paperclipai onboard -y`, loopback, local_trusted).
#   4. `paperclipai plugin install <folder>` (the manifest names no minimumHostVersion: this host
#      reports "0.0.0", paperclipai/paperclip#8115), then drives the host: a company whose own
#      config (Paperclip keeps one per plugin and company) has a markdown binding and an explicit
#      storage.dataDirectory (the worker runs without HOME), a project, a "process" agent (a small Node script that comments on its issue and
#      calls the memory tools through the host's tool route), a tool profile allowing the agent's
#      tool calls, an issue assigned to the agent, a board comment, a document created and updated.
#   5. Reads back through the host: plugin status, tools, UI slots, the managed skill, the issue's
#      documents, the worker's UI data (operation log of the issue), the agent run's tool answers.
#   6. A second company in http mode: its service.token is a company secret named by a
#      { "type": "secret_ref", "secretId": ... } in its saved config, its service.url the host's own
#      loopback address. The host resolves the secret (bound at config save) and then refuses the
#      loopback address in ctx.http; the worker must answer a non-retryable MEMORY_CONFIGURATION
#      that names the private/reserved refusal, and the first company must be untouched.
#
# Usage:  packages/paperclip-plugin/scripts/paperclip-host-smoke.sh
# Build first (from the repository root):
#   TURBO_TELEMETRY_DISABLED=1 npx turbo run build --filter=@memplane/paperclip-plugin...
#
# Environment:
#   SMOKE_DIR           work folder (default: a new mktemp -d folder)
#   SMOKE_DATABASE_URL  postgres:// URL of an empty database; when unset and run as root with a local
#                       PostgreSQL, a role and database "paperclip_smoke_<random>" are created
#   SMOKE_PORT          host port (default 3100)
#   PAPERCLIP_VERSION   host version (default 2026.916.1)
#   SMOKE_KEEP=1        leave the host running at the end (its PID is printed)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
version="${PAPERCLIP_VERSION:-2026.916.1}"
port="${SMOKE_PORT:-3100}"
work="${SMOKE_DIR:-$(mktemp -d -t paperclip-smoke.XXXXXX)}"
mkdir -p "$work"
api="http://127.0.0.1:$port"
log() { printf '\n== %s\n' "$*"; }
fail() { printf 'SMOKE FAILED: %s\n' "$*" >&2; exit 1; }

# The workspace folders to pack: the plugin, markdown, and every @memplane package they depend on, transitively.
packed="$(node - "$repo" <<'EOF'
const fs = require('fs'); const path = require('path'); const repo = process.argv[2];
const folders = {};
for (const group of ['packages', 'adapters']) for (const name of fs.readdirSync(path.join(repo, group))) {
  const file = path.join(repo, group, name, 'package.json');
  if (fs.existsSync(file)) folders[JSON.parse(fs.readFileSync(file, 'utf8')).name] = `${group}/${name}`;
}
const wanted = new Set(); const queue = ['@memplane/paperclip-plugin', '@memplane/markdown'];
while (queue.length > 0) {
  const name = queue.shift(); if (wanted.has(name) || folders[name] === undefined) continue; wanted.add(name);
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, folders[name], 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) if (dependency.startsWith('@memplane/')) queue.push(dependency);
}
console.log([...wanted].map((name) => folders[name]).join(' '));
EOF
)"
for pkg in $packed; do
  [ -d "$repo/$pkg/dist" ] || fail "$pkg/dist is missing: build first (see the header of this script)"
done
command -v make >/dev/null && command -v g++ >/dev/null && command -v python3 >/dev/null || fail "make, g++ and python3 are needed to build better-sqlite3"

export DO_NOT_TRACK=1 PAPERCLIP_TELEMETRY_DISABLED=1 PAPERCLIP_ANNOUNCEMENTS_ENABLED=false
export PAPERCLIP_FEEDBACK_EXPORT_BACKEND_URL=http://127.0.0.1:9 PAPERCLIP_TELEMETRY_BACKEND_URL=http://127.0.0.1:9
export PAPERCLIP_TELEMETRY_ENDPOINT=http://127.0.0.1:9 TURBO_TELEMETRY_DISABLED=1
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
export HOME="$work/home" PORT="$port"
mkdir -p "$HOME"

log "Node 24 and paperclipai@$version in $work"
[ -x "$work/node24/node_modules/node/bin/node" ] || npm install --prefix "$work/node24" --no-save node@24 >/dev/null
node24="$work/node24/node_modules/node/bin/node"
headers="$(dirname "$(ls -d "$work"/node24/node_modules/node/node_modules/node-*/include/node | head -1)")/.."
export PATH="$(dirname "$node24"):$work/host/node_modules/.bin:$PATH"
node --version | grep -q '^v24\.' || fail "node 24 is not first on PATH"
if [ ! -x "$work/host/node_modules/.bin/paperclipai" ]; then
  mkdir -p "$work/host" && echo '{"name":"paperclip-smoke-host","private":true}' > "$work/host/package.json"
  (cd "$work/host" && npm install --no-save --ignore-scripts "paperclipai@$version" >/dev/null)
fi
pc() { paperclipai "$@" -d "$work/data" --api-base "$api"; }

log "plugin folder (packed from the repository)"
rm -rf "$work/tgz" "$work/plugin" && mkdir -p "$work/tgz" "$work/plugin"
for pkg in $packed; do
  (cd "$repo/$pkg" && npm pack --ignore-scripts --pack-destination "$work/tgz" >/dev/null 2>&1)
done
tar xzf "$work/tgz/memplane-paperclip-plugin-"*.tgz -C "$work/plugin" --strip-components=1
node - "$work" <<'EOF'
const fs = require('fs'); const path = require('path'); const work = process.argv[2];
const tgz = (name) => 'file:' + path.join(work, 'tgz', fs.readdirSync(path.join(work, 'tgz')).find((f) => f.startsWith(`memplane-${name}-`)));
const file = path.join(work, 'plugin', 'package.json'); const p = JSON.parse(fs.readFileSync(file, 'utf8'));
delete p.devDependencies; delete p.peerDependencies; delete p.peerDependenciesMeta;
// Every @memplane package from its tarball: the plugin's own dependencies directly, theirs by override.
// The worker's store (better-sqlite3) and default provider (markdown) are optional peers: install them beside it.
const packedNames = fs.readdirSync(path.join(work, 'tgz')).map((f) => /^memplane-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(f)?.[1]).filter((name) => name !== undefined && name !== 'paperclip-plugin');
const local = Object.fromEntries(packedNames.map((name) => [`@memplane/${name}`, tgz(name)]));
for (const name of Object.keys(p.dependencies)) if (local[name] !== undefined) p.dependencies[name] = local[name];
Object.assign(p.dependencies, { '@memplane/markdown': local['@memplane/markdown'], 'better-sqlite3': '^12.4.1' });
p.overrides = local;
fs.writeFileSync(file, JSON.stringify(p, null, 2));
EOF
(cd "$work/plugin" && npm install --omit=dev --ignore-scripts >/dev/null)
gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$gyp" ] || gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
(cd "$work/plugin/node_modules/better-sqlite3" && node "$gyp" rebuild --release --nodedir="$headers" -j 2 >"$work/better-sqlite3-build.log" 2>&1) \
  || fail "better-sqlite3 did not build for Node 24 (see $work/better-sqlite3-build.log)"
(cd "$work/plugin" && node -e "new (require('better-sqlite3'))(':memory:')") || fail "better-sqlite3 does not load on Node 24"
grep -Eq "^\s*minimumHostVersion:" "$work/plugin/dist/manifest.js" && fail "the built manifest names minimumHostVersion, which this host refuses (it reports 0.0.0)"

log "PostgreSQL"
db_url="${SMOKE_DATABASE_URL:-}"
if [ -z "$db_url" ]; then
  [ "$(id -u)" = 0 ] && command -v psql >/dev/null || fail "set SMOKE_DATABASE_URL to an empty PostgreSQL database"
  name="paperclip_smoke_$(head -c4 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  su postgres -c "psql -q -c \"CREATE ROLE $name LOGIN PASSWORD '$name' SUPERUSER\" -c 'CREATE DATABASE $name OWNER $name'"
  db_url="postgres://$name:$name@127.0.0.1:5432/$name"
fi
export DATABASE_URL="$db_url"

log "Paperclip host on $api"
# The host runs in its own session, so the cleanup can stop it with its plugin workers (one process group).
rm -f "$work/host.pid"
setsid bash -c 'echo $$ >"$1/host.pid"; cd "$1" && exec paperclipai onboard -y -d "$1/data" --no-install-service >"$1/host.log" 2>&1' smoke-host "$work" &
for _ in $(seq 1 50); do [ -s "$work/host.pid" ] && break; sleep 0.1; done
cleanup() { if [ "${SMOKE_KEEP:-0}" != 1 ] && [ -f "$work/host.pid" ]; then kill -- "-$(cat "$work/host.pid")" 2>/dev/null || true; fi; }
trap cleanup EXIT
for _ in $(seq 1 120); do curl -sf "$api/api/health" >/dev/null && break; sleep 1; done
curl -sf "$api/api/health" >/dev/null || fail "the host did not start (see $work/host.log)"

# JSON helpers (the host's answers are read with Node, not jq).
post() { curl -sS -X "${3:-POST}" "$api$1" -H 'content-type: application/json' -d "$2"; }
field() { node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{let v=JSON.parse(s);for(const k of process.argv[1].split("."))v=v?.[k];process.stdout.write(typeof v==="string"?v:JSON.stringify(v??null))})' "$1"; }
results=()
check() { if eval "$2"; then results+=("PASS  $1"); else results+=("FAIL  $1"); fi; }

log "plugin install"
pc plugin install "$work/plugin" 2>&1 | tee "$work/install.log" || true
plugin_id="$(curl -sS "$api/api/plugins" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const p=JSON.parse(s).find((x)=>x.pluginKey==="memplane.memory");process.stdout.write(p?p.id:"")})')"
check "the host accepts the manifest (plugin installed)" '[ -n "$plugin_id" ]'
[ -n "$plugin_id" ] || { printf '%s\n' "${results[@]}"; fail "install refused (see $work/install.log)"; }
status="$(curl -sS "$api/api/plugins/$plugin_id" | field status)"
check "the worker starts (status ready, got: $status)" '[ "$status" = ready ]'
[ "$status" = ready ] || { sed 's/\x1b\[[0-9;]*m//g' "$work/host.log" | grep -E '^ +err(or)?: ' | cut -c1-300 | tail -3; printf '%s\n' "${results[@]}"; fail "the worker did not start"; }
check "4 agent tools registered" '[ "$(curl -sS "$api/api/plugins/tools" | node -pe "JSON.parse(require(\"fs\").readFileSync(0)).filter((t)=>t.name.startsWith(\"memplane.memory:\")).length")" = 4 ]'
check "UI slots accepted (companySettingsPage + issue detailTab)" 'curl -sS "$api/api/plugins/ui-contributions" | grep -q companySettingsPage && curl -sS "$api/api/plugins/ui-contributions" | grep -q detailTab'
check "UI bundle served" '[ "$(curl -s -o /dev/null -w "%{http_code}" "$api/_plugins/$plugin_id/ui/index.js")" = 200 ]'

log "company, binding config, project, agent, tool profile"
company="$(post /api/companies '{"name":"memplane smoke"}' | field id)"
# The company's own config: no companies nesting; the data folder explicit (the worker gets no HOME).
config="{\"configJson\":{\"storage\":{\"dataDirectory\":\"$work/memplane-data\"},\"bindings\":[{\"key\":\"default\",\"providerId\":\"markdown\",\"hooks\":{\"issueCommentCapture\":true,\"issueDocumentCapture\":true,\"postRunCapture\":true}}],\"default\":\"default\"}}"
pc plugin config:set "$plugin_id" -C "$company" --payload-json "$config" >/dev/null
check "memory skill installed for the new company" 'curl -sS "$api/api/companies/$company/skills" | grep -q memplane-memory'
project="$(post "/api/companies/$company/projects" '{"name":"smoke"}' | field id)"
cat >"$work/agent.mjs" <<'EOF'
// A Paperclip "process" agent: comments on its run's issue, then calls the memory tools as the run.
const { PAPERCLIP_API_URL: api, PAPERCLIP_API_KEY: key, PAPERCLIP_RUN_ID: runId, PAPERCLIP_AGENT_ID: agentId, PAPERCLIP_COMPANY_ID: companyId } = process.env;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-paperclip-run-id': runId };
const call = async (method, path, body) => {
  const res = await fetch(`${api}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  console.log(`SMOKE ${method} ${path} -> ${res.status} ${text.slice(0, 600).replaceAll('\n', ' ')}`);
  try { return JSON.parse(text); } catch { return undefined; }
};
const [first] = (await call('GET', `/api/heartbeat-runs/${runId}/issues`)) ?? [];
if (first === undefined) process.exit(0);
const issue = await call('GET', `/api/issues/${first.issueId}`);
await call('POST', `/api/issues/${issue.id}/comments`, { body: `Run ${runId}: the billing ledger stays in Postgres with monthly partitions.` });
const runContext = { agentId, runId, companyId, projectId: issue.projectId };
await call('POST', '/api/plugins/tools/execute', { tool: 'memplane.memory:memory_search', parameters: { query: 'billing ledger' }, runContext });
await call('POST', '/api/plugins/tools/execute', { tool: 'memplane.memory:memory_note', parameters: { text: 'Ledgers use monthly partitions.' }, runContext });
await call('POST', '/api/plugins/tools/execute', { tool: 'memplane.memory:memory_search', parameters: { query: 'x', companyId: 'another' }, runContext });
EOF
agent="$(post "/api/companies/$company/agents" "{\"name\":\"Smoke agent\",\"role\":\"engineer\",\"adapterType\":\"process\",\"adapterConfig\":{\"command\":\"$node24\",\"args\":[\"$work/agent.mjs\"],\"cwd\":\"$work\",\"timeoutSec\":60}}" | field id)"
# Paperclip denies an agent's plugin tool calls unless a tool profile, grant or policy allows them.
profile="$(post "/api/companies/$company/tools/profiles" '{"profileKey":"memplane-smoke","name":"memplane smoke","defaultAction":"allow"}' | field id)"
post "/api/companies/$company/tools/profiles/$profile/bind" "{\"targetType\":\"agent\",\"targetId\":\"$agent\"}" >/dev/null
# The agent gets a binding of its own with post_run_capture alone: with comment capture on as well,
# its comments would be kept once by issue_comment_capture and the run's output would hold nothing
# new (each comment is stored once), so post_run_capture would log no operation to check. Both
# bindings keep one markdown root, so the agent's recall also finds the board's (company-shared)
# comment, the only memory its issue document may show.
config="{\"configJson\":{\"storage\":{\"dataDirectory\":\"$work/memplane-data\"},\"bindings\":[{\"key\":\"default\",\"providerId\":\"markdown\",\"config\":{\"root\":\"shared\"},\"hooks\":{\"issueCommentCapture\":true,\"issueDocumentCapture\":true,\"postRunCapture\":true}},{\"key\":\"runs\",\"providerId\":\"markdown\",\"config\":{\"root\":\"shared\"},\"hooks\":{\"postRunCapture\":true}}],\"default\":\"default\",\"agents\":{\"$agent\":\"runs\"}}}"
pc plugin config:set "$plugin_id" -C "$company" --payload-json "$config" >/dev/null

log "an issue assigned to the agent (run 1), a board comment (run 2), a document created and updated"
issue="$(post "/api/companies/$company/issues" "{\"title\":\"Choose the billing ledger database\",\"description\":\"Where the billing ledger lives and how it is partitioned.\",\"projectId\":\"$project\",\"assigneeAgentId\":\"$agent\",\"status\":\"todo\"}" | field id)"
finished_runs() { curl -sS "$api/api/companies/$company/heartbeat-runs?agentId=$agent" | node -pe "JSON.parse(require('fs').readFileSync(0)).filter((r)=>['succeeded','failed','cancelled','timed_out'].includes(r.status)).length"; }
wait_runs() { for _ in $(seq 1 90); do [ "$(finished_runs)" -ge "$1" ] && return 0; sleep 1; done; return 1; }
wait_runs 1 || echo "(no finished run seen through the API; reading on)"
sleep 3
post "/api/issues/$issue/comments" '{"body":"Board: keep the ledger for seven years."}' >/dev/null
wait_runs 2 || true
sleep 3
post "/api/issues/$issue/documents/plan" '{"title":"Plan","format":"markdown","body":"# Plan\nPostgres, monthly partitions."}' PUT >/dev/null
revision="$(curl -sS "$api/api/issues/$issue/documents/plan" | field latestRevisionId)"
post "/api/issues/$issue/documents/plan" "{\"title\":\"Plan\",\"format\":\"markdown\",\"body\":\"# Plan v2\\nPostgres, monthly partitions, seven years.\",\"baseRevisionId\":\"$revision\"}" PUT >/dev/null
sleep 3
pc agent pause "$agent" >/dev/null 2>&1 || true

log "read back"
ops="$(post "/api/plugins/$plugin_id/bridge/data" "{\"key\":\"memplane.issue-memory\",\"companyId\":\"$company\",\"params\":{\"issueId\":\"$issue\"}}")"
echo "$ops" >"$work/issue-memory.json"
for hook in issue_comment_capture post_run_capture issue_document_capture; do
  check "$hook in the issue's operation log" 'echo "$ops" | grep -q "\"hookKind\":\"$hook\""'
done
check "post_run_capture kept the run's comments under the agent's own binding" 'echo "$ops" | node -e "const d=JSON.parse(require(\"fs\").readFileSync(0)).data;process.exit(d.operations.some((o)=>o.hookKind===\"post_run_capture\"&&o.bindingKey===\"runs\"&&o.status===\"succeeded\"&&o.agentId===\"$agent\")?0:1)"'
docs="$(curl -sS "$api/api/issues/$issue/documents")"
check "pre_run_hydrate wrote the memplane-memory document" 'echo "$docs" | grep -q "\"key\":\"memplane-memory\""'
preamble_doc="$(curl -sS "$api/api/issues/$issue/documents/memplane-memory")"
check "the memplane-memory document shows the board's shared memory" 'echo "$preamble_doc" | grep -q "seven years"'
check "the memplane-memory document never shows the agent's own note" '! echo "$preamble_doc" | grep -q "Ledgers use monthly partitions"'
runs_log="$(for r in $(curl -sS "$api/api/companies/$company/heartbeat-runs?agentId=$agent" | node -pe "JSON.parse(require('fs').readFileSync(0)).map((r)=>r.id).join(' ')"); do pc run log "$r" 2>/dev/null; done)"
echo "$runs_log" >"$work/runs.log"
check "agent tool memory_search answered (200)" 'echo "$runs_log" | grep -q "tools/execute -> 200"'
check "agent tool memory_note recorded a memory" 'echo "$runs_log" | grep -q "Noted as"'
check "a companyId in tool parameters is refused" 'echo "$runs_log" | grep -q "Unrecognized key"'
plain_log="$(sed 's/\x1b\[[0-9;]*m//g' "$work/host.log")"
check "setup did not call ctx.config.get() without a company" '! echo "$plain_log" | grep -q "config.get.\{0,4\}: company context is required"'
check "later hydrations update memplane-memory (no baseRevisionId conflict)" '! echo "$plain_log" | grep -q "Document update requires baseRevisionId"'
check "the first company's memory is in its configured data folder" '[ -f "$work/memplane-data/memplane.db" ]'

log "a second company in http mode: a secret_ref token, a loopback URL the host refuses"
company_b="$(post /api/companies '{"name":"memplane smoke http"}' | field id)"
secret_b="$(post "/api/companies/$company_b/secrets" '{"name":"memplane serve token","value":"mps_smoke-token-not-real"}' | field id)"
config_b="{\"configJson\":{\"service\":{\"mode\":\"http\",\"url\":\"$api\",\"token\":{\"type\":\"secret_ref\",\"secretId\":\"$secret_b\"}},\"bindings\":[{\"key\":\"default\",\"providerId\":\"markdown\"}],\"default\":\"default\"}}"
pc plugin config:set "$plugin_id" -C "$company_b" --payload-json "$config_b" >"$work/config-b.log" 2>&1 || true
check "the host saved the secret_ref config of company B (secret $secret_b)" '[ -n "$secret_b" ] && grep -q "\"secretId\": \"$secret_b\"" "$work/config-b.log"'
ops_b="$(post "/api/plugins/$plugin_id/bridge/data" "{\"key\":\"memplane.settings\",\"companyId\":\"$company_b\",\"params\":{}}")"
echo "$ops_b" >"$work/company-b-settings.json"
check "company B: the token secret_ref resolved (no secrets error)" '! echo "$ops_b" | grep -q "could not be resolved from Paperclip secrets"'
# Only the worker's MEMORY_CONFIGURATION branch says "ctx.http refused"; the retryable one says "could not be reached".
check "company B: the host refusal of a loopback URL is the configuration error naming private/reserved ranges" 'echo "$ops_b" | grep -q "ctx.http refused memplane serve" && echo "$ops_b" | grep -q "private/reserved ranges"'
ops_a="$(post "/api/plugins/$plugin_id/bridge/data" "{\"key\":\"memplane.issue-memory\",\"companyId\":\"$company\",\"params\":{\"issueId\":\"$issue\"}}")"
check "company A still answers from its own storage after company B failed" 'echo "$ops_a" | grep -q "\"hookKind\":\"issue_comment_capture\""'

printf '\n== results (work folder: %s, host log: %s/host.log)\n' "$work" "$work"
printf '%s\n' "${results[@]}"
[ "${SMOKE_KEEP:-0}" = 1 ] && echo "host left running, process group $(cat "$work/host.pid")"
! printf '%s\n' "${results[@]}" | grep -q '^FAIL'
