#!/usr/bin/env python3
"""The cpu skeleton over MPI ranks and with one checkpoint (runtime/distributed/range_run.hpp).

Under test: `mpirun -np K permjit solve ... --backend cpu` reports the same node totals
as one process whenever the incumbent is fixed (counting; --ub at the optimum), and the
same optimum from scratch; rank 0 alone prints; a run stopped after a few ranges
(PERMJIT_STOP_AFTER_RANGES, the test hook) and resumed from its checkpoint with another
number of ranks (also one process without mpirun) reaches the uninterrupted totals; a
SIGTERM leaves a checkpoint that resumes to them too; a stopped run (after a few ranges,
or at --time-limit) reports a proven bound between the root's bound and the optimum.

usage: mpi_totals_test.py PERMJIT PROBLEMS_DIR
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PERMJIT, PROBLEMS = sys.argv[1], sys.argv[2]
FAILURES = []


def mpirun(np):
    cmd = ["mpirun", "--oversubscribe", "-np", str(np)]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def env(extra=None):
    e = dict(os.environ)
    e.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
              # Shared memory between the ranks of this host; no network is needed.
              "OMPI_MCA_btl": "self,vader", "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
              "OMPI_MCA_rmaps_base_oversubscribe": "1"})
    e.pop("PERMJIT_STOP_AFTER_RANGES", None)
    e.update(extra or {})
    return e


def solve(args, np=0, extra_env=None, expect_rc=0):
    cmd = (mpirun(np) if np else []) + [PERMJIT, "solve"] + args + ["--backend", "cpu", "--json", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env(extra_env), timeout=120)
    if p.returncode != expect_rc:
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if len(lines) != 1:  # rank 0 prints the one result, the other ranks nothing
        raise SystemExit(f"FAIL: {' '.join(cmd)} printed {len(lines)} results\n{p.stdout}")
    return json.loads(lines[0])


def totals(r):
    return (r["nodes"]["expanded"], r["nodes"]["evaluated"], r.get("solutions"), r.get("objective"))


def check(what, got, want):
    ok = got == want
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got}" + ("" if ok else f" != {want}"))
    if not ok:
        FAILURES.append(what)


def check_partial(what, r, optimum):
    """A stopped minimisation's result: partial, with a proven bound at least the root's
    bound and at most the optimum, and a gap to its incumbent that is not negative."""
    check(f"{what}: not complete", r["complete"], False)
    p = r.get("partial") or {}
    bound, root = p.get("proven_bound"), p.get("root_bound")
    check(f"{what}: a proven bound", bound is not None, True)
    if bound is None:
        return
    check(f"{what}: bound {bound} <= optimum {optimum}", bound <= optimum, True)
    check(f"{what}: bound {bound} >= root bound {root}", root is not None and bound >= root, True)
    if r.get("objective") is not None:
        check(f"{what}: gap = incumbent - bound", p.get("gap"), r["objective"] - bound)


def matrix(n, rng, hi=100):
    return [[0 if i == j else rng.randint(1, hi) for j in range(n)] for i in range(n)]


def write_atsp(path, d):
    with open(path, "w") as f:
        f.write(f"NAME: random\nTYPE: ATSP\nDIMENSION: {len(d)}\nEDGE_WEIGHT_TYPE: EXPLICIT\n"
                "EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n")
        for row in d:
            f.write(" ".join(map(str, row)) + "\n")
        f.write("EOF\n")


def write_qap(path, a, b):
    with open(path, "w") as f:
        f.write(f"{len(a)}\n\n")
        for m in (a, b):
            for row in m:
                f.write(" ".join(map(str, row)) + "\n")
            f.write("\n")


def main():
    tmp = tempfile.mkdtemp(prefix="permjit-mpi-")
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILURES:
        print("failed:", ", ".join(FAILURES))
        return 1
    return 0


def run(tmp):
    rng = random.Random(16)
    nq = [f"{PROBLEMS}/nqueens.toml", "--param", "n=10"]
    atsp_file, qap_file = f"{tmp}/r10.atsp", f"{tmp}/r8.dat"
    write_atsp(atsp_file, matrix(10, rng))
    write_qap(qap_file, matrix(8, rng, 9), matrix(8, rng, 9))
    # The cheaper bounds (partial cost, row minima): trees large enough to be split into
    # many ranges (the assignment bounds, the defaults, leave a handful of nodes here).
    atsp = [f"{PROBLEMS}/atsp.toml", "--instance", atsp_file, "--param", "lb=0"]
    qap = [f"{PROBLEMS}/qap.toml", "--instance", qap_file, "--param", "lb=1"]

    # Counting: the tree is fixed.
    one = solve(nq + ["--threads", "2"])
    check("nqueens 10: 724 solutions in one process", one["solutions"], 724)
    four = solve(nq + ["--threads", "1"], np=4)
    check("nqueens 10: 4 ranks = 1 process", totals(four), totals(one))
    check("nqueens 10: 4 ranks reported", four["ranges"]["ranks"], 4)

    # Optimisation: the optimum from scratch, then the totals at --ub at the optimum.
    for name, args in (("atsp 10", atsp), ("qap 8", qap)):
        best = solve(args + ["--threads", "2"])
        opt = best["objective"]
        check(f"{name}: the optimum on 4 ranks from scratch", solve(args + ["--threads", "1"], np=4)["objective"], opt)
        fixed = args + ["--ub", str(opt)]
        one = solve(fixed + ["--threads", "2"])
        check(f"{name} --ub {opt}: 4 ranks = 1 process", totals(solve(fixed + ["--threads", "1"], np=4)), totals(one))
        if name == "atsp 10":
            atsp_fixed, atsp_one = fixed, one

    # Interrupted after 3 ranges on 4 ranks, resumed on 3 ranks: the uninterrupted totals.
    ck = f"{tmp}/run.ckpt"
    stopped = solve(atsp_fixed + ["--threads", "1", "--checkpoint", ck], np=4,
                    extra_env={"PERMJIT_STOP_AFTER_RANGES": "3"})
    check("atsp: a run stopped after 3 ranges is not complete", stopped["complete"], False)
    resumed = solve(atsp_fixed + ["--threads", "1", "--resume", ck, "--checkpoint", ck], np=3)
    check("atsp: stopped on 4 ranks, resumed on 3 = uninterrupted", totals(resumed), totals(atsp_one))
    check("atsp: the resumed run is complete", resumed["complete"], True)

    # Stopped twice (4 ranks, then 2), finished in one process without mpirun.
    ck2 = f"{tmp}/run2.ckpt"
    solve(nq + ["--threads", "1", "--checkpoint", ck2], np=4, extra_env={"PERMJIT_STOP_AFTER_RANGES": "2"})
    solve(nq + ["--threads", "1", "--resume", ck2, "--checkpoint", ck2], np=2,
          extra_env={"PERMJIT_STOP_AFTER_RANGES": "3"})
    last = solve(nq + ["--threads", "2", "--resume", ck2])
    check("nqueens 10: stopped on 4 ranks, on 2, finished in 1 process = uninterrupted",
          totals(last), totals(solve(nq + ["--threads", "2"])))

    # From scratch, interrupted and resumed: the optimum (the incumbent is carried).
    ck3 = f"{tmp}/run3.ckpt"
    part = solve(qap + ["--threads", "1", "--checkpoint", ck3], np=2, extra_env={"PERMJIT_STOP_AFTER_RANGES": "1"})
    qap_opt = solve(qap + ["--threads", "2"])["objective"]
    check("qap 8: from scratch, stopped and resumed: the optimum",
          solve(qap + ["--threads", "1", "--resume", ck3], np=4)["objective"], qap_opt)
    # The stopped run's proven bound (docs/reliability.md, "Partial answers"): over the
    # ranges not finished, between the root's bound and the optimum.
    check_partial("qap 8 stopped after 1 range on 2 ranks", part, qap_opt)

    # --time-limit over ranks: a tree that takes seconds (ATSP 13 with arcs of 50 to 60,
    # which the partial-cost bound prunes little) stops, prints one partial result with a
    # valid bound, and exits 0.
    big = f"{tmp}/r13.atsp"
    write_atsp(big, [[0 if i == j else rng.randint(50, 60) for j in range(13)] for i in range(13)])
    big_opt = solve([f"{PROBLEMS}/atsp.toml", "--instance", big, "--threads", "2"])["objective"]
    limited = solve([f"{PROBLEMS}/atsp.toml", "--instance", big, "--param", "lb=0", "--threads", "1",
                     "--time-limit", "0.3"], np=3)
    check_partial("atsp 13 lb=0 --time-limit 0.3 on 3 ranks", limited, big_opt)

    # A list over ranks is refused before any work, at its place, on every rank.
    cmd = mpirun(2) + [PERMJIT, "solve"] + nq + ["--no-symmetry", "--list", "--backend", "cpu", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env(), timeout=60)
    check("nqueens 10 --list on 2 ranks: refused (exit 1)", p.returncode != 0 and "error:" in p.stderr, True)
    check("nqueens 10 --list on 2 ranks: the error's place", "<command line>:1:1: error: the cpu skeleton over MPI ranks"
          in p.stderr, True)
    check("nqueens 10 --list on 2 ranks: nothing listed", any(l[:1].isdigit() for l in p.stdout.splitlines()), False)

    # A skeleton that searches in one process is refused under mpirun rather than run once
    # per rank (ivm and cpu share one search among the ranks).
    cmd = mpirun(2) + [PERMJIT, "solve"] + nq + ["--skeleton", "dfs", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env(), timeout=60)
    check("nqueens 10 with dfs on 2 ranks: refused at --skeleton",
          p.returncode != 0 and "<command line>:1:12: error: the dfs skeleton runs in one process" in p.stderr, True)

    # --gpus under mpirun: each rank takes one GPU; refused with the options, at its value.
    cmd = mpirun(2) + [PERMJIT, "solve"] + nq + ["--skeleton", "ivm", "--gpus", "2", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env(), timeout=60)
    check("nqueens 10 with ivm --gpus 2 on 2 ranks: refused at --gpus",
          p.returncode != 0 and "<command line>:1:8: error: under mpirun each rank takes one GPU" in p.stderr, True)

    # SIGTERM to mpirun during a longer count, once its first checkpoint is written: the
    # checkpoint left (the last one written, or the one written on the signal) resumes
    # to the uninterrupted totals.
    big = [f"{PROBLEMS}/nqueens.toml", "--param", "n=15"]
    ck4 = f"{tmp}/run4.ckpt"
    cmd = mpirun(3) + [PERMJIT, "solve"] + big + ["--backend", "cpu", "--threads", "1", "--quiet",
                                                  "--checkpoint", ck4, "--checkpoint-every", "0.1"]
    p = subprocess.Popen(cmd, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not os.path.exists(ck4) and p.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    if p.returncode == 0:
        print("note: the count ended before the signal; the checkpoint is of a finished run")
    else:
        print(f"mpirun exited {p.returncode} after SIGTERM")
    check("nqueens 15: a checkpoint is left after SIGTERM", os.path.exists(ck4), True)
    if os.path.exists(ck4):
        check("nqueens 15: SIGTERM on 3 ranks, resumed on 2 = uninterrupted",
              totals(solve(big + ["--threads", "1", "--resume", ck4], np=2)), totals(solve(big + ["--threads", "2"])))

if __name__ == "__main__":
    sys.exit(main())
