# permjit.solutions: the solutions of `solve --list`, one permutation at a time.
import itertools

import permjit


def queens_ok(perm):
    n = len(perm)
    return sorted(perm) == list(range(n)) and all(
        abs(perm[i] - perm[j]) != j - i for i, j in itertools.combinations(range(n), 2))


def test_nqueens_8_yields_its_92_solutions(problems):
    sols = [tuple(int(x) for x in p) for p in permjit.solutions(problems / "nqueens.toml", params={"n": 8})]
    assert len(sols) == 92
    assert len(set(sols)) == 92
    assert all(queens_ok(p) for p in sols)


def test_limit_and_leaving_the_loop(problems):
    assert len(list(permjit.solutions(problems / "nqueens.toml", params={"n": 8}, limit=5))) == 5
    it = permjit.solutions(problems / "nqueens.toml", params={"n": 10}, threads=1)
    first = next(it)
    assert len(first) == 10
    it.close()  # stops the search
