# The Python package's tests. ctest runs them (tests/CMakeLists.txt) with PYTHONPATH at
# the build's module, PERMJIT_CLI at the build's permjit and PERMJIT_CACHE_DIR at its
# test cache; run by hand, they take an installed permjit and `permjit` from PATH.
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("PERMJIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))


@pytest.fixture
def source() -> Path:
    return SOURCE


@pytest.fixture
def problems() -> Path:
    return SOURCE / "problems"


@pytest.fixture
def inputs() -> Path:
    return SOURCE / "tests" / "e2e" / "inputs"


@pytest.fixture
def cli():
    """Runs the CLI: cli("solve", ...) -> CompletedProcess (text, not checked)."""
    exe = os.environ.get("PERMJIT_CLI") or shutil.which("permjit")
    if not exe:
        pytest.fail("no permjit CLI: set PERMJIT_CLI (ctest does) or put permjit on PATH")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, timeout=300)

    return run
