"""An instance given as Python data: each value named as the spec's data item it fills.

The runtime checks the names and shapes against the spec (dsl/instance_values.hpp);
here a value only becomes (name, dims, row-major ints).
"""
from __future__ import annotations

from typing import Any, List, Mapping, Tuple

try:
    import numpy as _np
except ImportError:
    _np = None

Value = Tuple[str, List[int], List[int]]


def _flatten(name: str, value: Any) -> Tuple[List[int], List[int]]:
    """Nested lists of ints as (dims, row-major values), without numpy."""
    if isinstance(value, bool) or not isinstance(value, (int, list, tuple)):
        if hasattr(value, "__index__") and not isinstance(value, bool):
            return [], [value.__index__()]
        raise TypeError(f"instance value '{name}' must be ints (an int, nested lists or an array), "
                        f"not {type(value).__name__}")
    if isinstance(value, int):
        return [], [value]
    rows = [_flatten(name, v) for v in value]
    if not rows:
        return [0], []
    dims = rows[0][0]
    if any(r[0] != dims for r in rows):
        raise ValueError(f"instance value '{name}' is ragged: its rows have different shapes")
    return [len(rows)] + dims, [x for r in rows for x in r[1]]


def to_values(instance: Mapping[str, Any]) -> List[Value]:
    out: List[Value] = []
    for name, value in instance.items():
        if not isinstance(name, str):
            raise TypeError(f"instance values are named by str, not {type(name).__name__}")
        if _np is not None and isinstance(value, _np.ndarray):
            if value.dtype.kind not in "iu":
                raise TypeError(f"instance value '{name}' must hold integers, not {value.dtype}")
            out.append((name, list(value.shape), value.astype(_np.int64, copy=False).ravel().tolist()))
        else:
            dims, flat = _flatten(name, value)
            out.append((name, dims, flat))
    return out
