# The two commands of the README: `make serve` and `make test`.
# Everything is installed from the lock file into .venv; uv itself lives in .tools.
UV := .tools/bin/uv
ARGS ?=

.PHONY: serve test lint openapi bench install

$(UV):
	python3 -m venv .tools
	.tools/bin/pip install --quiet uv==0.13.8

.venv/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen
	touch $@

install: .venv/.synced

serve: .venv/.synced
	.venv/bin/referee serve $(ARGS)

test: .venv/.synced
	$(UV) run --frozen ruff check .
	$(UV) run --frozen ruff format --check .
	$(UV) run --frozen mypy
	$(UV) run --frozen pytest $(ARGS)

openapi: .venv/.synced
	.venv/bin/referee openapi --output openapi/openapi.json

bench: .venv/.synced
	.venv/bin/python -m tests.bench.http_bench
