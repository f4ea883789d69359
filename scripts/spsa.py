#!/usr/bin/env python3
"""SPSA tuning of the antichess evaluation and search in self-play.

Each iteration perturbs every parameter at once by +c or -c (a random
sign per parameter), plays one pair of games between the two perturbed
engines (the same random opening, both colours, through `antichess
match`), and moves every parameter by the pair's result along its sign:
the simultaneous-perturbation gradient of Spall, with the gain schedule
fishtest uses (c_k = c / k^0.101, a_k = a / (A + k)^0.602, A a tenth of
the iterations, `a` chosen so that the last step's learning rate is
`--r-end`). Workers play in parallel and update the same parameters
(asynchronous SPSA, as fishtest does).

A parameter is `NAME=START:C[:MIN:MAX]`, NAME an `ANTICHESS_EVAL` weight
(`opening.tempo`, `ending.burden.pawn`, ...) or, prefixed by `search.`,
an `ANTICHESS_SEARCH` parameter (`search.rfp_margin`). C is the
perturbation at the last iteration, in the parameter's units: about the
change that costs a few Elo.

    scripts/spsa.py --bin target/release/antichess --iterations 2000 \\
        --workers 2 --time 4 --state spsa.json opening.tempo=400:40 ...

The state file (rewritten atomically after every iteration) holds the
parameters and the iterations done; started again with the same state
file, a run goes on where it stopped. The last line printed is the
environment that plays the tuned values. A benchmark aid: what it finds
is kept only when a match against Fairy-Stockfish endorses it.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading

ALPHA = 0.602
GAMMA = 0.101
SCORE_LINE = re.compile(r"^Score of .*: (\d+) - (\d+) - (\d+)")


class Param:
    def __init__(self, spec):
        name, _, rest = spec.partition("=")
        parts = rest.split(":")
        if not name or len(parts) not in (2, 4):
            raise ValueError(f"{spec!r} is not NAME=START:C[:MIN:MAX]")
        self.name = name
        self.start = float(parts[0])
        self.c_end = float(parts[1])
        if self.c_end <= 0:
            raise ValueError(f"{spec!r}: C must be positive")
        self.lo = float(parts[2]) if len(parts) == 4 else -1e9
        self.hi = float(parts[3]) if len(parts) == 4 else 1e9

    def clamp(self, value):
        return min(self.hi, max(self.lo, value))


def environment(params, values):
    """The `env` assignments that play `values`."""
    groups = {"ANTICHESS_EVAL": [], "ANTICHESS_SEARCH": []}
    for p, v in zip(params, values):
        if p.name.startswith("search."):
            groups["ANTICHESS_SEARCH"].append(f"{p.name[7:]}={round(v)}")
        else:
            groups["ANTICHESS_EVAL"].append(f"{p.name}={round(v)}")
    return [f"{k}={','.join(v)}" for k, v in groups.items() if v]


def play_pair(args, params, plus, minus, seed):
    """Points of the `plus` engine minus the `minus` engine's in one pair."""

    def engine(values):
        return "proto:env " + " ".join(environment(params, values)) + " " + args.bin

    cmd = [
        args.bin, "match", "--rules", args.rules, "--games", "2",
        "--time", str(args.time), "--random-plies", str(args.random_plies),
        "--seed", str(seed), "--max-plies", str(args.max_plies),
        "--engine1", engine(plus), "--engine2", engine(minus),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = SCORE_LINE.match(line)
        if m:
            wins, losses, _draws = map(int, m.groups())
            return wins - losses
    raise RuntimeError(f"no score in the match's output:\n{out}")


class Tuner:
    def __init__(self, args, params):
        self.args = args
        self.params = params
        self.lock = threading.Lock()
        self.values = [p.start for p in params]
        self.done = 0
        # Iterations handed to a worker and not yet played out.
        self.started_not_done = 0
        self.total_result = 0
        if os.path.exists(args.state):
            with open(args.state) as f:
                state = json.load(f)
            saved = state["values"]
            self.values = [saved.get(p.name, p.start) for p in params]
            self.done = state["done"]
            self.total_result = state.get("total_result", 0)
        n = args.iterations
        self.big_a = 0.1 * n
        self.c = [p.c_end * n**GAMMA for p in params]
        self.a = [args.r_end * p.c_end**2 * (self.big_a + n) ** ALPHA for p in params]
        self.rng = random.Random(args.seed * 1_000_003 + self.done)

    def save(self):
        state = {
            "done": self.done,
            "total_result": self.total_result,
            "values": {p.name: v for p, v in zip(self.params, self.values)},
        }
        folder = os.path.dirname(os.path.abspath(self.args.state))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".spsa-")
        with os.fdopen(fd, "w") as f:
            json.dump(state, f, indent=1)
        os.replace(tmp, self.args.state)

    def next_task(self):
        """The perturbed values of the next iteration, or None when done."""
        with self.lock:
            k = self.done + self.started_not_done
            if k >= self.args.iterations:
                return None
            self.started_not_done += 1
            ck = [c / (k + 1) ** GAMMA for c in self.c]
            signs = [self.rng.choice((-1, 1)) for _ in self.params]
            plus, minus = (self.perturbed(signs, ck, way) for way in (1, -1))
            seed = self.args.seed * 100_000 + k
            return k, ck, signs, plus, minus, seed

    def perturbed(self, signs, ck, way):
        """The values moved by `way` (1 or -1) times each sign's step."""
        return [
            p.clamp(v + way * s * d)
            for p, v, s, d in zip(self.params, self.values, signs, ck)
        ]

    def update(self, k, ck, signs, result):
        with self.lock:
            self.started_not_done -= 1
            for i, p in enumerate(self.params):
                ak = self.a[i] / (self.big_a + k + 1) ** ALPHA
                step = ak / ck[i] * result * signs[i]
                self.values[i] = p.clamp(self.values[i] + step)
            self.done += 1
            self.total_result += result
            self.save()
            if self.done % self.args.report == 0:
                shown = " ".join(
                    f"{p.name}={v:.1f}" for p, v in zip(self.params, self.values)
                )
                print(f"{self.done} {shown}", flush=True)

    def worker(self):
        while True:
            task = self.next_task()
            if task is None:
                return
            k, ck, signs, plus, minus, seed = task
            try:
                result = play_pair(self.args, self.params, plus, minus, seed)
            except (subprocess.CalledProcessError, RuntimeError) as e:
                print(f"iteration {k}: {e}", file=sys.stderr)
                result = 0
            self.update(k, ck, signs, result)

    def run(self):
        threads = [threading.Thread(target=self.worker) for _ in range(self.args.workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(" ".join(environment(self.params, self.values)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("params", nargs="+", help="NAME=START:C[:MIN:MAX]")
    ap.add_argument("--bin", default="target/release/antichess")
    ap.add_argument("--rules", default="antichess")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--time", type=float, default=4.0, help="seconds a side, sudden death")
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", default="spsa.json")
    ap.add_argument("--report", type=int, default=50, help="print the values every N iterations")
    args = ap.parse_args()
    try:
        params = [Param(s) for s in args.params]
    except ValueError as e:
        sys.exit(f"spsa: {e}")
    Tuner(args, params).run()


if __name__ == "__main__":
    main()
