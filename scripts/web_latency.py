#!/usr/bin/env python3
"""How fast the web board answers a move, think time aside.

Starts `antichess serve --port 0` and plays games through the JSON API
(protocol.md, "Web") over one keep-alive connection, timing each request:

- a person's move in a game between two people (POST .../move),
- a look at the game (GET .../ID),
- a person's move against the machine at level 1 (which chooses without a
  search), from the POST until the machine's reply is seen by a long poll.

Prints the median, 99th percentile and worst of each, in milliseconds.

    python3 scripts/web_latency.py [--binary target/release/antichess] [--moves 1000]
"""

import argparse
import http.client
import json
import random
import statistics
import subprocess
import time


class Api:
    def __init__(self, host, port):
        self.conn = http.client.HTTPConnection(host, port, timeout=60)

    def call(self, method, path, body=None):
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        payload = json.loads(resp.read())
        if resp.status >= 300:
            raise RuntimeError(f"{method} {path}: {resp.status} {payload}")
        return payload


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - start) * 1000


def report(name, samples):
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{name:44} n={len(samples):5}  median {statistics.median(samples):6.2f} ms"
          f"  p99 {p99:6.2f} ms  worst {samples[-1]:6.2f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/antichess")
    parser.add_argument("--moves", type=int, default=1000, help="moves timed of each kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    server = subprocess.Popen([args.binary, "serve", "--port", "0", "--db", ":memory:"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        host, port = url.split("//")[1].split("/")[0].split(":")
        api = Api(host, int(port))
        moves, looks, replies = [], [], []

        state = None
        while len(moves) < args.moves:
            if state is None or state["status"] != "playing":
                state = api.call("POST", "/api/chess/games",
                                 {"white": "human", "black": "human", "time_ms": 3_600_000})
            path = f"/api/chess/games/{state['id']}"
            mv = rng.choice(state["moves"])["move"]
            state, ms = timed(lambda: api.call("POST", f"{path}/move", {"move": mv}))
            moves.append(ms)
            _, ms = timed(lambda: api.call("GET", path))
            looks.append(ms)

        state = None
        while len(replies) < args.moves:
            if state is None or state["status"] != "playing":
                state = api.call("POST", "/api/chess/games",
                                 {"white": "human", "black": "level:1", "time_ms": 3_600_000})
            path = f"/api/chess/games/{state['id']}"
            mv = rng.choice(state["moves"])["move"]
            start = time.perf_counter()
            state = api.call("POST", f"{path}/move", {"move": mv})
            while state["status"] == "playing" and state["to_move"] == "black":
                state = api.call("GET", f"{path}?after={state['version']}")
            replies.append((time.perf_counter() - start) * 1000)

        report("person's move (POST move, two people)", moves)
        report("look at the game (GET state)", looks)
        report("move and the level-1 machine's reply", replies)
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
