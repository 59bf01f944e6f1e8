"""`specmodel …` as the command runs it (specmodel.__main__ calls cli.main), in the test's own
process: a new interpreter for each of the few hundred runs in the suite cost more than the tests
themselves. tests/test_metrics.py runs the command as a program once
(test_the_command_runs_as_a_program), and tests/test_cli.py a closed pipe."""
from __future__ import annotations

import contextlib
import io
import subprocess
from unittest import mock


def specmodel(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`specmodel *args` with ``stdin`` as its input: returncode, stdout and stderr as a
    subprocess gives them (argparse's refusals and --help exit: their status is the return code)."""
    from specmodel.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch("sys.stdin", io.StringIO(stdin or "")):
        try:
            code = main(list(args))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())
