#!/usr/bin/env python3
"""Browser tests of the web board's checkers and ChessForge pages.

Starts `antichess serve --port 0`, drives Debian's Chromium with
Playwright for Python (pip install playwright==1.65.2; its own browser
download is not used, so this works offline), and plays as a person
would: on the checkers page it makes moves by clicking square after
square (a multi-jump included when one comes up), sees a typed illegal
move refused with its reason, offers the machine a draw and sees the
answer, and downloads the transcript; on the ChessForge page it strikes
tiles by clicking, asks for a hint, and starts a new game with a seed and
the extra rules. A screenshot of each page goes to target/screenshots/.

    python3 scripts/web_test_games.py [--binary target/release/antichess]

Exits non-zero with the reason when a check fails.
"""

import argparse
import json
import os
import subprocess
import sys
import urllib.request

from playwright.sync_api import sync_playwright

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

TIMEOUT_MS = 30_000


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def start_server(binary):
    proc = subprocess.Popen(
        [binary, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = proc.stdout.readline().strip()
    check(url.startswith("http://127.0.0.1:"), f"the server printed {url!r}")
    return proc, url.rsplit("/", 1)[0]


def api(base, path, body=None):
    """A JSON request to the server; the decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.load(answer)


def game_id(page):
    return page.evaluate("new URL(location.href).searchParams.get('game')")


# -- checkers ---------------------------------------------------------------


def checkers_state(base, page):
    return api(base, f"/api/checkers/games/{game_id(page)}")


def wait_for_my_turn(page):
    page.wait_for_function(
        "() => /your move|accept or reject|Game over/.test(document.getElementById('status').textContent)",
        timeout=TIMEOUT_MS,
    )


def click_move(page, path):
    for square in path:
        page.click(f"#board .sq[data-square='{square}']")


def test_checkers(browser, base, shots):
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/checkers")
    # A fresh game with a quick machine, through the page's own dialog.
    page.click("#btn-new")
    page.check("#form-new input[name=side][value=black]")
    page.select_option("#levels", "4")
    page.fill("#form-new input[name=seed]", "2004")
    page.click("#new-start")
    page.wait_for_function("() => document.getElementById('seed-line').textContent.includes('seed 2004')")
    wait_for_my_turn(page)
    check(page.get_attribute("#board", "data-orientation") == "black", "Black, the person, is at the bottom")

    # A typed illegal move is refused with its reason.
    page.fill("#move-input", "11-14")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => document.getElementById('message').textContent.includes('not a legal move')")
    check("11-15" in page.text_content("#message"), "the refusal names the legal moves from 11")

    # Moves by clicking, square after square; a jump when there is one.
    jumped = False
    for turn in range(8):
        wait_for_my_turn(page)
        state = checkers_state(base, page)
        if state["status"] != "playing":
            break
        moves = state["moves"]
        check(moves, f"the person has moves: {state}")
        jumps = [m for m in moves if m["captures"]]
        chosen = max(jumps, key=lambda m: len(m["path"])) if jumps else moves[(turn * 5) % len(moves)]
        before = state["version"]
        click_move(page, chosen["path"])
        page.wait_for_function(
            f"() => document.getElementById('transcript').textContent.includes('{chosen['move']}')",
            timeout=TIMEOUT_MS,
        )
        jumped = jumped or bool(chosen["captures"])
        after = checkers_state(base, page)
        check(after["version"] > before, "the click sent the move")
        # The machine's reply comes by itself, in words and on the board.
        page.wait_for_function(
            "() => /^white /.test(document.getElementById('last-move').textContent)"
            " || document.getElementById('status').textContent.startsWith('Game over')",
            timeout=TIMEOUT_MS,
        )
    state = checkers_state(base, page)
    check(state["last_move"] is not None, "a move was made")
    check(page.locator("#board .sq.path").count() >= 2, "the last move is highlighted on the board")
    print(f"checkers: {len(state['transcript'].splitlines())} transcript lines, a jump clicked: {jumped}")

    os.makedirs(shots, exist_ok=True)
    if state["status"] == "playing":
        # Show a route being chosen in the screenshot: the first click of a move.
        wait_for_my_turn(page)
        state = checkers_state(base, page)
        page.click(f"#board .sq[data-square='{state['moves'][0]['path'][0]}']")
    page.screenshot(path=os.path.join(shots, "checkers.png"))
    page.keyboard.press("Escape")

    # The transcript downloads as the handout writes it.
    with page.expect_download() as download:
        page.click("#btn-transcript")
    text = open(download.value.path()).read()
    check(text == checkers_state(base, page)["transcript"], "the downloaded transcript is the game's")
    check(text.startswith("1. "), f"transcript: {text!r}")

    # A draw offered to the machine is answered.
    if checkers_state(base, page)["status"] == "playing":
        wait_for_my_turn(page)
        page.click("#btn-draw")
        page.wait_for_function(
            "() => /accepted the draw|rejected the draw/.test(document.getElementById('last-move').textContent)",
            timeout=TIMEOUT_MS,
        )
        print("checkers: the machine " + page.text_content("#last-move").split(" ", 1)[1])
    check(not errors, f"page errors: {errors}")
    page.close()


# -- ChessForge ---------------------------------------------------------------


def forge_state(base, page):
    return api(base, f"/api/chessforge/games/{game_id(page)}")


def test_chessforge(browser, base, shots):
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/chessforge")
    page.click("#btn-new")
    page.check("#form-new input[name=rules][value=standard]")
    page.fill("#form-new input[name=seed]", "71")
    page.click("#new-start")
    page.wait_for_function("() => document.getElementById('seed-line').textContent.includes('seed 71')")
    check(page.locator("#forge .tile.target").count() == 36, "every tile may be struck first")

    # A tile the rules do not allow is refused on the page, and nothing changes.
    page.click("#forge .tile[data-square='c3']")
    page.wait_for_function("() => document.getElementById('stat-strikes').textContent === '1'")
    state = forge_state(base, page)
    check(state["strikes"] == 1, f"the first strike went in: {state['strikes']}")
    blocked = next(t["square"] for t in state["tiles"] if t["square"] not in state["targets"])
    page.click(f"#forge .tile[data-square='{blocked}']")
    page.wait_for_function("() => document.getElementById('message').textContent.includes('cannot be struck')")
    check(forge_state(base, page)["strikes"] == 1, "a refused click strikes nothing")

    # Strikes by clicking the highlighted tiles.
    for n in range(14):
        state = forge_state(base, page)
        if state["status"] != "playing":
            break
        square = state["targets"][(n * 7) % len(state["targets"])]
        page.click(f"#forge .tile.target[data-square='{square}']")
        page.wait_for_function(f"() => document.getElementById('stat-strikes').textContent === '{state['strikes'] + 1}'")
    state = forge_state(base, page)
    check(page.text_content("#stat-strikes") == str(state["strikes"]), "the page counts the strikes")

    # The solver's hint, shown on the board and in words.
    if state["status"] == "playing":
        page.click("#btn-hint")
        page.wait_for_selector("#forge .tile.hinted", timeout=TIMEOUT_MS)
        hint = forge_state(base, page)["hint"]
        check(hint and hint["square"] in state["targets"], f"the hint is a legal strike: {hint}")
        check(hint["square"] in page.text_content("#hint-text"), "the hint is said in words")
        print(f"chessforge: {state['strikes']} strikes, hint {hint['text']}")
    os.makedirs(shots, exist_ok=True)
    page.screenshot(path=os.path.join(shots, "chessforge.png"))

    # Played to the end by following the hints and the targets, it is scored.
    while forge_state(base, page)["status"] == "playing":
        state = forge_state(base, page)
        page.click(f"#forge .tile.target[data-square='{state['targets'][0]}']")
        page.wait_for_function(f"() => document.getElementById('stat-strikes').textContent === '{state['strikes'] + 1}'")
    state = forge_state(base, page)
    page.wait_for_selector("#score.shown")
    check(str(state["score"]["strikes"]) in page.text_content("#score"), "the score is shown")
    page.screenshot(path=os.path.join(shots, "chessforge-over.png"))
    print(f"chessforge: {state['score']['text']}")

    # A new game with the extra rules.
    page.click("#btn-new")
    page.check("#form-new input[name=rules][value=extra]")
    page.fill("#form-new input[name=seed]", "")
    page.click("#new-start")
    page.wait_for_function("() => document.getElementById('seed-line').textContent.includes('extra rules')")
    check(not errors, f"page errors: {errors}")
    page.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/antichess")
    parser.add_argument("--screenshots", default="target/screenshots")
    args = parser.parse_args()
    server, base = start_server(args.binary)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            try:
                test_checkers(browser, base, args.screenshots)
                test_chessforge(browser, base, args.screenshots)
            finally:
                browser.close()
    except Failure as e:
        print(f"web_test_games: FAILED: {e}", file=sys.stderr)
        return 1
    finally:
        server.kill()
        server.wait()
    print(f"web_test_games: ok; screenshots in {args.screenshots}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
