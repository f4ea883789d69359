#!/usr/bin/env python3
"""The web board under load: idle connections that hold sockets open, and
many games at once.

Starts `antichess serve --port 0 --db DIR/games.sqlite3` (a fresh file) and:

1. opens IDLE connections (default 5000) that send nothing or half a
   request line and then nothing, and keeps that many open (one the server
   closes is opened again), while one client plays a whole antichess game
   against level 1 (the machine chooses without a search), timing every
   request;
2. with the idle connections still held, plays GAMES games at once
   (default 32) against level 1, each on its own keep-alive connection;
3. with them still held, has GAMES clients read one game's state as fast
   as they can for --read-seconds (default 5);
4. reports requests per second, latency percentiles (ms) and the server's
   resident memory (VmRSS, from /proc) at each stage.

Every request is a real one of protocol.md's "Web" API: a person's move is
a POST, the machine's reply is waited for with the long poll
(`GET .../ID?after=V`).

    python3 scripts/web_load.py [--binary target/release/antichess]
        [--idle 5000] [--games 32] [--smoke]

`--smoke` is a small run (200 idle connections, 4 games) for test.sh.
"""

import argparse
import asyncio
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


class Client:
    """One keep-alive HTTP/1.1 connection speaking the JSON API."""

    def __init__(self, host, port, timings):
        self.host, self.port, self.timings = host, port, timings
        self.reader = self.writer = None

    async def connect(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def call(self, method, path, body=None, timed=True):
        if self.writer is None:
            await self.connect()
        data = b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
        if method == "POST":
            data = json.dumps(body if body is not None else {}).encode()
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        start = time.perf_counter()
        self.writer.write(head.encode() + b"\r\n" + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise RuntimeError(f"{method} {path}: the connection closed")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        payload = json.loads(await self.reader.readexactly(length))
        if timed:
            self.timings.append((time.perf_counter() - start) * 1000)
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {payload}")
        return payload

    def close(self):
        if self.writer is not None:
            self.writer.close()


async def play_game(client, seed):
    """A person (round-robin over the legal moves) against level 1."""
    state = await client.call("POST", "/api/chess/games", {
        "rules": "antichess", "white": "human", "black": "level:1",
        "time_ms": 3_600_000, "seed": seed,
    })
    game = state["id"]
    plies = 0
    requests = 1
    while state["status"] == "playing" and plies < 600:
        side = state["to_move"]
        if state["players"][side]["player"] == "human":
            moves = state["moves"]
            mv = moves[plies % len(moves)]["move"]
            state = await client.call("POST", f"/api/chess/games/{game}/move", {"move": mv})
            plies += 1
        else:
            # The long poll's time is the machine's, not the server's.
            state = await client.call(
                "GET", f"/api/chess/games/{game}?after={state['version']}", timed=False)
        requests += 1
    return plies, requests, state["status"]


async def hold_idle(host, port, count, stop, stats):
    """Keeps `count` connections open that never finish a request."""
    open_now = []

    async def one(i):
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port)
            except OSError:
                stats["refused"] += 1
                await asyncio.sleep(0.5)
                continue
            if i % 2:
                writer.write(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
            stats["open"] += 1
            try:
                # Wait until the server closes it (header timeout) or we stop.
                done = asyncio.ensure_future(reader.read(1))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait([done, stopper], return_when=asyncio.FIRST_COMPLETED)
                done.cancel()
                stopper.cancel()
            finally:
                stats["open"] -= 1
                writer.close()
            if not stop.is_set():
                stats["closed_by_server"] += 1

    for i in range(count):
        open_now.append(asyncio.ensure_future(one(i)))
        if i % 500 == 499:
            await asyncio.sleep(0.05)
    return open_now


def report(name, timings, seconds, pid):
    print(f"{name}: {len(timings)} requests in {seconds:.1f} s = "
          f"{len(timings) / seconds:.0f} requests/s; latency ms p50 {percentile(timings, 50):.2f} "
          f"p90 {percentile(timings, 90):.2f} p99 {percentile(timings, 99):.2f} "
          f"max {max(timings, default=float('nan')):.2f}; server RSS {rss_mib(pid):.1f} MiB")


async def hold_main(host, port, count, status_file):
    """The idle connections, in a process of their own so that their
    upkeep does not slow the measuring client."""
    stop = asyncio.Event()
    stats = {"open": 0, "refused": 0, "closed_by_server": 0}
    await hold_idle(host, port, count, stop, stats)
    while True:
        with open(status_file + ".new", "w") as f:
            json.dump(stats, f)
        os.replace(status_file + ".new", status_file)
        await asyncio.sleep(0.2)


def held(status_file):
    try:
        with open(status_file) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"open": 0, "refused": 0, "closed_by_server": 0}


async def main_async(args, host, port, pid, status_file):
    print(f"server RSS at start {rss_mib(pid):.1f} MiB")
    for _ in range(300):
        if held(status_file)["open"] >= args.idle * 0.99:
            break
        await asyncio.sleep(0.1)
    stats = held(status_file)
    print(f"idle connections open: {stats['open']} (server RSS {rss_mib(pid):.1f} MiB)")

    timings = []
    client = Client(host, port, timings)
    start = time.perf_counter()
    plies, requests, status = await play_game(client, 6170)
    seconds = time.perf_counter() - start
    client.close()
    stats = held(status_file)
    print(f"one game beside {stats['open']} idle connections: {plies} moves of the person, "
          f"{requests} requests, {status}, {seconds:.2f} s")
    report("  its moves", timings, seconds, pid)

    timings = []
    clients = [Client(host, port, timings) for _ in range(args.games)]
    start = time.perf_counter()
    results = await asyncio.gather(*(play_game(c, 1000 + i) for i, c in enumerate(clients)))
    seconds = time.perf_counter() - start
    for c in clients:
        c.close()
    over = sum(1 for _, _, s in results if s != "playing")
    stats = held(status_file)
    print(f"{args.games} games at once beside {stats['open']} idle connections: "
          f"{sum(r[1] for r in results)} requests, {over} finished, {seconds:.2f} s")
    report("  the persons' moves", timings, seconds, pid)
    # Reads as fast as the clients go: the server's own rate.
    timings = []
    game = (await Client(host, port, []).call("POST", "/api/chess/games", {
        "white": "human", "black": "human"}))["id"]
    clients = [Client(host, port, timings) for _ in range(args.games)]
    deadline = time.perf_counter() + args.read_seconds

    async def reads(client):
        while time.perf_counter() < deadline:
            await client.call("GET", f"/api/chess/games/{game}")

    start = time.perf_counter()
    await asyncio.gather(*(reads(c) for c in clients))
    seconds = time.perf_counter() - start
    for c in clients:
        c.close()
    report(f"{args.games} clients reading a game's state", timings, seconds, pid)
    stats = held(status_file)
    print(f"idle connections closed by the server meanwhile (header timeout, reopened): "
          f"{stats['closed_by_server']}; refused: {stats['refused']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default="target/release/antichess")
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--read-seconds", type=float, default=5.0)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--hold", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.smoke:
        args.idle, args.games, args.read_seconds = 200, 4, 1.0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.idle + 200:
        sys.exit(f"this shell allows {hard} open files, fewer than {args.idle} idle connections")
    if args.hold:
        host, port, status_file = args.hold.split(",", 2)
        asyncio.run(hold_main(host, int(port), args.idle, status_file))
        return
    folder = tempfile.mkdtemp(prefix="antichess-load-")
    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--db", os.path.join(folder, "games.sqlite3")],
        stdout=subprocess.PIPE, text=True)
    holder = None
    try:
        line = server.stdout.readline().strip()
        hostport = line.removeprefix("http://").split("/")[0]
        host, port = hostport.rsplit(":", 1)
        status_file = os.path.join(folder, "held.json")
        holder = subprocess.Popen([sys.executable, __file__, "--idle", str(args.idle),
                                   "--hold", f"{host},{port},{status_file}"])
        asyncio.run(main_async(args, host, int(port), server.pid, status_file))
    finally:
        if holder is not None:
            holder.kill()
            holder.wait()
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
