# Two commands on a fresh machine: `make run` and `make test` (both create .venv and install).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

# `make test` runs the suite on this many pytest-xdist worker processes: one per core (on 2 cores
# 4 workers were no faster than 2, measured on tests/app and tests/console, and start 4 servers).
TEST_WORKERS ?= auto
# Byte-code caches on even where the environment turns them off: every test worker and every bot
# process the tests start would compile the same modules again.
TEST_ENV := PYTHONDONTWRITEBYTECODE=

.PHONY: run tv test test-unit test-game lint bench bench-solver bench-load bench-heavy bench-busy bench-busy-forum bench-busy-discord bench-slow sync-commands clean

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

run: $(STAMP)  ## start the bot: console play when no platform token is configured
	$(VENV)/bin/python -m bot $(ARGS)

# `make tv`: the TV page on this port of localhost (docs/tv.md)
TV_PORT ?= 8080

tv: $(STAMP)  ## console play with the TV page on http://127.0.0.1:$(TV_PORT): type `alice: /kegeln high Anna Ben`, then `alice: /tv`
	WEB_HOST=127.0.0.1 WEB_PORT=$(TV_PORT) WEB_PUBLIC_URL=http://127.0.0.1:$(TV_PORT) $(VENV)/bin/python -m bot --console $(ARGS)

test: $(STAMP)  ## the whole test suite in parallel; pytest's "no tests ran" (exit 5) counts as a failure
	@$(TEST_ENV) $(VENV)/bin/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: no tests ran"; exit 1; fi; exit $$rc

test-unit: $(STAMP)  ## the unit tests (no App, server, database or process) of TESTS, a folder or file (default: all)
	$(TEST_ENV) $(VENV)/bin/python -m pytest -q -m unit $(or $(TESTS),tests) $(PYTEST_ARGS)

test-game: $(STAMP)  ## one game's unit tests in seconds: make test-game GAME=kegeln (tests/games/kegeln)
	@test -n "$(GAME)" || { echo "make test-game GAME=<kind>: one of $$(ls tests/games 2>/dev/null | grep -v '[._]' | tr '\n' ' ')"; exit 2; }
	$(TEST_ENV) $(VENV)/bin/python -m pytest -q -m unit tests/games/$(GAME) $(PYTEST_ARGS)

lint: $(STAMP)  ## ruff, then mypy --strict on the whole tree: core, bot, adapters, tests, bench, tools (pyproject.toml)
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

bench-slow: $(STAMP)  ## a 4 s upload in one forum topic: the delay it adds to another topic, a private chat, a button (prints a table)
	$(VENV)/bin/python -m bench.slow_update $(ARGS)

bench-busy-forum: $(STAMP)  ## a busy forum (5 topics, 60 guesses a minute) against its floor, per topic (prints a table)
	$(VENV)/bin/python -m bench.busy_group --forum $(ARGS)

bench-busy-discord: $(STAMP)  ## one busy Discord channel against its rate limit: reply delay and lost replies (prints a table)
	$(VENV)/bin/python -m bench.busy_group --discord $(ARGS)

sync-commands: $(STAMP)  ## register Discord slash commands (ARGS="--guild ID" for one guild)
	$(VENV)/bin/python -m bot sync-commands $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
