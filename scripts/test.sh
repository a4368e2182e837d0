#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs every test suite of the repository.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

log() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# ---- System packages (Debian): every program the code and tests call, PostgreSQL when none answers ----
# ffmpeg for media; the three browser engines visitors arrive with (Chromium, Firefox ESR, WebKitGTK through
# WebKitWebDriver under xvfb-run); poppler-utils (pdftotext, pdftoppm) to read the PDFs the product makes;
# fontconfig (fc-match) and DejaVu for reels. Each is checked by the program the tests call, so a machine that has
# them installs nothing.
pg_answers() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have ffmpeg && have ffprobe || need+=(ffmpeg)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/firefox-esr ] || need+=(firefox-esr)
have WebKitWebDriver || need+=(webkit2gtk-driver)
# WebKitGTK decodes H.264 (WebCodecs and <video>) through GStreamer's libav and parser plugins, which Debian only
# recommends; without them WebKit finds no decoder for the tours' clips.
dpkg -s gstreamer1.0-libav >/dev/null 2>&1 || need+=(gstreamer1.0-libav)
dpkg -s gstreamer1.0-plugins-bad >/dev/null 2>&1 || need+=(gstreamer1.0-plugins-bad)
have xvfb-run || need+=(xvfb)
have xauth || need+=(xauth)
have pdftotext && have pdftoppm || need+=(poppler-utils)
have fc-match || need+=(fontconfig)
[ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)
if [ -z "${TEST_DATABASE_URL:-}" ] && ! pg_answers && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then need+=(postgresql); fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "Installing from Debian: ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || { echo "apt-get install ${need[*]} failed"; exit 1; }
  else
    echo "Please install these Debian packages first (as root): apt-get install ${need[*]}"; exit 1
  fi
fi

# ---- npm dependencies ----
log "npm dependencies"
if [ -d node_modules ] && [ -z "${CI:-}" ]; then npm install --no-audit --no-fund >/dev/null || exit 1; else npm ci --no-audit --no-fund >/dev/null || exit 1; fi

# ---- PostgreSQL for the production-path tests ----
PG_PRIVATE_DIR=""
cleanup() {
  if [ -n "$PG_PRIVATE_DIR" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_PRIVATE_DIR/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$PG_PRIVATE_DIR"
  fi
}
trap cleanup EXIT
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if pg_answers; then
    export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres"
  else
    PG_BIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
    PG_PRIVATE_DIR=$(mktemp -d /tmp/roomwalk-pg.XXXXXX)
    chown postgres "$PG_PRIVATE_DIR" 2>/dev/null || true
    log "Starting a private PostgreSQL on port 55432 ($PG_PRIVATE_DIR)"
    runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_PRIVATE_DIR/data" -U postgres --auth=trust >/dev/null || exit 1
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_PRIVATE_DIR/data" -o "-p 55432 -k $PG_PRIVATE_DIR -c listen_addresses=127.0.0.1" -w start >/dev/null || exit 1
    export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:55432/postgres"
  fi
fi
echo "PostgreSQL for tests: $TEST_DATABASE_URL"

passed=0; failed=0; failures=(); times=(); failure_logs=()
SUITE_LOGS=$(mktemp -d /tmp/roomwalk-test-logs.XXXXXX)
# Runs one suite, counts it and keeps its wall time for the summary. Its output is kept too, so that the summary can
# repeat what failed: a CI page that shows only the end of the output still names the failing test.
run() {
  local name=$1; shift
  log "$name"
  local t0=$SECONDS status=0 out="$SUITE_LOGS/$((passed + failed)).log"
  "$@" 2>&1 | tee "$out" || status=${PIPESTATUS[0]}
  if [ "$status" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); failure_logs+=("$out"); fi
  times+=("$(printf '%5d s  %s' $((SECONDS - t0)) "$name")")
}
# The lines of a failed suite's output that name what failed and why (Vitest, web-test-runner, Playwright, tsc, Biome).
failure_digest() {
  sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '(^ *FAIL |✘|✗|✖|^ +× |❌|^ *(Assertion|Type|Reference)?Error: |error TS|Timed out|Test timeout)' |
    grep -v '^ *✓' | head -15
}

# TEST_SUITES (comma list of typecheck, lint, unit, browser, e2e; all when unset) lets the GitHub workflow run the suites
# as separate jobs; `npm test` and .ci/run run them all.
want() { [ -z "${TEST_SUITES:-}" ] || [[ ",${TEST_SUITES}," == *",$1,"* ]]; }
has_script() { node -e "process.exit(require('./packages/$1/package.json').scripts?.['$2'] ? 0 : 1)"; }
want_browser() { want browser && has_script player-element test:engines; }
want_e2e() { want e2e && has_script console test:journeys; }

# ---- What the browser tests and the journeys need, made beside the type check and lint ----
# tsc and knip keep one core busy; the other makes the test videos and tours (once per machine: the cache of
# scripts/test-video-cache.mjs and the player tours' cache) and the player's and console's bundles. Joined before
# Vitest, whose timed tests then run without it beside them.
prepare() {
  set -e
  if want_browser; then
    node packages/player-element/test/fixtures.mjs
    node --import tsx packages/server/test/fixtures/player-tours.ts --prepare
  fi
  want_e2e && node --import tsx packages/console/e2e/support/make-videos.ts
  if want_browser || want_e2e; then npm run build --silent -w packages/player-element; fi
  want_e2e && npm run build:bundle --silent -w packages/console
  return 0
}
PREPARE_LOG=$(mktemp /tmp/roomwalk-test-prepare.XXXXXX)
prepare_t0=$SECONDS
if want_browser || want_e2e; then (prepare) >"$PREPARE_LOG" 2>&1 & PREPARE_PID=$!; else PREPARE_PID=""; fi
# When it fails (a timeout on a busy machine), the suites below run their own full scripts, which make what they need.
PREPARED=""
join_prepare() {
  [ -n "$PREPARE_PID" ] || return 0
  local ok=0
  wait "$PREPARE_PID" || ok=$?
  PREPARE_PID=""
  log "test videos, tours and bundles (made beside the type check and lint)"
  cat "$PREPARE_LOG"; rm -f "$PREPARE_LOG"
  times+=("$(printf '%5d s  %s' $((SECONDS - prepare_t0)) "test videos, tours and bundles (beside the type check and lint)")")
  if [ "$ok" -eq 0 ]; then PREPARED=1; else echo "WARNING: not all made ($ok); the browser tests and journeys build and make theirs"; fi
}

want typecheck && run "type check" npm run typecheck --silent
# Unused files, exports and dependencies (knip.jsonc says what runs).
want lint && run "lint: Biome (format and lint), knip (unused files, exports, dependencies)" npm run lint --silent
join_prepare
want unit && run "unit and integration tests (Vitest: shared, server, console)" npx vitest run
# The player's tests run through web-test-runner in Chromium, and the visitors' ones in Firefox ESR and WebKitGTK too
# (packages/player-element/test/README.md); the console's journeys through Playwright (the embed one in all three).
# Both were built above (their type checks are the type check suite's), else their full scripts build them.
if [ -n "$PREPARED" ]; then player_tests=test:engines journeys=test:journeys; else player_tests=test journeys=test:e2e; fi
want_browser && run "browser tests (player-element)" npm run "$player_tests" -w packages/player-element
want_e2e && run "end-to-end journeys (console)" npm run "$journeys" -w packages/console

log "Summary"
for t in "${times[@]}"; do echo "$t"; done
echo "$(printf '%5d s' "$SECONDS")  in all"
# What failed, last: a page that shows only the end of the output still names the test.
for i in "${!failures[@]}"; do
  echo "What failed in ${failures[$i]}:"
  failure_digest "${failure_logs[$i]}" | sed 's/^/  | /'
done
rm -rf "$SUITE_LOGS"
for f in "${failures[@]}"; do echo "FAILED: $f"; done
echo "suites: $passed passed, $failed failed"
[ $((passed + failed)) -gt 0 ] || { echo "no suite ran (TEST_SUITES=${TEST_SUITES:-})"; exit 1; }
[ "$failed" -eq 0 ]
