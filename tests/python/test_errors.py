# A user's mistake raises permjit.SpecError with its place and the CLI's message.
import numpy as np
import pytest

import permjit

BAD = """[problem]
name = "bad"
goal = "count"
size = "n"
[params]
n = 6
[state]
ld = "bits"
[branch]
candidates = "free & ~(ld | nope)"
place = { ld = "(ld | bit(v)) << 1" }
"""


def test_spec_error_has_its_place_and_the_cli_message(tmp_path, cli):
    path = tmp_path / "bad.toml"
    path.write_text(BAD)
    with pytest.raises(permjit.SpecError) as e:
        permjit.solve(path, backend="cpu")
    err = e.value
    assert (err.file, err.line) == (str(path), 10)
    assert err.column == BAD.splitlines()[9].index("nope") + 1
    assert "nope" in err.message
    printed = cli("check", path)
    assert printed.returncode == 1
    assert str(err) in printed.stderr  # the CLI adds the count ("1 error")


def test_spec_text_error_is_located_in_the_string():
    with pytest.raises(permjit.SpecError) as e:
        permjit.check(BAD)
    assert (e.value.file, e.value.line) == ("<string>", 10)


def test_parameter_out_of_range(problems):
    with pytest.raises(permjit.SpecError) as e:
        permjit.solve(problems / "nqueens.toml", params={"n": 99})
    assert e.value.file == "<command line>"
    assert "outside its range" in e.value.message


def test_instance_value_of_the_wrong_shape(problems):
    with pytest.raises(permjit.SpecError) as e:
        permjit.solve(problems / "flowshop.toml", instance={"n": 8, "m": 3, "p": np.zeros((8, 3), dtype=int)})
    assert e.value.file == "<instance values>"
    assert e.value.column == len("n=int m=int ") + 1
    assert "int[8][3]" in e.value.message and "int[3][8]" in e.value.message


def test_missing_and_unknown_instance_values(problems):
    with pytest.raises(permjit.SpecError) as e:
        permjit.solve(problems / "flowshop.toml", instance={"n": 8, "m": 3, "q": [[1]]})
    messages = [d.message for d in e.value.diagnostics]
    assert any("'q' is not a data item" in m for m in messages)
    assert any("data item 'p' has no value" in m for m in messages)


def test_unknown_option_is_a_type_error(problems):
    with pytest.raises(TypeError, match="thread"):
        permjit.solve(problems / "nqueens.toml", thread=1)
