# Quick start: `make run` (install, migrate the SQLite default, load the demo floor, serve)
# and `make test` (the whole suite; PostgreSQL when DATABASE_URL is set, else SQLite).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha1sum requirements.lock | cut -c1-12)
PYTEST_ARGS ?=
# pytest-xdist workers for `make test`: one per core (auto), 0 for a serial run (docs/testing.md).
PYTEST_WORKERS ?= auto
PORT ?= 8000

.PHONY: install engine run migrate demo serve test lint pytest bench lock clean

install: $(STAMP)

$(STAMP): requirements.lock
	@echo "== Installing the pinned dependencies into $(VENV) (a minute or two the first time)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --progress-bar off --disable-pip-version-check --require-hashes --no-deps -r requirements.lock
	@rm -f $(VENV)/.installed-* && touch $@

# The game engine compiled with Cython (about twice as fast); rebuilt when a source changes.
# Without a C compiler it says so and the engine runs as plain Python (tables/games/accel.py).
# An optimisation only: the quick start (install, migrate, demo, run) never waits for it and
# runs the plain-Python engine until a fresh build exists; pytest, bench and CI build it.
ENGINE := tables/games/compiled.json
engine: $(ENGINE)

$(ENGINE): $(STAMP) $(wildcard tables/games/*.py tables/games/*/*.py tables/games/*/*.pxd)
	@echo "== Compiling the game engine with Cython (about a minute on two cores; \`make run\` does not need it)"
	$(PY) -m tables.games.build_ext
	@if [ -f $@ ]; then touch $@; fi

migrate: install
	@echo "== Migrating the database"
	$(PY) manage.py migrate --noinput

demo: migrate
	@echo "== Loading the demo floor and recording its simulated rounds"
	$(PY) manage.py load_demo

# The demo's ruleset versions get the engine's exact house edges in the background (what the
# beat task does in production; minutes of CPU, var/price_rulesets.log): the floor serves at once.
run: demo
	@mkdir -p var && (($(PY) manage.py price_rulesets && $(PY) manage.py decisions_price --follow) > var/price_rulesets.log 2>&1 &)
	@echo "Serving http://127.0.0.1:$(PORT) (log in with a demo login above; Ctrl-C stops)"
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# --dist loadgroup: tests that share a machine-wide resource (real Celery workers, the read
# replica's replay, `exclusive` markers) run on one worker in turn (tests/parallel.py).
pytest: engine
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# Lint and the whole suite, then the wall time they took (whether they passed or not).
test:
	@start=$$(date +%s); status=0; $(MAKE) --no-print-directory lint pytest || status=$$?; \
	  secs=$$(( $$(date +%s) - start )); \
	  echo "== make test: $$([ $$status = 0 ] && echo passed || echo FAILED) in $$((secs / 60)) min $$((secs % 60)) s wall (pytest -n $(PYTEST_WORKERS); load: $$(cut -d' ' -f1-3 /proc/loadavg))"; \
	  exit $$status

bench: engine
	$(PY) -m tests.benchmarks

# Re-pin after editing pyproject.toml dependencies: requirements.lock (with the dev and
# test tools) for development and CI, requirements-prod.lock for production installs.
lock: install
	$(PY) -m pip install --quiet uv
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes -o requirements.lock
	$(VENV)/bin/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -o requirements-prod.lock

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis $(ENGINE) tables/games/*.so tables/games/*/*.so
