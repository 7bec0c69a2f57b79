# permjit.solve: the same answers and node counts as the CLI, whether the instance comes
# from a file or from numpy arrays named as the spec's data.
import json

import numpy as np

import permjit

# tests/e2e/inputs/flowshop_8x3.txt: n m, then p[m][n].
P = np.array([[5, 9, 2, 7, 4, 8, 3, 6],
              [3, 6, 8, 2, 9, 5, 7, 1],
              [7, 1, 4, 6, 3, 9, 2, 8]])
OPT = 51
# One thread and a first incumbent one past the optimum: the tree is fixed, so are the counts.
FIXED = dict(backend="cpu", threads=1, ub=OPT + 1)


def makespan(p, order):
    free = np.zeros(p.shape[0], dtype=int)
    for j in order:
        for k in range(p.shape[0]):
            free[k] = max(free[k], free[k - 1] if k else 0) + p[k, j]
    return int(free[-1])


def test_nqueens_8_counts_92(problems):
    r = permjit.solve(str(problems / "nqueens.toml"), params={"n": 8})
    assert r.solutions == 92
    assert r.complete and not r.interrupted


def test_flowshop_from_numpy_equals_file_and_cli(problems, inputs, cli):
    spec = problems / "flowshop.toml"
    from_file = permjit.solve(spec, instance=inputs / "flowshop_8x3.txt", **FIXED)
    from_numpy = permjit.solve(spec, instance={"n": 8, "m": 3, "p": P}, **FIXED)
    out = cli("solve", spec, "-i", inputs / "flowshop_8x3.txt", "--backend", "cpu", "--threads", "1",
              "--ub", OPT + 1, "--json")
    assert out.returncode == 0, out.stderr
    from_cli = json.loads(out.stdout)

    assert from_file.objective == from_numpy.objective == from_cli["objective"] == OPT
    assert from_file.json["nodes"] == from_numpy.json["nodes"] == from_cli["nodes"]
    assert from_file.expanded > 0
    assert list(from_file.permutation) == list(from_numpy.permutation) == from_cli["permutation"]
    assert isinstance(from_numpy.permutation, np.ndarray)
    assert makespan(P, from_numpy.permutation) == OPT  # the permutation is the schedule's job order
    assert from_numpy.instance is None and from_file.instance.endswith("flowshop_8x3.txt")
    # The result is the CLI's JSON: the same keys in the same order.
    assert list(from_numpy.json) == list(from_cli)


def test_instance_as_lists_and_spec_as_text(problems):
    text = (problems / "flowshop.toml").read_text()
    r = permjit.solve(text, instance={"n": 8, "m": 3, "p": P.tolist()}, **FIXED)
    assert r.objective == OPT
    assert r.spec == "<string>"


def test_emit_and_check(problems, inputs):
    assert "ok (nqueens, count, size 8)" in permjit.check(problems / "nqueens.toml", params={"n": 8})
    src = permjit.emit(problems / "flowshop.toml", instance={"n": 8, "m": 3, "p": P}, stage="source")
    assert "#line" in src
    assert permjit.emit(problems / "nqueens.toml", stage="spec").startswith("problem")
