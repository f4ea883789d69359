#!/usr/bin/env python3
"""The generalised SPRT on pentanomial (or trinomial) counts, as fishtest
computes it, written afresh from its published description so that the
engine's own `antichess sprt` can be checked against an independent
implementation. Standard library only: it imports anywhere.

The model. A match is a run of game pairs, each opening played once with
each colour. A pair scores 0, 1/2, 1, 3/2 or 2 points: the pentanomial
counts LL, LD, D (two draws or a win and a loss), WD, WW. Divided by two,
a pair's score is a value in {0, 1/4, 1/2, 3/4, 1}; the empirical law of
that value is the observed distribution. The GSPRT's log-likelihood ratio
is N times the mean log ratio of two maximum-likelihood laws, each the
law closest to the observed one under a constraint:

- logistic bounds: the law whose expected score is L(elo0), resp. L(elo1),
  with L(x) = 1 / (1 + 10^(-x/400));
- normalised bounds: the law whose t-value (mu - 1/2) / sigma is
  nelo0 / (800 / ln 10) * sqrt(2), resp. for nelo1 (sigma is the standard
  deviation of the pair's mean score, hence the sqrt(2) to a game's).

A law with a fixed expectation is found by solving the secular equation
sum p_i a_i / (1 + x a_i) = 0 for the Lagrange multiplier x; one with a
fixed t-value by repeating that with the constraint linearised around the
current law until the law stops moving. Empty cells are given a count of
1e-3, as fishtest does, so that every law has all five values.

Elo, its 95% interval and LOS come from the observed mean and variance of
the per-game score; nElo is (mu - 1/2) / sigma_per_game * 800 / ln 10.

    scripts/sprt.py --penta 10,90,200,95,15 --elo0 0 --elo1 5
    scripts/sprt.py --penta 10,90,200,95,15 --elo0 0 --elo1 2 --model normalized

prints one line of key=value pairs: llr, lower, upper, elo, elo95, nelo,
nelo95, los, pairs, games, result (H0, H1 or continue).
"""

import argparse
import math
import statistics
import sys

NELO_PER_T = 800.0 / math.log(10.0)
REGULARISER = 1e-3
MODELS = ("normalized", "logistic")


def logistic_score(elo):
    """Expected score of a side `elo` logistic Elo stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_elo(score):
    """Logistic Elo of an expected score, clamped away from 0 and 1."""
    score = min(max(score, 1e-3), 1.0 - 1e-3)
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha, beta):
    """The stopping bounds (lower, upper) of the LLR."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def observed_law(counts):
    """(N, [(value, probability)]) for 3 (L, D, W) or 5 pentanomial counts,
    values spread evenly over [0, 1], empty cells regularised."""
    if len(counts) not in (3, 5):
        raise ValueError("give 3 (L,D,W) or 5 (LL,LD,D,WD,WW) counts")
    if any(c < 0 for c in counts):
        raise ValueError("counts must not be negative")
    filled = [c if c > 0 else REGULARISER for c in counts]
    total = sum(filled)
    last = len(filled) - 1
    return total, [(i / last, c / total) for i, c in enumerate(filled)]


def moments(law):
    """Mean and variance of a law."""
    mean = sum(p * a for a, p in law)
    return mean, sum(p * (a - mean) ** 2 for a, p in law)


def solve_secular(weights):
    """The x with sum p_i a_i / (1 + x a_i) = 0 where 1 + x a_i > 0 for
    every i; `weights` holds (a_i, p_i), with a_i of both signs. The sum
    falls strictly with x on that interval, so bisection finds the root
    to the last bit."""
    lowest = min(a for a, _ in weights)
    highest = max(a for a, _ in weights)
    if not lowest < 0.0 < highest:
        raise ValueError("the constraint lies outside the observed values")
    lo, hi = -1.0 / highest, -1.0 / lowest

    def f(x):
        return sum(p * a / (1.0 + x * a) for a, p in weights)

    for _ in range(400):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if f(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def mle_with_mean(law, mean):
    """The law closest (in likelihood) to `law` whose expectation is
    `mean`."""
    shifted = [(a - mean, p) for a, p in law]
    x = solve_secular(shifted)
    return [(a, p / (1.0 + x * (a - mean))) for a, p in law]


def mle_with_t(law, ref, t, max_rounds=1000):
    """The law closest to `law` whose t-value (mu - ref) / sigma is `t`:
    the constraint is linearised around the current estimate and solved
    again until the estimate moves by less than 1e-15."""
    estimate = [(a, 1.0 / len(law)) for a, _ in law]
    for _ in range(max_rounds):
        mu, var = moments(estimate)
        sigma = math.sqrt(var)
        shifted = [
            (a - ref - t * sigma * (1.0 + ((mu - a) / sigma) ** 2) / 2.0, p)
            for a, p in law
        ]
        x = solve_secular(shifted)
        nxt = [(a, p / (1.0 + x * s)) for (a, p), (s, _) in zip(law, shifted)]
        moved = max(abs(q - r) for (_, q), (_, r) in zip(nxt, estimate))
        estimate = nxt
        if moved < 1e-15:
            break
    return estimate


def llr(counts, elo0, elo1, model="normalized"):
    """The GSPRT log-likelihood ratio of H1 (elo1) over H0 (elo0)."""
    total, law = observed_law(counts)
    if model == "logistic":
        law0 = mle_with_mean(law, logistic_score(elo0))
        law1 = mle_with_mean(law, logistic_score(elo1))
    elif model == "normalized":
        # sigma of a pair's mean score is a game's over sqrt(2).
        scale = math.sqrt(2.0) if len(counts) == 5 else 1.0
        law0 = mle_with_t(law, 0.5, elo0 / NELO_PER_T * scale)
        law1 = mle_with_t(law, 0.5, elo1 / NELO_PER_T * scale)
    else:
        raise ValueError(f"model must be one of {', '.join(MODELS)}")
    return total * sum(
        p * (math.log(p1) - math.log(p0))
        for (_, p), (_, p0), (_, p1) in zip(law, law0, law1)
    )


def estimates(counts):
    """Elo and nElo with 95% half-widths, and LOS, from the observed mean
    and variance of the per-game score."""
    total, law = observed_law(counts)
    mu, var = moments(law)
    if var <= 0.0:
        raise ValueError("the counts have no spread")
    # Per game: a pair's mean over sqrt(2) pairs' worth of games.
    games_per_unit = 2.0 if len(counts) == 5 else 1.0
    sigma_game = math.sqrt(var * games_per_unit)
    standard_error = math.sqrt(var / total)
    z = statistics.NormalDist().inv_cdf(0.975)
    elo = score_elo(mu)
    elo95 = (score_elo(mu + z * standard_error) - score_elo(mu - z * standard_error)) / 2.0
    nelo = (mu - 0.5) / sigma_game * NELO_PER_T
    nelo95 = z * standard_error / sigma_game * NELO_PER_T
    los = statistics.NormalDist().cdf((mu - 0.5) / standard_error)
    return {"elo": elo, "elo95": elo95, "nelo": nelo, "nelo95": nelo95, "los": los}


def test(counts, elo0, elo1, alpha=0.05, beta=0.05, model="normalized"):
    """Everything the CLI prints, as a dict."""
    lower, upper = bounds(alpha, beta)
    value = llr(counts, elo0, elo1, model)
    result = "H1" if value >= upper else "H0" if value <= lower else "continue"
    out = {"llr": value, "lower": lower, "upper": upper}
    if sum(counts) > 0:
        out.update(estimates(counts))
    if len(counts) == 5:
        out["pairs"] = sum(counts)
        out["games"] = 2 * sum(counts)
    else:
        out["games"] = sum(counts)
    out["result"] = result
    return out


def pair_counts(pair_scores):
    """Pentanomial counts [LL, LD, D, WD, WW] of pairs given as the first
    player's total score over the two games of each pair (0 .. 2 in
    half points)."""
    counts = [0] * 5
    for score in pair_scores:
        cell = round(score * 2)
        if cell != score * 2 or not 0 <= cell <= 4:
            raise ValueError(f"a pair cannot score {score}")
        counts[cell] += 1
    return counts


def format_line(out, digits=6):
    """key=value pairs, floats with `digits` decimals."""
    return " ".join(
        f"{k}={v:.{digits}f}" if isinstance(v, float) else f"{k}={v}" for k, v in out.items()
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    counts = parser.add_mutually_exclusive_group(required=True)
    counts.add_argument("--penta", help="LL,LD,D,WD,WW: counts of pairs scoring 0, 1/2, 1, 3/2, 2")
    counts.add_argument("--trinomial", help="L,D,W: counts of single games")
    parser.add_argument("--elo0", type=float, required=True)
    parser.add_argument("--elo1", type=float, required=True)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--model", choices=MODELS, default="normalized")
    parser.add_argument("--digits", type=int, default=6, help="decimals printed")
    args = parser.parse_args(argv)
    text = args.penta if args.penta is not None else args.trinomial
    want = 5 if args.penta is not None else 3
    try:
        values = [int(v) for v in text.split(",")]
        if len(values) != want:
            raise ValueError(f"expected {want} comma-separated counts, got {len(values)}")
        if args.elo0 >= args.elo1:
            raise ValueError("elo0 must be below elo1")
        out = test(values, args.elo0, args.elo1, args.alpha, args.beta, args.model)
    except ValueError as e:
        print(f"sprt.py: {e}", file=sys.stderr)
        return 2
    print(format_line(out, args.digits))
    return 0


if __name__ == "__main__":
    sys.exit(main())
