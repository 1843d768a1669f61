# Two commands on a fresh machine: `make run` and `make test` (both create .venv and install).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test lint bench bench-solver bench-load bench-heavy bench-busy bench-busy-discord sync-commands clean

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

run: $(STAMP)  ## start the bot: console play when no platform token is configured
	$(VENV)/bin/python -m bot $(ARGS)

test: $(STAMP)  ## the whole test suite; pytest's "no tests ran" (exit 5) counts as a failure
	@$(VENV)/bin/python -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: no tests ran"; exit 1; fi; exit $$rc

lint: $(STAMP)  ## ruff, then mypy on core/, bot/ and adapters/ (settings in pyproject.toml; core/ is strict)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: $(STAMP)  ## concurrent duels through the App on durable SQLite (prints a table)
	$(VENV)/bin/python -m bench.duels $(ARGS)

bench-solver: $(STAMP)  ## solver quality and speed against the published optima (prints a table)
	$(VENV)/bin/python -m bench.solver $(ARGS)

bench-load: $(STAMP)  ## a mix of concurrent games (duels, Logik, words, Kegeln) through the App (prints a table)
	$(VENV)/bin/python -m bench.load $(ARGS)

bench-heavy: $(STAMP)  ## ordinary moves' latency while 20 heavy /analyse and /hint run (ARGS="--hogs 0 1": alone, then beside a busy neighbour)
	$(VENV)/bin/python -m bench.heavy $(ARGS)

bench-busy: $(STAMP)  ## one busy Telegram group against the flood limits: reply delay and lost replies (prints a table)
	$(VENV)/bin/python -m bench.busy_group $(ARGS)

bench-busy-discord: $(STAMP)  ## one busy Discord channel against its rate limit: reply delay and lost replies (prints a table)
	$(VENV)/bin/python -m bench.busy_group --discord $(ARGS)

sync-commands: $(STAMP)  ## register Discord slash commands (ARGS="--guild ID" for one guild)
	$(VENV)/bin/python -m bot sync-commands $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
