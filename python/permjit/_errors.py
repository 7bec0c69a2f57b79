"""The exceptions permjit raises: a user's mistake carries its place, as the CLI prints it."""
from __future__ import annotations

from typing import List, NamedTuple, Tuple


class Diagnostic(NamedTuple):
    """One error: where it is (file, 1-based line and column) and what the CLI prints."""

    file: str
    line: int
    column: int
    message: str
    hint: str
    rendered: str  # `file:line:col: error: message`, the line, a caret, the hint


class SpecError(ValueError):
    """A mistake in the spec, the instance or an option, located as the CLI reports it.

    ``file``, ``line``, ``column`` and ``message`` are those of the first error;
    ``diagnostics`` holds every error; ``str(e)`` is what ``permjit check`` prints.
    """

    def __init__(self, rendered: str, diagnostics: List[Tuple[str, int, int, str, str, str]]):
        super().__init__(rendered)
        self.diagnostics = [Diagnostic(*d) for d in diagnostics]
        first = self.diagnostics[0] if self.diagnostics else Diagnostic("", 0, 0, rendered, "", rendered)
        self.file, self.line, self.column = first.file, first.line, first.column
        self.message, self.hint = first.message, first.hint


class CompileError(RuntimeError):
    """The generated code did not compile: the compiler's log and where the source was saved."""

    def __init__(self, what: str, log: str, saved_source: str):
        super().__init__(f"{what}\n{log}\nthe failing source is saved at {saved_source}")
        self.log, self.saved_source = log, saved_source


class SearchInterrupted(KeyboardInterrupt):
    """A signal ended a run before its search started (the compile, a frontier's build)."""

    def __init__(self, what: str, signal: int):
        super().__init__(what)
        self.signal = signal


class InternalError(RuntimeError):
    """A broken invariant of permjit itself, not of the spec."""


class CommandError(RuntimeError):
    """``emit`` or ``check`` failed for a reason other than the spec (e.g. a missing tool)."""
