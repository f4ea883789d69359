#!/usr/bin/env python3
"""The machine levels' strength for the web board's level menus.

Chains each family's ladder (every level against the next) into Elo
relative to level 0, with a 95% interval, and checks the chaining two
independent ways: a Bradley-Terry fit of all the ladder's games at once
(its maximum-likelihood ratings, by Hunter's MM iteration) must give the
same points, and a parametric bootstrap (each pair's games drawn again from
its own W-D-L frequencies, 20,000 times) gives the interval a second time.

A pair that scored every point has no finite Elo: it is counted with one
drawn game added (so the figure is a floor, shown with >=), and every level
below it is shown as at most its figure.

    python3 scripts/level_elo.py            # the Markdown tables
    python3 scripts/level_elo.py --write    # also src/web/static/levels.js

Pure Python, standard library only.
"""
import json
import math
import random
import sys

# (higher, lower, wins, losses, draws) from the higher level's side; the
# checkers script counts points only (wins + draws / 2), given as wins with
# no draws, which overstates the spread and so widens the interval.
LADDERS = {
    "antichess": {
        "how": "antichess 2002, 2 s a side, 4 random plies, draws after 400 plies; "
        "40 games a pair (README's ladder), 10 over 8 20 games",
        "pairs": [
            (2, 1, 18, 11, 11), (3, 2, 27, 6, 7), (4, 3, 35, 1, 4), (5, 4, 21, 14, 5),
            (6, 5, 28, 8, 4), (7, 6, 22, 17, 1), (8, 7, 21, 15, 4), (0, 8, 33, 6, 1),
            (10, 8, 16, 3, 1),
        ],
    },
    "chess": {
        "how": "chess, 2 s a side, 4 random plies, draws after 400 plies, 20 games a pair",
        "pairs": [
            (2, 1, 1, 0, 19), (3, 2, 18, 0, 2), (4, 3, 20, 0, 0), (5, 4, 13, 3, 4),
            (6, 5, 16, 2, 2), (8, 6, 16, 2, 2), (10, 8, 9, 5, 6), (0, 10, 6, 7, 7),
        ],
    },
    "checkers": {
        "how": "checkers, at most 200 ms a move (level 0 all of it), 20 games a pair, "
        "points only",
        "pairs": [
            (2, 1, 16, 4, 0), (3, 2, 18, 2, 0), (4, 3, 17, 3, 0), (6, 4, 18.5, 1.5, 0),
            (8, 6, 15.5, 4.5, 0), (12, 8, 16, 4, 0), (0, 12, 10.5, 9.5, 0),
        ],
    },
}

Z95 = 1.959964


def counted(w, l, d):
    """The games as counted: one draw added to a pair that scored every point."""
    if l == 0 and d == 0 or w == 0 and d == 0:
        return w, l, d + 1, True
    return w, l, d, False


def elo(p):
    return -400.0 * math.log10(1.0 / p - 1.0)


def link(w, l, d):
    """Elo of the higher level over the lower and its standard error (the
    normal approximation on the per-game scores, through the delta method)."""
    n = w + l + d
    p = (w + d / 2) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
    se_p = math.sqrt(var / n)
    slope = 400.0 / (math.log(10) * p * (1 - p))
    return elo(p), slope * se_p


def chain(pairs, diff):
    """Each level's Elo relative to level 0 from the links' differences."""
    rating = {0: 0.0}
    while len(rating) < len({x for p in pairs for x in p[:2]}):
        for (hi, lo, *_), dv in zip(pairs, diff):
            if hi in rating and lo not in rating:
                rating[lo] = rating[hi] - dv
            elif lo in rating and hi not in rating:
                rating[hi] = rating[lo] + dv
    return rating


def path_links(pairs, level):
    """Indices of the links between `level` and 0."""
    adj = {}
    for i, (hi, lo, *_) in enumerate(pairs):
        adj.setdefault(hi, []).append((lo, i))
        adj.setdefault(lo, []).append((hi, i))
    seen, stack = {0: []}, [0]
    while stack:
        at = stack.pop()
        for nxt, i in adj[at]:
            if nxt not in seen:
                seen[nxt] = seen[at] + [i]
                stack.append(nxt)
    return seen[level]


def bradley_terry(pairs):
    """Maximum-likelihood ratings of all the games at once (draws as half a
    win each way), relative to level 0: Hunter's MM iteration."""
    levels = sorted({x for p in pairs for x in p[:2]})
    gamma = {x: 1.0 for x in levels}
    games = []
    for hi, lo, w, l, d in pairs:
        w, l, d, _ = counted(w, l, d)
        games.append((hi, lo, w + d / 2, l + d / 2))
    for _ in range(20000):
        new = {}
        for x in levels:
            won = sum(a if h == x else b for h, o, a, b in games if x in (h, o))
            den = sum((a + b) / (gamma[h] + gamma[o]) for h, o, a, b in games if x in (h, o))
            new[x] = won / den
        norm = new[0]
        gamma = {x: g / norm for x, g in new.items()}
    return {x: 400.0 * math.log10(g) for x, g in gamma.items()}


def bootstrap(pairs, draws=20000, seed=62):
    rng = random.Random(seed)
    samples = {}
    for _ in range(draws):
        diff = []
        for hi, lo, w, l, d in pairs:
            n = w + l + d
            pw, pd = w / n, d / n
            # Points-only pairs are drawn as n games won with probability p.
            sw = sd = 0
            for _ in range(round(n)):
                u = rng.random()
                if u < pw:
                    sw += 1
                elif u < pw + pd:
                    sd += 1
            sl = round(n) - sw - sd
            cw, cl, cd, _ = counted(sw, sl, sd)
            diff.append(elo((cw + cd / 2) / (cw + cl + cd)))
        for level, r in chain(pairs, diff).items():
            samples.setdefault(level, []).append(r)
    out = {}
    for level, rs in samples.items():
        rs.sort()
        out[level] = (rs[int(0.025 * len(rs))], rs[int(0.975 * len(rs)) - 1])
    return out


def family(name, spec):
    pairs = spec["pairs"]
    links = [link(*counted(w, l, d)[:3]) for _, _, w, l, d in pairs]
    floors = [counted(w, l, d)[3] for _, _, w, l, d in pairs]
    rating = chain(pairs, [e for e, _ in links])
    bt = bradley_terry(pairs)
    boot = bootstrap(pairs)
    rows = {}
    for level in sorted(rating, key=lambda x: (x != 0, x)):
        path = path_links(pairs, level)
        se = math.sqrt(sum(links[i][1] ** 2 for i in path))
        r = rating[level]
        assert abs(bt[level] - r) < 0.5, (name, level, bt[level], r)
        # Crossing a floor link from above leaves only an upper bound.
        bound = ""
        for i in path:
            if floors[i]:
                bound = "<=" if pairs[i][1] == level or r < rating[pairs[i][0]] else ">="
        rows[level] = {
            "elo": round(r),
            "low": round(r - Z95 * se),
            "high": round(r + Z95 * se),
            "boot": [round(x) for x in boot[level]],
            "bound": bound,
        }
    return rows, links, floors


def strength_js(out):
    """The STRENGTH table as JavaScript, a level to a line so that the file
    reads as the table it is."""
    families = []
    for name, levels in out.items():
        rows = ",\n".join(f"  {json.dumps(level)}: {json.dumps(v)}" for level, v in levels.items())
        families.append(f" {json.dumps(name)}: {{\n{rows}\n }}")
    return "export const STRENGTH = {\n" + ",\n".join(families) + "\n};\n"


def main():
    out = {}
    for name, spec in LADDERS.items():
        rows, links, floors = family(name, spec)
        out[name] = {str(k): {"elo": v["elo"], "low": v["low"], "high": v["high"],
                              "bound": v["bound"]} for k, v in rows.items()}
        print(f"### {name}: {spec['how']}\n")
        print("| higher | lower | W-L-D | Elo of the link |")
        print("|---|---|---|---|")
        for (hi, lo, w, l, d), (e, se), floor in zip(spec["pairs"], links, floors):
            mark = " (one draw added: a floor)" if floor else ""
            print(f"| {hi} | {lo} | {w:g}-{l:g}-{d:g} | {e:+.0f} ± {Z95 * se:.0f}{mark} |")
        print("\n| level | Elo vs level 0 | 95% (delta method) | 95% (bootstrap) |")
        print("|---|---|---|---|")
        for level, v in rows.items():
            print(f"| {level} | {v['bound']}{v['elo']:+d} | {v['low']:+d} to {v['high']:+d} "
                  f"| {v['boot'][0]:+d} to {v['boot'][1]:+d} |")
        print()
    if "--write" in sys.argv:
        with open("src/web/static/levels.js", "w") as f:
            f.write("// Each machine level's measured Elo against level 0, with its 95%\n"
                    "// interval; made by scripts/level_elo.py --write from the ladders in\n"
                    "// docs/web-pages.md. bound '<=' or '>=': a pair that scored every point\n"
                    "// leaves only a bound.\n")
            f.write(strength_js(out))


if __name__ == "__main__":
    main()
