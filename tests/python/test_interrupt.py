# Ctrl-C (SIGINT) during a cpu search stops it, and solve returns the partial result;
# Python's own handler is back afterwards. The signals come from a Python thread that
# runs while solve() searches: it could not if the search held the GIL. They start once
# the search listens (_permjit.search_listening()): during the compile a signal ends the
# run with SearchInterrupted instead, and a cold compile takes seconds.
import os
import signal
import threading
import time

import pytest

import permjit
from permjit import _permjit

QUEENS_18 = 666_090_624  # far more than a second of one thread


def test_sigint_returns_the_partial_result(problems):
    early = []  # a signal that lands after the search
    previous = signal.signal(signal.SIGINT, lambda s, f: early.append(s))
    done = threading.Event()

    def press_ctrl_c():
        while not done.wait(0.05):
            if _permjit.search_listening():
                break
        while not done.wait(0.3):
            os.kill(os.getpid(), signal.SIGINT)

    sender = threading.Thread(target=press_ctrl_c)
    sender.start()
    try:
        t0 = time.monotonic()
        r = permjit.solve(problems / "nqueens.toml", params={"n": 18}, backend="cpu", threads=1, time_limit=300.0)
    finally:
        done.set()
        sender.join()
        signal.signal(signal.SIGINT, previous)
    assert r.interrupted and r.interrupted_by_signal == signal.SIGINT
    assert not r.complete
    assert 0 < r.expanded and r.solutions < QUEENS_18
    assert time.monotonic() - t0 < 120

    with pytest.raises(KeyboardInterrupt):  # Python's handler again
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(2)
