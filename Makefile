# The two commands of the README: `make serve` and `make test`.
# Everything is installed from the lock file into .venv; uv itself lives in .tools.
UV := .tools/bin/uv
ARGS ?=

.PHONY: serve test fuzz lint openapi bench install

$(UV):
	python3 -m venv .tools
	.tools/bin/pip install --quiet uv==0.13.8

.venv/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen
	touch $@

install: .venv/.synced

serve: .venv/.synced
	.venv/bin/referee serve $(ARGS)

# The OpenAPI linters (Redocly, Spectral) from the npm registry, at the versions of
# tests/spec/package-lock.json; Node and npm come from the machine.
SPEC_LINTERS := tests/spec/node_modules/.installed
$(SPEC_LINTERS): tests/spec/package.json tests/spec/package-lock.json
	npm ci --prefix tests/spec --no-audit --no-fund --loglevel=error
	touch $@

test: .venv/.synced $(SPEC_LINTERS)
	$(UV) run --frozen ruff check .
	$(UV) run --frozen ruff format --check .
	$(UV) run --frozen mypy
	$(UV) run --frozen pytest $(ARGS)

# Schemathesis with every check, FUZZ_EXAMPLES examples per operation, against one game of every
# kind (tests/api/test_schemathesis.py; `make test` runs 30).
FUZZ_EXAMPLES ?= 1000
fuzz: .venv/.synced
	REFEREE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(UV) run --frozen pytest -p no:cacheprovider \
		--durations=0 tests/api/test_schemathesis.py $(ARGS)

openapi: .venv/.synced
	.venv/bin/referee openapi --output openapi/openapi.json

bench: .venv/.synced
	.venv/bin/python -m tests.bench.http_bench
