#!/usr/bin/env bash
# The whole test suite, as the README's test command (`npm test`) runs it:
#   1. unit and API tests on PGlite (in memory);
#   2. the database and API tests again on PostgreSQL (DATABASE_URL, or the local server at 127.0.0.1:5432);
#   3. the production build, then the smoke tests that run `npm start` as a newcomer would, and the cluster
#      tests (several processes of the build on one PostgreSQL database: tests/cluster);
#   4. (when tests/e2e has specs) Playwright in Debian's Chromium (its headless shell when installed).
# Ends with two lines: "flaky: ..." (the Playwright tests that failed and then passed on CI's retry, named so
# that a retry never hides one; "flaky: none" otherwise), then "N passed, N failed". A suite that cannot run is
# reported loudly, never skipped quietly; under CI=true it counts as a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
results=$(mktemp -d)
status=0
note() { printf '\n\033[1m== %s\033[0m (at %d s)\n' "$*" "$SECONDS"; }

run_vitest() { # name, extra args...
  local name=$1; shift
  note "$name"
  npx vitest run --reporter=default --reporter=json --outputFile="$results/$name.json" "$@" || status=1
}

# Vitest runs one file at a time on two cores (its default is one worker fewer than the cores). Measured on
# a quiet 2-core machine: PGlite's suite 339 s with one worker, 215 s with two (its WebAssembly keeps a core
# busy per file); PostgreSQL's 236 s with one, 153 s with three (the server's work is in its own processes).
cores=$(nproc 2>/dev/null || echo 2)

# 1. PGlite
env -u DATABASE_URL npx vitest --version >/dev/null
DATABASE_URL= run_vitest pglite --maxWorkers="$cores" --minWorkers=1

# 2. PostgreSQL
pg_url=${TEST_DATABASE_URL:-${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}}
pg_ok=false
if node -e "const c=new (require('pg').Client)({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" "$pg_url"; then
  pg_ok=true
  # Only the files that open a database (through the test harness or DATABASE_URL): the others (text
  # extraction, fingerprints, metadata...) gain nothing from a second run and cost minutes.
  # Left out, as they run the same on either (a third of this run's time): the PGlite folder tests and the
  # start-up faults (on PGlite by construction), and the authorization matrix (1,514 cases) and the fuzzer
  # (every route with odd inputs), which check the HTTP layer's answers, not the database (PGlite is
  # PostgreSQL's own engine). Measured: 138 s of this run's 500 s of test time.
  same_on_both='^(server/db/pglite-files|server/lifecycle|tests/api/authorization-matrix|tests/api/fuzz)\.test\.ts$'
  mapfile -t db_files < <(grep -rlE "createTestContext|testDatabase|DATABASE_URL|openDatabase" server tests/api --include='*.test.ts' | grep -vE "$same_on_both" | sort)
  DATABASE_URL=$pg_url run_vitest postgres --maxWorkers="$((cores + 1))" --minWorkers=1 "${db_files[@]}"
else
  note "PostgreSQL suite NOT RUN: no PostgreSQL answers at $pg_url (set TEST_DATABASE_URL or DATABASE_URL)"
  echo '{"numPassedTests":0,"numFailedTests":1}' > "$results/postgres-unreachable.json"
  [ "${CI:-}" = "true" ] && status=1
fi

# 3. Build, then the product as a newcomer starts it
note "build"
built=false
if npm run --silent build; then
  built=true
  run_vitest smoke --config vitest.smoke.config.ts
  if [ "$pg_ok" = true ]; then
    TEST_DATABASE_URL=$pg_url run_vitest cluster --config vitest.cluster.config.ts
  else
    note "Cluster suite NOT RUN: its server processes need PostgreSQL, and none answers at $pg_url"
    echo '{"numPassedTests":0,"numFailedTests":1}' > "$results/cluster-unreachable.json"
    [ "${CI:-}" = "true" ] && status=1
  fi
else
  echo '{"numPassedTests":0,"numFailedTests":1}' > "$results/build.json"
  status=1
fi

# 4. Browser tests (on the build above; a failed build is already counted)
if [ "$built" = true ] && compgen -G "tests/e2e/*.spec.ts" >/dev/null; then
  # The tests run Chromium's headless shell (tests/e2e/env.ts: the suite takes two thirds of the full browser's
  # time); the full browser is the fallback, and the benches' (Lighthouse).
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      note "installing Debian's Chromium and its headless shell for the browser tests"
      (apt-get update -qq && apt-get install -y -qq chromium chromium-headless-shell) >/dev/null || true
    fi
  fi
  if [ -x /usr/bin/chromium ] || [ -x /usr/lib/chromium/chromium-headless-shell ]; then
    note "playwright"
    # The servers come from playwright.config.ts (tests/e2e/serve.mjs on temporary data folders), on the
    # build made above. The JSON report is what sum-results.mjs counts.
    PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.pw.json" npx playwright test --reporter=list,json || status=1
    if [ ! -s "$results/playwright.pw.json" ]; then
      note "Playwright wrote no report: it stopped before running the suite (see above)"
      echo '{"numPassedTests":0,"numFailedTests":1}' > "$results/playwright-no-report.json"
      status=1
    fi
  else
    note "Browser tests NOT RUN: Chromium is missing. Install it with: apt-get install -y chromium chromium-headless-shell"
    echo '{"numPassedTests":0,"numFailedTests":1}' > "$results/chromium-missing.json"
    status=1
  fi
fi

note "all suites run"
# sum-results.mjs names the flaky tests on stderr, one a line after its heading.
summary=$(node scripts/sum-results.mjs "$results" 2>"$results/flaky.txt")
flaky=$(sed -n 's/^  //p' "$results/flaky.txt" | paste -sd ';' - | sed 's/;/; /g')
echo
echo "flaky: ${flaky:-none}"
echo "$summary"
case "$summary" in *" 0 failed"*) ;; *) status=1 ;; esac
rm -rf "$results"
exit $status
