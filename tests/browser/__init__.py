"""Browser tests (a package, so this conftest does not shadow tests/conftest.py as `conftest`)."""
