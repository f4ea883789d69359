#!/usr/bin/env python3
"""The test of scripts/dask_shards.py on a local Dask cluster of two
worker processes, each run with one shard forced to fail once:

- gen-data in four shards: the merged file must equal, byte for byte,
  the file of one `antichess gen-data` run of the same games; the failed
  shard must have been run again on the other worker;
- a match of antichess level 3 against a random mover under an SPRT that
  the first few pairs decide: it must stop before its last shard, every
  kept shard's games must appear exactly once (rounds 1..N, two games per
  pair), and the pentanomial counts it printed must be those recounted
  here from the merged PGN by the players' names;
- the same gen-data run stopped with shards done continues from them;
- the same gen-data run on a scheduler and two workers started as their
  own processes (as on other machines), reached with --scheduler;
- a PGN book cut into the openings the shards get: python-chess reads
  each piece as exactly one game, with the moves it reads in the whole
  book, whether or not a game starts with [Event].

    target/venv/bin/python scripts/dask_shards_test.py --binary target/release/antichess
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "dask_shards.py")

failures = []
checks = []


def check(condition, message):
    print(f"{'ok' if condition else 'FAILED'}: {message}")
    checks.append(message)
    if not condition:
        failures.append(message)


def drive(*args):
    run = subprocess.run(
        [sys.executable, DRIVER, *args], capture_output=True, text=True, timeout=300
    )
    if run.returncode != 0:
        print(run.stderr[-3000:], file=sys.stderr)
        raise SystemExit(f"dask_shards.py {' '.join(args)} exited {run.returncode}")
    return run.stdout, run.stderr


def retried_elsewhere(stderr, shard):
    failed = re.findall(rf"shard {shard} failed on (\S+)", stderr)
    done = re.findall(rf"shard {shard} done on (\S+)", stderr)
    return len(failed) == 1 and len(done) == 1 and failed[0] != done[0]


def gen_data(binary, folder):
    common = ["--nodes", "200", "--seed", "5", "--rules", "antichess"]
    merged = os.path.join(folder, "merged.tsv")
    _, stderr = drive(
        "gen-data", "--games", "12", "--games-per-shard", "3", *common,
        "--out", merged, "--binary", binary, "--workers", "2", "--fail-once", "1",
    )
    single = os.path.join(folder, "single.tsv")
    subprocess.run(
        [binary, "gen-data", "--games", "12", "--out", single, "--threads", "1", *common],
        check=True, capture_output=True, timeout=120,
    )
    with open(merged, "rb") as a, open(single, "rb") as b:
        same = a.read() == b.read()
    check(same, "gen-data: the merged shards equal one run of the same 12 games")
    check(retried_elsewhere(stderr, 1), "gen-data: the failed shard ran again on the other worker")
    check(not os.path.exists(f"{merged}.shards"), "gen-data: the work folder is gone after the merge")

    # Resumed: a run stopped with shards 0 and 2 done (as a kill leaves
    # its work folder) runs only shards 1 and 3 and merges the same file.
    resumed = os.path.join(folder, "resumed.tsv")
    work = os.path.join(folder, "work")
    args = ["gen-data", "--games", "12", "--games-per-shard", "3", *common, "--out", resumed]
    args += ["--binary", binary, "--work-dir", work, "--workers", "2"]
    drive(*args, "--keep-shards")
    os.remove(resumed)
    for shard in ("shard-000001.tsv", "shard-000003.tsv"):
        os.remove(os.path.join(work, shard))
    _, stderr = drive(*args)
    ran = sorted(int(s) for s in re.findall(r"shard (\d+) done on", stderr))
    check(ran == [1, 3], f"resumed gen-data ran only the missing shards 1 and 3 (ran {ran})")
    with open(resumed, "rb") as a, open(single, "rb") as b:
        check(a.read() == b.read(), "resumed gen-data: the merged file equals one run's")


def free_port():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def on_a_scheduler(binary, folder):
    """The same gen-data run on a cluster started apart from the driver, as
    on several machines: `dask scheduler` and `dask worker` processes on
    loopback, reached with --scheduler."""
    import time

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "dask"]
    log = open(os.path.join(folder, "cluster.log"), "w")
    processes = []
    try:
        processes.append(subprocess.Popen(
            [*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=log, stderr=log,
        ))
        processes.append(subprocess.Popen(
            [*dask, "worker", address, "--nworkers", "2", "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"],
            stdout=log, stderr=log,
        ))
        # The driver's own connect waits for the scheduler; wait here for
        # both workers so that the retry has somewhere else to go.
        from distributed import Client

        deadline = time.monotonic() + 60
        client = None
        while time.monotonic() < deadline:
            try:
                client = client or Client(address, timeout=5)
                if len(client.nthreads()) >= 2:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        workers = len(client.nthreads()) if client else 0
        if client:
            client.close()
        check(workers == 2, f"a scheduler and 2 workers started apart on {address}")
        out = os.path.join(folder, "scheduled.tsv")
        _, stderr = drive(
            "gen-data", "--games", "12", "--games-per-shard", "3", "--nodes", "200", "--seed", "5",
            "--out", out, "--binary", binary, "--scheduler", address, "--fail-once", "2",
        )
        with open(out, "rb") as a, open(os.path.join(folder, "single.tsv"), "rb") as b:
            check(a.read() == b.read(), "--scheduler gen-data: the merged file equals one run's")
        check(retried_elsewhere(stderr, 2), "--scheduler gen-data: the failed shard ran again on the other worker")
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in reversed(processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()


def games_of(pgn):
    games, current = [], {}
    for line in pgn.splitlines():
        m = re.match(r'\[(\w+) "(.*)"\]$', line)
        if not m:
            continue
        if m.group(1) == "Event" and current:
            games.append(current)
            current = {}
        current[m.group(1)] = m.group(2)
    if current:
        games.append(current)
    return games


def match(binary, folder):
    pgn = os.path.join(folder, "match.pgn")
    stdout, stderr = drive(
        "match", "--engine1", "level:3", "--engine2", "random:1", "--rules", "antichess",
        "--pairs", "40", "--pairs-per-shard", "2", "--time", "1", "--random-plies", "4",
        "--seed", "11", "--sprt", "elo0=0,elo1=100", "--pgn", pgn, "--binary", binary,
        "--workers", "2", "--fail-once", "1", "--", "--max-plies", "300", "--repetitions", "3",
    )
    summary = dict(part.split("=", 1) for part in stdout.split())
    shards, pairs = int(summary["shards"]), int(summary["pairs"])
    check(summary["result"] == "H1", f"match: the SPRT accepted H1 (llr {summary['llr']})")
    check(shards < 20, f"match: it stopped before the last of 20 shards ({shards} kept)")
    check(pairs == 2 * shards, f"match: {pairs} pairs from {shards} shards of 2")
    with open(pgn) as f:
        games = games_of(f.read())
    rounds = [int(g["Round"]) for g in games]
    check(rounds == list(range(1, 2 * pairs + 1)), f"match: {len(games)} games, rounds 1..{2 * pairs}, none twice")
    check(retried_elsewhere(stderr, 1), "match: the failed shard ran again on the other worker")
    # Recount by name, not by order: the engine's games are those whose
    # White or Black names level 3.
    counts = [0] * 5
    same_start = True
    points = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}
    for first, second in zip(games[0::2], games[1::2]):
        half_points = 0
        for game in (first, second):
            white, black = points[game["Result"]]
            half_points += white if "level 3" in game["White"] else black
        same_start = same_start and first.get("FEN") == second.get("FEN")
        counts[half_points] += 1
    check(same_start, "match: the two games of each pair start from the same position")
    check(",".join(map(str, counts)) == summary["penta"], f"match: pentanomial {summary['penta']} recounted from the PGN")


BOOK = """[Event "one"]
[Result "*"]

1. e4 {a comment} e5 2. Nf3 *

[White "no Event tag"]
[Black "b"]

1. d4 d5
2. c4 *

[Event "three"]
1. g3 *
"""


def pgn_book(folder):
    import io

    import chess.pgn

    sys.path.insert(0, HERE)
    import dask_shards

    path = os.path.join(folder, "book.pgn")
    with open(path, "w") as f:
        f.write(BOOK)
    pieces = dask_shards.book_openings(path)
    whole, expected = io.StringIO(BOOK), []
    while (game := chess.pgn.read_game(whole)) is not None:
        expected.append([m.uci() for m in game.mainline_moves()])
    got = []
    for piece in pieces:
        text = io.StringIO(piece)
        game = chess.pgn.read_game(text)
        got.append([m.uci() for m in game.mainline_moves()])
        check(chess.pgn.read_game(text) is None, f"PGN book: one game in the piece {piece.splitlines()[0]!r}")
    check(len(expected) == 3 and got == expected, f"PGN book: {len(got)} openings, the moves python-chess reads")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="target/release/antichess")
    args = parser.parse_args()
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise SystemExit("dask_shards_test: Dask is missing: pip install -r scripts/requirements-dist.txt")
    binary = os.path.abspath(args.binary)
    with tempfile.TemporaryDirectory(prefix="dask-shards-") as folder:
        pgn_book(folder)
        gen_data(binary, folder)
        on_a_scheduler(binary, folder)
        match(binary, folder)
    print(f"{len(checks) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
