"""The result of a solve: the fields of ``permjit solve --json``, built from that same JSON."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Union

try:
    import numpy as _np
except ImportError:  # numpy is optional: permutations are then lists
    _np = None

Permutation = Union["_np.ndarray", List[int]]


def as_permutation(values: Sequence[int]) -> Permutation:
    """A numpy array of ints when numpy is installed, else a list."""
    return _np.asarray(values, dtype=_np.int64) if _np is not None else list(values)


class Result:
    """What ``permjit solve --json`` prints, as attributes.

    Every key of the JSON object is an attribute (``r.solutions``, ``r.skeleton``,
    ``r.nodes``, ``r.time_s`` ...); ``r.permutation`` is a numpy array when numpy is
    installed; ``r.json`` is the object itself. Keys that a goal does not have (a
    count has no ``objective``) raise AttributeError, as in the JSON they are absent.
    """

    def __init__(self, text: str):
        self._text = text
        self._data: Dict[str, Any] = json.loads(text)
        perm = self._data.get("permutation")
        self._perm = as_permutation(perm) if perm is not None else None

    @property
    def json(self) -> Dict[str, Any]:
        return self._data

    @property
    def text(self) -> str:
        """The JSON text, exactly as ``permjit solve --json`` prints it."""
        return self._text

    @property
    def permutation(self) -> Optional[Permutation]:
        return self._perm

    @property
    def complete(self) -> bool:
        """False when a time limit or a signal stopped the search: its answer is partial."""
        return bool(self._data["complete"])

    @property
    def interrupted(self) -> bool:
        """True when a signal (Ctrl-C: KeyboardInterrupt in Python) stopped the search."""
        return self._data.get("interrupted_by_signal") is not None

    @property
    def expanded(self) -> int:
        return int(self._data["nodes"]["expanded"])

    @property
    def evaluated(self) -> int:
        return int(self._data["nodes"]["evaluated"])

    def __getattr__(self, name: str) -> Any:
        data = self.__dict__.get("_data")
        if data is not None and name in data:
            return data[name]
        raise AttributeError(f"the result of this solve has no '{name}' (its keys: {', '.join(data or {})})")

    def __repr__(self) -> str:
        d = self._data
        answer = ", ".join(f"{k}={d[k]!r}" for k in ("solutions", "objective", "cost", "found") if k in d)
        return f"<permjit.Result {d['problem']} {d['goal']} size {d['size']}: {answer}, complete={d['complete']}>"
