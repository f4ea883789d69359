#!/usr/bin/env python3
"""Runs `antichess match` or `antichess gen-data` as shards on a Dask
cluster: a local one of worker processes on this machine, or any cluster
whose scheduler this driver can reach. The shards' games merge into one
PGN or data file in shard order, and a match's game pairs feed the
pentanomial SPRT of scripts/sprt.py as each shard arrives; once a bound is
crossed no further shard is submitted (those already running finish and
count).

A shard is a run of whole game pairs (match: `--pairs-per-shard` pairs,
their openings either lines of `--openings` or `--random-plies` openings
from a seed of the shard's own; gen-data: `--games-per-shard` games from
`--first`, so the merged file is byte for byte that of one run). Each
shard's output is written beside the final file as a temporary file and
renamed, and counted only once, by its shard id; a shard that fails is run
again on another worker, up to `--retries` times. A run stopped part-way
continues from the shards already in its work folder.

    scripts/dask_shards.py match --engine1 level:3 --engine2 level:2 \\
        --pairs 200 --pairs-per-shard 10 --random-plies 4 --time 5 \\
        --sprt elo0=0,elo1=20 --pgn out.pgn --workers 2
    scripts/dask_shards.py gen-data --games 2000 --games-per-shard 100 \\
        --nodes 6000 --out data.tsv --scheduler tcp://HOST:8786

Needs the packages of scripts/requirements-dist.txt; every worker needs
the `--binary` at the same path (and a Python of the same version).
"""

import argparse
import hashlib
import json
import os
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402


def log(message):
    print(f"dask_shards: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# What runs on a worker. These functions live in the driver's __main__, so
# Dask's cloudpickle ships them by value: a worker needs no copy of this
# file, only the binary.


def run_shard(spec, attempt, fail_once):
    """Runs one shard's command in a temporary folder of the worker and
    hands back its output, compressed, with the worker's address. A shard
    whose command fails comes back with ok=False rather than raising, so
    that the driver knows on which worker it failed."""
    import shutil
    import subprocess
    import tempfile

    try:
        from distributed import get_worker

        worker = get_worker().address
    except (ImportError, ValueError):
        worker = "local"
    folder = tempfile.mkdtemp(prefix=f"shard-{spec['id']}-")
    result = {"id": spec["id"], "attempt": attempt, "worker": worker, "ok": False}
    try:
        args = [spec["binary"], *spec["args"]]
        if spec.get("openings") is not None:
            path = os.path.join(folder, "openings.txt")
            with open(path, "w") as f:
                f.write("\n".join(spec["openings"]) + "\n")
            args += ["--openings", path]
        output = os.path.join(folder, spec["output"])
        args += [spec["output_flag"], output]
        started = time.monotonic()
        run = subprocess.run(args, capture_output=True, text=True, cwd=folder, timeout=spec["timeout"])
        result["seconds"] = time.monotonic() - started
        if run.returncode != 0:
            result["error"] = f"exit {run.returncode}: {run.stderr.strip()[-2000:]}"
            return result
        if fail_once and attempt == 0:
            # The test's forced failure: after the games were played, so that
            # counting them anyway would show as games counted twice.
            result["error"] = "failure forced by --fail-once"
            return result
        with open(output, "rb") as f:
            result["payload"] = zlib.compress(f.read(), 6)
        result["ok"] = True
        return result
    except Exception as e:  # anything at all: the driver decides what next
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------
# PGN: splitting a shard's games, reading results, numbering rounds.


def split_games(text):
    """The games of a PGN text, each as its text (tags and moves)."""
    games, current = [], []
    for line in text.splitlines():
        if line.startswith("[Event ") and current:
            games.append("\n".join(current).strip() + "\n")
            current = []
        current.append(line)
    if any(line.strip() for line in current):
        games.append("\n".join(current).strip() + "\n")
    return games


def book_openings(path):
    """The openings of a book, each as the text a shard's book holds: a
    game of a PGN or PDN book (by its name or a first line that is a tag),
    else a line (FEN, EPD, a one-line game or a checkers move list), with
    blank and `#` lines skipped. A PGN game ends where a tag follows its
    moves, whether or not the next game starts with [Event]."""
    with open(path) as f:
        text = f.read()
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not (path.lower().endswith((".pgn", ".pdn")) or first.startswith("[")):
        return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    games, current, in_moves = [], [], False
    for line in text.splitlines():
        is_tag = line.lstrip().startswith("[")
        if is_tag and in_moves:
            games.append("\n".join(current).strip() + "\n")
            current, in_moves = [], False
        current.append(line)
        in_moves = in_moves or (bool(line.strip()) and not is_tag)
    if any(line.strip() for line in current):
        games.append("\n".join(current).strip() + "\n")
    return games


def tag(game, name):
    prefix = f"[{name} \""
    for line in game.splitlines():
        if line.startswith(prefix) and line.endswith('"]'):
            return line[len(prefix) : -2]
    return None


def with_round(game, number):
    lines = game.splitlines()
    lines = [f'[Round "{number}"]' if line.startswith("[Round ") else line for line in lines]
    return "\n".join(lines) + "\n"


# PGN's results, and PDN's for checkers (two points a win).
WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "2-0": 1.0, "0-2": 0.0, "1-1": 0.5}


def pair_scores(games):
    """The first engine's points in each pair of a shard's games: `match`
    gives it White in the first game of each pair and Black in the
    second."""
    if len(games) % 2:
        raise ValueError(f"{len(games)} games is not a whole number of pairs")
    scores = []
    for first, second in zip(games[0::2], games[1::2]):
        a, b = tag(first, "Result"), tag(second, "Result")
        if a not in WHITE_POINTS or b not in WHITE_POINTS:
            raise ValueError(f"a game without a result ({a}, {b})")
        scores.append(WHITE_POINTS[a] + 1.0 - WHITE_POINTS[b])
    return scores


# ---------------------------------------------------------------------------
# Shards.


def match_shards(args):
    """The shard specs of a match: `pairs` pairs cut into shards."""
    base = ["match", "--engine1", args.engine1, "--engine2", args.engine2, "--rules", args.rules]
    base += ["--time", str(args.time), "--inc", str(args.inc), *args.extra]
    openings = None
    if args.openings:
        openings = book_openings(args.openings)
        if not openings:
            raise SystemExit(f"dask_shards: {args.openings} holds no openings")
    total = args.pairs if args.pairs else len(openings or [])
    if total <= 0:
        raise SystemExit("dask_shards: give --pairs (or --openings, one pair per line)")
    shards = []
    for number, first in enumerate(range(0, total, args.pairs_per_shard)):
        pairs = min(args.pairs_per_shard, total - first)
        spec = {"id": number, "pairs": pairs, "output": "games.pgn", "output_flag": "--pgn"}
        spec.update(binary=args.binary, timeout=args.timeout)
        spec["args"] = base + ["--games", str(2 * pairs)]
        if openings:
            spec["openings"] = [openings[(first + i) % len(openings)] for i in range(pairs)]
        else:
            seed = args.seed + number
            spec["args"] += ["--random-plies", str(args.random_plies), "--seed", str(seed)]
        shards.append(spec)
    return shards


def gen_data_shards(args):
    base = ["gen-data", "--rules", args.rules, "--nodes", str(args.nodes), "--seed", str(args.seed)]
    base += ["--threads", "1", *args.extra]
    shards = []
    for number, first in enumerate(range(args.first, args.first + args.games, args.games_per_shard)):
        games = min(args.games_per_shard, args.first + args.games - first)
        spec = {"id": number, "games": games, "output": "data.tsv", "output_flag": "--out"}
        spec.update(binary=args.binary, timeout=args.timeout)
        spec["args"] = base + ["--first", str(first), "--games", str(games)]
        shards.append(spec)
    return shards


class WorkFolder:
    """Where each finished shard's output waits for the merge, named by
    shard id and written atomically, so that a shard is kept at most once
    and a stopped run can continue. The folder records the run it belongs
    to and refuses another."""

    def __init__(self, path, shards, suffix):
        self.path, self.suffix = path, suffix
        os.makedirs(path, exist_ok=True)
        digest = hashlib.sha256(json.dumps(shards, sort_keys=True).encode()).hexdigest()
        stamp = os.path.join(path, "run.json")
        if os.path.exists(stamp):
            with open(stamp) as f:
                if json.load(f).get("shards") != digest:
                    raise SystemExit(f"dask_shards: {path} belongs to another run; remove it or pick another --work-dir")
        else:
            write_atomic(stamp, json.dumps({"shards": digest}).encode())

    def file(self, shard_id):
        return os.path.join(self.path, f"shard-{shard_id:06d}{self.suffix}")

    def done(self, shard_id):
        return os.path.exists(self.file(shard_id))

    def keep(self, shard_id, data):
        write_atomic(self.file(shard_id), data)

    def read(self, shard_id):
        with open(self.file(shard_id), "rb") as f:
            return f.read()

    def remove(self):
        for name in os.listdir(self.path):
            os.remove(os.path.join(self.path, name))
        os.rmdir(self.path)


def write_atomic(path, data):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# ---------------------------------------------------------------------------
# The driver.


class Tally:
    """The SPRT over the pairs of every shard counted so far."""

    def __init__(self, config):
        self.config = config
        self.counts = [0] * 5

    def add(self, scores):
        for cell, n in enumerate(sprt.pair_counts(scores)):
            self.counts[cell] += n

    def state(self):
        c = self.config
        return sprt.test(self.counts, c["elo0"], c["elo1"], c["alpha"], c["beta"], c["model"])


def parse_sprt(text):
    config = {"alpha": 0.05, "beta": 0.05, "model": "normalized"}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
            raise argparse.ArgumentTypeError(f"--sprt takes elo0=E0,elo1=E1[,alpha=A,beta=B,model=M], not {part!r}")
        config[key] = value if key == "model" else float(value)
    if "elo0" not in config or "elo1" not in config or config["elo0"] >= config["elo1"]:
        raise argparse.ArgumentTypeError("--sprt needs elo0 < elo1")
    if config["model"] not in sprt.MODELS:
        raise argparse.ArgumentTypeError(f"--sprt model is one of {', '.join(sprt.MODELS)}")
    sprt.bounds(config["alpha"], config["beta"])
    return config


def connect(args):
    from distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler, timeout=args.connect_timeout)
        log(f"connected to {args.scheduler}")
        return client, None
    # Loopback only and no dashboard: a local cluster serves nobody else.
    cluster = LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    log(f"local cluster of {args.workers} worker processes at {cluster.scheduler_address}")
    return Client(cluster), cluster


def drive(args, shards, folder, on_done):
    """Runs the shards not yet in `folder`, keeping about as many in flight
    as the cluster has threads, retrying failures on other workers.
    `on_done(spec, data, resumed)` is called in arrival order (first for
    the shards kept from before) and answers whether to go on submitting;
    it raises ValueError for output that cannot be used, which counts as
    a failure of the shard."""
    from distributed import as_completed

    going = True
    for spec in shards:
        if folder.done(spec["id"]):
            try:
                going = on_done(spec, folder.read(spec["id"]), resumed=True) and going
            except ValueError as e:
                log(f"shard {spec['id']} kept from before is unusable ({e}); it runs again")
                os.remove(folder.file(spec["id"]))
    queue = [s for s in shards if not folder.done(s["id"])]
    if not queue or not going:
        return
    client, cluster = connect(args)
    submitted = []
    try:
        window = args.in_flight or sum(client.nthreads().values()) or 1
        by_id = {s["id"]: s for s in shards}
        failed_on = {}  # shard id -> the workers it failed on
        attempts = {}
        futures = as_completed()

        def submit(spec):
            shard_id = spec["id"]
            attempt = attempts.get(shard_id, 0)
            # Elsewhere if there is an elsewhere: a worker that failed a
            # shard may lack the binary, a disk, or memory.
            others = [w for w in client.nthreads() if w not in failed_on.get(shard_id, ())]
            key = f"shard-{shard_id}-attempt-{attempt}-{os.getpid()}"
            fail = args.fail_once is not None and shard_id == args.fail_once
            future = client.submit(
                run_shard, spec, attempt, fail, key=key, workers=others or None, pure=False
            )
            submitted.append(future)
            futures.add(future)

        for _ in range(min(window, len(queue))):
            submit(queue.pop(0))
        for future in futures:
            try:
                result = future.result()
            except Exception as e:  # a worker lost, or the task's arguments broke
                shard_id = int(future.key.split("-")[1])
                result = {"id": shard_id, "ok": False, "worker": "?", "error": f"{type(e).__name__}: {e}"}
            shard_id = result["id"]
            if result["ok"] and folder.done(shard_id):
                log(f"shard {shard_id} arrived twice; the second is dropped")
                continue
            if result["ok"]:
                data = zlib.decompress(result["payload"])
                try:
                    going = on_done(by_id[shard_id], data, resumed=False) and going
                except ValueError as e:
                    result = {**result, "ok": False, "error": f"unusable output: {e}"}
                else:
                    folder.keep(shard_id, data)
                    log(f"shard {shard_id} done on {result['worker']} in {result.get('seconds', 0):.1f} s")
            if not result["ok"]:
                attempts[shard_id] = attempts.get(shard_id, 0) + 1
                failed_on.setdefault(shard_id, set()).add(result["worker"])
                log(f"shard {shard_id} failed on {result['worker']} (attempt {attempts[shard_id]}): {result['error']}")
                if not going:
                    continue
                if attempts[shard_id] > args.retries:
                    raise SystemExit(
                        f"dask_shards: shard {shard_id} failed {attempts[shard_id]} times; "
                        f"the finished shards stay in {folder.path} for a rerun"
                    )
                submit(by_id[shard_id])
            elif going and queue:
                submit(queue.pop(0))
    finally:
        client.cancel(submitted)
        client.close()
        if cluster is not None:
            cluster.close()


def run_match(args):
    shards = match_shards(args)
    work = args.work_dir or f"{args.pgn}.shards"
    folder = WorkFolder(work, shards, ".pgn")
    tally = Tally(args.sprt) if args.sprt else None
    counts = [0] * 5
    decided = {"result": None}

    def on_done(spec, data, resumed):
        games = split_games(data.decode())
        if len(games) != 2 * spec["pairs"]:
            raise ValueError(f"{len(games)} games, not {2 * spec['pairs']}")
        scores = pair_scores(games)
        for cell, n in enumerate(sprt.pair_counts(scores)):
            counts[cell] += n
        line = f"shard {spec['id']}{' (kept from before)' if resumed else ''}: penta {','.join(map(str, counts))}"
        if tally is None:
            log(line)
            return True
        tally.add(scores)
        state = tally.state()
        log(f"{line} llr={state['llr']:.3f} ({state['lower']:.3f}, {state['upper']:.3f})")
        if state["result"] != "continue" and decided["result"] is None:
            decided["result"] = state["result"]
            log(f"the SPRT accepts {state['result']}: no further shards are submitted")
        return decided["result"] is None

    drive(args, shards, folder, on_done)
    merged, number, kept = [], 0, 0
    for spec in shards:
        if not folder.done(spec["id"]):
            continue
        kept += 1
        for game in split_games(folder.read(spec["id"]).decode()):
            number += 1
            merged.append(with_round(game, number))
    write_atomic(args.pgn, "\n".join(merged).encode())
    summary = {"shards": kept, "games": number, "penta": ",".join(map(str, counts))}
    if tally is not None:
        summary.update(tally.state())
    elif sum(counts):
        summary.update(sprt.estimates(counts))
    print(sprt.format_line(summary))
    if not args.keep_shards:
        folder.remove()
    return 0


def run_gen_data(args):
    shards = gen_data_shards(args)
    folder = WorkFolder(args.work_dir or f"{args.out}.shards", shards, ".tsv")
    drive(args, shards, folder, lambda spec, data, resumed: True)
    missing = [s["id"] for s in shards if not folder.done(s["id"])]
    if missing:
        raise SystemExit(f"dask_shards: shards {missing} are missing")
    tmp = f"{args.out}.tmp{os.getpid()}"
    positions = 0
    with open(tmp, "wb") as out:
        for spec in shards:
            data = folder.read(spec["id"])
            positions += data.count(b"\n")
            out.write(data)
    os.replace(tmp, args.out)
    print(f"shards={len(shards)} games={args.games} positions={positions} out={args.out}")
    if not args.keep_shards:
        folder.remove()
    return 0


def cluster_options(parser):
    group = parser.add_argument_group("cluster")
    where = group.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=2, help="worker processes of a local cluster (default 2)")
    where.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://HOST:8786")
    group.add_argument("--connect-timeout", type=float, default=30.0)
    group.add_argument("--in-flight", type=int, default=0, help="shards submitted at once (default: the cluster's threads)")
    group.add_argument("--retries", type=int, default=2, help="times a failed shard is run again (default 2)")
    group.add_argument("--shard-timeout", dest="timeout", type=float, default=3600.0, help="seconds one shard may take")
    group.add_argument("--binary", default="target/release/antichess", help="the engine, at this path on every worker")
    group.add_argument("--work-dir", help="where finished shards wait (default: beside the output, .shards)")
    group.add_argument("--keep-shards", action="store_true", help="keep the work folder after the merge")
    group.add_argument("--fail-once", type=int, help=argparse.SUPPRESS)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="a match of game pairs, with an optional SPRT")
    m.add_argument("--engine1", required=True)
    m.add_argument("--engine2", required=True)
    m.add_argument("--rules", default="antichess")
    m.add_argument("--time", type=float, default=10.0)
    m.add_argument("--inc", type=float, default=0.0)
    m.add_argument("--pairs", type=int, help="game pairs in all (default: one per opening)")
    m.add_argument("--pairs-per-shard", type=int, default=10)
    m.add_argument("--openings", help="openings file, one per line; each line is one pair")
    m.add_argument("--random-plies", type=int, default=4, help="without --openings: random plies of each pair's opening")
    m.add_argument("--seed", type=int, default=1, help="shard i draws its openings from seed + i")
    m.add_argument("--sprt", type=parse_sprt, help="elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic]")
    m.add_argument("--pgn", required=True, help="the merged PGN")
    g = sub.add_parser("gen-data", help="self-play data; the merged file equals one run's")
    g.add_argument("--rules", default="antichess")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--first", type=int, default=0)
    g.add_argument("--games-per-shard", type=int, default=100)
    g.add_argument("--nodes", type=int, default=6000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", required=True)
    for p in (m, g):
        cluster_options(p)
        p.add_argument("extra", nargs="*", help="after --: more options for antichess match / gen-data")
    args = parser.parse_args(argv)
    per_shard = args.pairs_per_shard if args.command == "match" else args.games_per_shard
    if per_shard <= 0 or args.retries < 0 or (args.scheduler is None and args.workers <= 0):
        parser.error("shard sizes and --workers must be positive, --retries not negative")
    args.binary = os.path.abspath(args.binary)
    if args.scheduler is None and not os.access(args.binary, os.X_OK):
        parser.error(f"{args.binary} is not an executable; build it (cargo build --release) or give --binary")
    if args.command == "match":
        return run_match(args)
    return run_gen_data(args)


if __name__ == "__main__":
    sys.exit(main())
