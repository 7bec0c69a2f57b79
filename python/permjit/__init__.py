"""permjit: exact search over permutations, from a TOML spec to generated code.

The same runtime library as the ``permjit`` command line (docs/python.md)::

    import permjit
    r = permjit.solve("problems/nqueens.toml", params={"n": 8})
    r.solutions  # 92
"""
from ._errors import CommandError, CompileError, Diagnostic, InternalError, SearchInterrupted, SpecError
from ._result import Result
from ._api import check, emit, solutions, solve
from ._permjit import __version__

__all__ = ["solve", "solutions", "emit", "check", "Result", "SpecError", "CompileError", "SearchInterrupted",
           "InternalError", "CommandError", "Diagnostic", "__version__"]
