"""solve, solutions, emit and check: the CLI's commands, on the same runtime library."""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Union

from . import _permjit
from ._errors import CommandError
from ._instance import to_values
from ._result import Permutation, Result, as_permutation

SpecLike = Union[str, "os.PathLike[str]"]
InstanceLike = Union[None, str, "os.PathLike[str]", Mapping[str, Any]]
ProgressLike = Union[None, bool, Callable[[Dict[str, Any]], None]]


def _load(spec: SpecLike, params: Optional[Mapping[str, int]], instance: InstanceLike) -> Dict[str, Any]:
    """The spec (a path, or TOML text: a str with a newline), its parameters and the instance."""
    if isinstance(spec, os.PathLike):
        spec_path, spec_text = os.fspath(spec), None
    elif isinstance(spec, str):
        spec_path, spec_text = (("<string>", spec) if "\n" in spec else (spec, None))
    else:
        raise TypeError(f"spec is a path or the spec's TOML text, not {type(spec).__name__}")
    plist = []
    for name, value in (params or {}).items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"parameter '{name}' takes an int, not {type(value).__name__}")
        plist.append(f"{name}={value}")
    path, values = "", []
    if isinstance(instance, (str, os.PathLike)):
        path = os.fspath(instance)
    elif isinstance(instance, Mapping):
        values = to_values(instance)
    elif instance is not None:
        raise TypeError("instance is a file's path or a mapping of data item names to values, "
                        f"not {type(instance).__name__}")
    return {"spec_path": spec_path, "spec_text": spec_text, "params": plist, "instance": path, "values": values}


def _tqdm_progress() -> Optional[Callable[[Dict[str, Any]], None]]:
    """A progress bar of the explored share, when tqdm is installed (a notebook's bar in Jupyter)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    bar = tqdm(total=100.0, unit="%", bar_format="{l_bar}{bar}| {n:.1f}% [{elapsed}<{remaining}]{postfix}")

    def show(sample: Dict[str, Any]) -> None:
        bar.n = 100.0 * sample["explored"]
        if sample["incumbent"] is not None:
            bar.set_postfix(incumbent=sample["incumbent"], refresh=False)
        bar.refresh()

    show.close = bar.close  # type: ignore[attr-defined]
    return show


def solve(spec: SpecLike, params: Optional[Mapping[str, int]] = None, instance: InstanceLike = None, *,
          progress: ProgressLike = None, **options: Any) -> Result:
    """Solve as ``permjit solve`` does, and return its ``--json`` result.

    spec: a path to a ``.toml`` spec, or the spec's text (a str with a newline).
    params: ``{"n": 8}`` for ``--param n=8``.
    instance: an instance file's path, or the data items as values, e.g.
        ``{"n": 20, "m": 5, "p": numpy_array_of_shape_5x20}``.
    progress: None (as the CLI: lines on stderr when it is a terminal), False (none),
        True (a tqdm bar when tqdm is installed, else lines on stderr), or a callable
        that receives ``{"elapsed", "explored", "evaluated", "incumbent", "bound"}`` about once a
        second. Only skeletons that know their explored share report it (ivm).
    options: the CLI's options of ``solve``, '_' for '-': ``backend="cpu"``,
        ``skeleton="ivm"``, ``threads=1``, ``ub=26``, ``time_limit=10.0``, ``target=``,
        ``all_optimal=True``, ``cache_dir=``, ``checkpoint=``, ``record=`` ...

    The search runs without the GIL. Ctrl-C (SIGINT) during a cpu search stops it and
    the partial result is returned (``r.complete`` is False, ``r.interrupted`` True; a
    stopped search's ``r.partial`` holds its proven bound and gap, docs/reliability.md).
    Raises SpecError for a mistake in the spec, the instance or an option.
    """
    load = _load(spec, params, instance)
    callback, mode = None, "auto"
    if progress is False:
        mode = "off"
    elif progress is True:
        mode, callback = "on", _tqdm_progress()
    elif callable(progress):
        mode, callback = "on", progress
    elif progress is not None:
        raise TypeError("progress is None, a bool or a callable")
    try:
        return Result(_permjit.solve_json(load, options, mode, callback))
    finally:
        if callback is not None and hasattr(callback, "close"):
            callback.close()


def solutions(spec: SpecLike, params: Optional[Mapping[str, int]] = None, instance: InstanceLike = None, *,
              limit: Optional[int] = None, **options: Any) -> Iterator[Permutation]:
    """The solutions ``permjit solve --list [N]`` writes, one permutation at a time.

    For count and find problems, or with ``all_optimal=True`` every optimal permutation.
    ``limit``: the first N (the search stops there). The search runs on a thread of
    its own and pauses while the consumer does not read; leaving the loop stops it.
    Under a spec's [symmetry] each solution the search finds comes with the images it
    was counted for: every solution once (``no_symmetry=True`` searches the whole tree).
    """
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError("limit is None (every solution) or a count from 1")
    load = _load(spec, params, instance)
    if not options.get("all_optimal"):
        options["list"] = limit or 0
    stream = _permjit.SolutionStream(load, options)
    try:
        while True:
            s = stream.next()
            if s is None:
                break
            yield as_permutation(s[0])
        stream.result_json()  # raises what stopped the search (a SpecError at the first next())
    finally:
        stream.close()


def _command_output(rc: int, out: str, err: str, command: str) -> str:
    if rc != 0:
        raise CommandError(f"permjit {command} failed (exit status {rc}): {err.strip()}")
    return out


def emit(spec: SpecLike, params: Optional[Mapping[str, int]] = None, instance: InstanceLike = None, *,
         stage: str = "source", **options: Any) -> str:
    """What ``permjit emit --stage STAGE`` prints: spec | source | cpu | cuda | ptx | sass | resources.

    options: ``arch="sm_90"``, ``skeleton="ivm"``, ``data=``, ``no_symmetry=``.
    """
    return _command_output(*_permjit.emit_text(_load(spec, params, instance), {"stage": stage, **options}), "emit")


def check(spec: SpecLike, params: Optional[Mapping[str, int]] = None, instance: InstanceLike = None,
          **options: Any) -> str:
    """What ``permjit check`` prints: ``<spec>: ok (name, goal, size N)`` and the reports of
    ``verify_bound=True`` / ``verify_symmetry=True`` (``samples=``, ``seed=``).

    Raises SpecError with every error of the spec (and of the instance, when given).
    """
    return _command_output(*_permjit.check_text(_load(spec, params, instance), options), "check")
