# scorekeeper: `make run` serves the app, `make test` runs every test. Both set everything up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app scorekeeper
# Debian packages: the PDF subsetter and fonts for the app, a browser and pdftoppm for the tests.
RUN_PACKAGES := libharfbuzz-subset0 fonts-dejavu-core fonts-noto-cjk
# wrk drives the web bench.
BENCH_PACKAGES := wrk
TEST_PACKAGES := $(RUN_PACKAGES) chromium poppler-utils
# The whole suite runs a second time on PostgreSQL when this database answers.
POSTGRES_TEST_URL := postgresql+psycopg://postgres@127.0.0.1:5432/test
# pytest-xdist: one worker per core (each test has a database of its own);
# `make test PYTEST_WORKERS=0` runs the suite in one process.
PYTEST_WORKERS ?= auto
PYTEST := $(BIN)/pytest --numprocesses $(PYTEST_WORKERS)
# The tests whose long versions `make soak` runs (SOAK=1); `make test` runs short ones.
SOAK_TESTS := tests/test_concurrency.py tests/test_crash.py tests/test_fuzz_api.py \
	tests/test_fuzz_forms.py tests/browser/test_offline_evenings.py

# The phone's scripts (static/*.js) are linted by ESLint and unit-tested by node's test runner,
# both installed from the npm registry as package-lock.json pins them.
NODE_MODULES := node_modules/.installed

# Message catalogs: the .po files are committed, the compiled .mo files are built here.
TRANSLATIONS := scorekeeper/translations
POT := $(TRANSLATIONS)/messages.pot
CATALOGS := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
PYBABEL := $(BIN)/pybabel

.PHONY: run serve test lint bench soak static system-run system-test system-bench system-node clean
.PHONY: translations-extract translations-update translations-compile translations-init

run: $(VENV)/.installed system-run instance/config.py translations-compile static
	$(FLASK) db upgrade
	$(FLASK) run --host 127.0.0.1 --port 5000

# Production: SECRET_KEY (or instance/config.py) and DATABASE_URL come from the environment.
serve: $(VENV)/.installed system-run translations-compile static
	$(FLASK) db upgrade
	$(BIN)/gunicorn --config python:scorekeeper.serving.gunicorn_conf

test: $(VENV)/.installed-test $(NODE_MODULES) system-test translations-compile static
	$(BIN)/ruff check scorekeeper stubs tests bench scripts
	$(BIN)/ruff format --check scorekeeper stubs tests bench scripts
	$(BIN)/mypy
	npm run --silent lint
	npm test --silent
	env -u DATABASE_URL $(PYTEST)
	@if $(BIN)/python scripts/postgres-answers.py "$(POSTGRES_TEST_URL)"; then \
		echo "The tests that use the database again, on PostgreSQL at 127.0.0.1:5432:"; \
		DATABASE_URL="$(POSTGRES_TEST_URL)" $(PYTEST); \
	else \
		echo "PostgreSQL at 127.0.0.1:5432 not reachable: the PostgreSQL run is skipped"; \
	fi

# Each PDF's warm render time as a multiple of a plain table's, measured in the same run, and
# the standings page, the view link's poll and round submissions under load, as ratios of
# floors (wrk). `make bench BENCH=--quick` runs every step for a second, to see that it works.
bench: $(VENV)/.installed system-bench translations-compile static
	$(BIN)/python bench/pdf_bench.py
	@if $(BIN)/python scripts/postgres-answers.py "$(POSTGRES_TEST_URL)"; then \
		$(BIN)/python bench/web_bench.py $(BENCH) --postgres "$(POSTGRES_TEST_URL)"; \
	else \
		$(BIN)/python bench/web_bench.py $(BENCH); \
	fi

# 50 clients x 200 edits, 20 kills during 1,000 writes each, long fuzzing, 30 evenings of two
# phones offline and back; then on PostgreSQL (the phones' evenings keep a SQLite server).
# One test at a time, unlike `make test`: each is a load of its own, which another beside it would skew.
soak: $(VENV)/.installed-test system-test translations-compile static
	env -u DATABASE_URL SOAK=1 $(BIN)/pytest $(SOAK_TESTS)
	@if $(BIN)/python scripts/postgres-answers.py "$(POSTGRES_TEST_URL)"; then \
		DATABASE_URL="$(POSTGRES_TEST_URL)" SOAK=1 $(BIN)/pytest $(SOAK_TESTS); \
	else \
		echo "PostgreSQL at 127.0.0.1:5432 not reachable: its soak is skipped"; \
	fi

lint: $(VENV)/.installed-test $(NODE_MODULES)
	$(BIN)/ruff check --fix scorekeeper stubs tests bench scripts
	$(BIN)/ruff format scorekeeper stubs tests bench scripts
	npm run --silent lint -- --fix

# Every user-facing string, found as scorekeeper/babel.cfg says, into the template catalog.
# Only hidden directories are skipped: Babel's default would skip templates/_partials too.
translations-extract: $(VENV)/.installed
	$(PYBABEL) extract --mapping-file scorekeeper/babel.cfg --add-comments Translators: \
		--ignore-dirs '.*' --add-location file --sort-output --project scorekeeper \
		--output-file $(POT) .

# New and changed strings into every catalog (changed ones come back fuzzy: review them). The
# English catalog is the source language: its translations are filled in as the strings.
translations-update: translations-extract
	$(PYBABEL) update --input-file $(POT) --output-dir $(TRANSLATIONS) --ignore-obsolete \
		--ignore-pot-creation-date
	$(BIN)/python scripts/english-catalog.py $(TRANSLATIONS)/en/LC_MESSAGES/messages.po

translations-compile: $(CATALOGS:.po=.mo)

%/LC_MESSAGES/messages.mo: %/LC_MESSAGES/messages.po | $(VENV)/.installed
	$(PYBABEL) compile --input-file $< --output-file $@

# A new language: make translations-init LANG=xx (not the LANG of the environment).
translations-init: translations-extract
ifneq ($(origin LANG),command line)
	$(error Name the new language's code: make translations-init LANG=xx)
endif
	$(PYBABEL) init --input-file $(POT) --output-dir $(TRANSLATIONS) --locale $(LANG)

# Static files under content-hashed names, with gzip and brotli copies (serving/static_files.py);
# the copies of an older version go first.
static: $(VENV)/.installed
	$(FLASK) digest clean >/dev/null
	$(FLASK) digest compile >/dev/null

system-run:
	scripts/system-packages.sh $(RUN_PACKAGES)

system-node:
	scripts/node-tools.sh

system-test:
	scripts/system-packages.sh $(TEST_PACKAGES)

system-bench:
	scripts/system-packages.sh $(RUN_PACKAGES) $(BENCH_PACKAGES)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml $(VENV)/bin/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/bin/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

$(NODE_MODULES): package.json package-lock.json | system-node
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

instance/config.py:
	$(BIN)/python -c "import secrets; print(f'SECRET_KEY = {secrets.token_hex()!r}')" > $@

clean:
	-$(FLASK) digest clean >/dev/null
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache .hypothesis $(POT) $(CATALOGS:.po=.mo)
