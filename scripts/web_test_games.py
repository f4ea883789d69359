#!/usr/bin/env python3
"""Browser tests of the web board's checkers and ChessForge pages.

Playwright for Python drives Debian's Chromium (/usr/bin/chromium; the
browser Playwright downloads itself cannot be had offline) against a real
`antichess serve --port 0`, as a person uses the pages. Checkers: moves by
clicking square after square (a multi-jump route included), a typed
illegal move refused with its reason, a draw offered to the machine and
answered, an offer between two people rejected and accepted on the page,
the transcript downloaded, a new game as White, a finished game found in
the games list, opened on the checkers board and replayed with the arrow
keys. ChessForge:
strikes by clicking the highlighted tiles, a refused tile, the solver's
hint, a game struck to its score and replayed with the arrow keys, a new game with a seed and the extra
rules. Each page is photographed into the screenshot folder
(target/screenshots/ by default) for people to look at.

    python3 scripts/web_test_games.py [--binary target/release/antichess]

Needs: pip install -r scripts/requirements-web.txt; apt-get install chromium.
The last line is `N passed, M failed`; the exit status is 1 if any failed.
"""

import re
import sys
from pathlib import Path

from playwright.sync_api import expect

# The server, the browser's launch and the step runner are the chess
# page's script's (scripts/ is on the path when this one runs).
from web_test import VIEWPORT, command_line, run_steps

PATIENCE_MS = 60_000

# The folder for the README's small screenshots (--docs), or None.
docs = None


def photograph(page, shots, name, docs=None, prepare=None):
    """A screenshot of the page into the screenshot folder; with `docs`, a
    small one of the same game (rendered at 0.6 pixels per CSS pixel) for
    the README as docs/web-NAME.png. `prepare(page)` sets the small page up
    as the big one was."""
    page.screenshot(path=shots / f"{name}.png")
    if docs is None:
        return
    context = page.context.browser.new_context(viewport=VIEWPORT, device_scale_factor=0.6)
    try:
        small = context.new_page()
        small.goto(page.evaluate("location.href"))
        expect(small.locator("#seed-line")).to_contain_text(game_id(page))
        if prepare:
            prepare(small)
        small.screenshot(path=docs / f"web-{name}.png")
    finally:
        context.close()


def game_id(page):
    # page.url may lag behind history.replaceState; the page's own is exact.
    return page.evaluate("new URL(location.href).searchParams.get('game')")


def wait_js(page, condition):
    page.wait_for_function(condition, timeout=PATIENCE_MS)


# ---- checkers --------------------------------------------------------------

def checkers(server, page):
    return server.api(f"/api/checkers/games/{game_id(page)}")


def new_checkers_game(page, side, level, seed):
    page.click("#btn-new")
    page.check(f"#form-new input[name=side][value={side}]")
    page.select_option("#levels", str(level))
    page.fill("#form-new input[name=seed]", str(seed))
    page.click("#new-start")
    # The whole seed: the page's first game may have one that starts alike.
    expect(page.locator("#seed-line")).to_have_text(re.compile(rf"· seed {seed}$"))


def wait_for_my_turn(page):
    wait_js(page, "() => /your move|accept or reject|Game over/.test(document.getElementById('status').textContent)")


def wait_for_reply(page):
    """The machine's (White's) reply has come by itself, said in words, or
    the game is over: a page that still shows the person's turn from
    before the click would let the next click fall on the machine's turn."""
    wait_js(page, "() => /^white /.test(document.getElementById('last-move').textContent)"
                  " || document.getElementById('status').textContent.startsWith('Game over')")


def click_route(page, path):
    for sq in path:
        page.click(f"#board .sq[data-square='{sq}']")


def test_checkers_moves_by_clicking(server, page, shots):
    page.goto(server.base + "/checkers")
    new_checkers_game(page, "black", 4, 2004)
    assert page.get_attribute("#board", "data-orientation") == "black", "the person's Black is at the bottom"
    jumped = False
    for turn in range(8):
        wait_for_my_turn(page)
        state = checkers(server, page)
        if state["status"] != "playing":
            break
        moves = state["moves"]
        jumps = [m for m in moves if m["captures"]]
        chosen = max(jumps, key=lambda m: len(m["path"])) if jumps else moves[(turn * 5) % len(moves)]
        click_route(page, chosen["path"])
        expect(page.locator("#transcript")).to_contain_text(chosen["move"])
        jumped = jumped or bool(chosen["captures"])
        wait_for_reply(page)
    state = checkers(server, page)
    assert jumped, "a jump came up and was clicked"
    assert state["last_move"]["side"] == "white"
    expect(page.locator("#last-move")).to_have_text(state["last_action"]["text"])
    for sq in state["last_move"]["path"]:
        expect(page.locator(f"#board .sq[data-square='{sq}']")).to_have_class(re.compile(r"\bpath\b"))
    # The photograph shows a route being chosen: the first click of a move.
    wait_for_my_turn(page)
    first = checkers(server, page)["moves"][0]["path"][0]

    def choosing(p):
        p.click(f"#board .sq[data-square='{first}']")
        expect(p.locator("#board .sq.next").first).to_be_visible()

    choosing(page)
    photograph(page, shots, "checkers", docs, choosing)


def test_checkers_illegal_move_is_refused_with_its_reason(server, page, shots):
    page.goto(server.base + "/checkers")
    new_checkers_game(page, "black", 1, 7)
    page.fill("#move-input", "11-14")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_contain_text("`11-14` is not a legal move here")
    expect(page.locator("#message")).to_contain_text("11-15")
    assert checkers(server, page)["transcript"] == "", "nothing was played"
    page.fill("#move-input", "11-15")
    page.press("#move-input", "Enter")
    expect(page.locator("#transcript")).to_contain_text("1. 11-15")


def test_checkers_draw_offer_and_transcript(server, page, shots):
    page.goto(server.base + "/checkers")
    new_checkers_game(page, "black", 2, 61)
    click_route(page, [11, 15])
    wait_for_my_turn(page)
    page.click("#btn-draw")
    wait_js(page, "() => /accepted the draw|rejected the draw/.test(document.getElementById('last-move').textContent)")
    state = checkers(server, page)
    assert state["last_action"]["action"] in ("accept", "reject"), state["last_action"]
    assert "1. 11-15" in state["transcript"] and "draw" in state["transcript"]
    with page.expect_download() as download:
        page.click("#btn-transcript")
    text = Path(download.value.path()).read_text()
    assert text == state["transcript"], f"downloaded {text!r}"
    if state["status"] == "playing":
        expect(page.locator("#btn-draw")).to_be_disabled()  # no offer straight after a rejection
        page.click("#btn-resign")
        expect(page.locator("#status")).to_contain_text("Black resigned")


def discs_on_page(page):
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#board .sq[data-square]')]
        .map((c) => [c.dataset.square, c.querySelector('.disc') ? c.querySelector('.disc').dataset.piece : null]))""")


def discs_of(position):
    return {str(sq["square"]): sq["piece"] for sq in position["board"]}


def test_checkers_game_in_the_list_and_replayed(server, page, shots):
    page.goto(server.base + "/checkers")
    new_checkers_game(page, "black", 2, 62)
    for path in ([11, 15], [9, 13]):
        wait_for_my_turn(page)
        moves = checkers(server, page)["moves"]
        chosen = next((m for m in moves if m["path"] == path), moves[0])
        click_route(page, chosen["path"])
        expect(page.locator("#transcript")).to_contain_text(chosen["move"])
        wait_for_reply(page)
    wait_for_my_turn(page)
    page.click("#btn-resign")
    expect(page.locator("#status")).to_contain_text("Game over")
    gid = game_id(page)
    page.goto(server.base + "/games?family=checkers")
    row = page.locator(f'#rows tr[data-game="{gid}"]')
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Checkers")
    row.locator("a.open").click()
    page.wait_for_url(re.compile(r"/checkers\?game="), timeout=PATIENCE_MS)
    expect(page.locator("#replay-bar")).to_be_visible()
    positions = server.api(f"/api/checkers/games/{gid}/replay")["positions"]
    last = len(positions) - 1
    assert last >= 4, last
    page.keyboard.press("Home")
    wait_js(page, "() => document.body.dataset.ply === '0'")
    assert discs_on_page(page) == discs_of(positions[0])
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_js(page, "() => document.body.dataset.ply === '2'")
    assert discs_on_page(page) == discs_of(positions[2])
    expect(page.locator("#status")).to_contain_text(f"move 2 of {last}")
    page.screenshot(path=shots / "checkers-replay.png")
    page.keyboard.press("End")
    wait_js(page, f"() => document.body.dataset.ply === '{last}'")
    assert discs_on_page(page) == discs_of(positions[last])
    expect(page.locator("#status")).to_contain_text("Game over")


def test_checkers_draw_offer_answered_on_the_banner(server, page, shots):
    page.goto(server.base + "/checkers")
    page.click("#btn-new")
    page.check("#form-new input[name=side][value=both]")
    page.click("#new-start")
    expect(page.locator("#status")).to_have_text("Black to move")
    click_route(page, [11, 15])
    expect(page.locator("#status")).to_have_text("White to move")
    page.click("#btn-draw")
    expect(page.locator("#offer")).to_be_visible()
    expect(page.locator("#offer-text")).to_have_text("White offers a draw.")
    expect(page.locator("#status")).to_have_text("White offers a draw — accept or reject?")
    expect(page.locator("#board .sq.can-move")).to_have_count(0)
    page.screenshot(path=shots / "checkers-offer.png")
    page.click("#btn-reject")
    expect(page.locator("#offer")).to_be_hidden()
    expect(page.locator("#last-move")).to_have_text("black rejected the draw")
    expect(page.locator("#btn-draw")).to_be_disabled()
    click_route(page, [22, 18])
    page.click("#btn-draw")
    page.click("#btn-accept")
    expect(page.locator("#status")).to_have_text("Game over — Drawn by agreement (1/2-1/2)")
    expect(page.locator("#transcript li.score")).to_have_text("1/2-1/2")


def test_checkers_new_game_as_white(server, page, shots):
    page.goto(server.base + "/checkers")
    new_checkers_game(page, "white", 1, 5)
    assert page.get_attribute("#board", "data-orientation") == "white"
    wait_for_my_turn(page)
    expect(page.locator("#last-move")).to_contain_text("black moved")
    assert checkers(server, page)["players"]["black"]["player"] == "level:1"


# ---- ChessForge ------------------------------------------------------------

def forge(server, page):
    return server.api(f"/api/chessforge/games/{game_id(page)}")


def new_forge_game(page, rules, seed):
    page.click("#btn-new")
    page.check(f"#form-new input[name=rules][value={rules}]")
    page.fill("#form-new input[name=seed]", str(seed))
    page.click("#new-start")
    expect(page.locator("#seed-line")).to_have_text(re.compile(rf"· seed {seed} · {rules} rules$"))


def strike(page, square, strikes_before):
    page.click(f"#forge .tile.target[data-square='{square}']")
    expect(page.locator("#stat-strikes")).to_have_text(str(strikes_before + 1))


def test_chessforge_strikes_by_clicking_and_a_hint(server, page, shots):
    page.goto(server.base + "/chessforge")
    new_forge_game(page, "standard", 71)
    expect(page.locator("#forge .tile.target")).to_have_count(36)
    strike(page, "c3", 0)
    state = forge(server, page)
    blocked = next(t["square"] for t in state["tiles"] if t["square"] not in state["targets"])
    page.click(f"#forge .tile[data-square='{blocked}']")
    expect(page.locator("#message")).to_contain_text("cannot be struck")
    assert forge(server, page)["strikes"] == 1, "a refused click strikes nothing"
    expect(page.locator("#forge .tile.target")).to_have_count(len(state["targets"]))
    for n in range(14):
        state = forge(server, page)
        strike(page, state["targets"][(n * 7) % len(state["targets"])], state["strikes"])
    state = forge(server, page)
    expect(page.locator("#rule")).to_have_text(state["last"]["text"])
    page.click("#btn-hint")
    expect(page.locator("#forge .tile.hinted")).to_have_count(1, timeout=PATIENCE_MS)
    hint = forge(server, page)["hint"]
    assert hint["square"] in state["targets"], f"the hint is a legal strike: {hint}"
    expect(page.locator("#hint-text")).to_contain_text(f"Strike {hint['square']}")
    photograph(page, shots, "chessforge", docs, lambda p: expect(p.locator("#forge .tile.hinted")).to_have_count(1))
    strike(page, hint["square"], state["strikes"])
    expect(page.locator("#forge .tile.hinted")).to_have_count(0)


def test_chessforge_game_struck_to_its_score(server, page, shots):
    page.goto(server.base + "/chessforge")
    new_forge_game(page, "standard", 12)
    while (state := forge(server, page))["status"] == "playing":
        strike(page, state["targets"][0], state["strikes"])
    expect(page.locator("#score")).to_have_text(state["score"]["text"])
    expect(page.locator("#status")).to_have_text("Board cleared!" if state["score"]["cleared"] else "Game over")
    expect(page.locator("#btn-hint")).to_be_disabled()
    photograph(page, shots, "chessforge-over")
    # The finished game replays strike by strike with the arrow keys.
    expect(page.locator("#replay-bar")).to_be_visible()
    positions = server.api(f"/api/chessforge/games/{game_id(page)}/replay")["positions"]
    assert len(positions) == state["strikes"] + 1, len(positions)

    def hits_on_page():
        return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#forge .tile')]
            .map((t) => [t.dataset.square, t.classList.contains('gone') ? 0
                : [1, 2, 3].find((h) => t.classList.contains('h' + h))]))""")

    def hits_of(position):
        return {t["square"]: t["hits"] for t in position["tiles"]}

    page.keyboard.press("Home")
    wait_js(page, "() => document.body.dataset.ply === '0'")
    assert hits_on_page() == hits_of(positions[0])
    for ply in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        wait_js(page, f"() => document.body.dataset.ply === '{ply}'")
        assert hits_on_page() == hits_of(positions[ply]), ply
    expect(page.locator("#status")).to_contain_text(f"strike 3 of {len(positions) - 1}")
    page.screenshot(path=shots / "chessforge-replay.png")
    page.keyboard.press("End")
    wait_js(page, f"() => document.body.dataset.ply === '{len(positions) - 1}'")
    assert hits_on_page() == hits_of(positions[-1])


def test_chessforge_new_game_with_extra_rules(server, page, shots):
    page.goto(server.base + "/chessforge")
    new_forge_game(page, "extra", 8)
    state = forge(server, page)
    assert state["rules"] == "extra" and state["seed"] == 8
    page.click("#btn-rules")
    expect(page.locator("#legend-grid")).to_contain_text("skull")
    page.click("#btn-replay")
    expect(page.locator("#message")).to_contain_text("seed 8")
    assert forge(server, page)["board"] == state["board"], "the same seed deals the same board"


TESTS = [
    test_checkers_moves_by_clicking,
    test_checkers_illegal_move_is_refused_with_its_reason,
    test_checkers_draw_offer_and_transcript,
    test_checkers_draw_offer_answered_on_the_banner,
    test_checkers_new_game_as_white,
    test_checkers_game_in_the_list_and_replayed,
    test_chessforge_strikes_by_clicking_and_a_hint,
    test_chessforge_game_struck_to_its_score,
    test_chessforge_new_game_with_extra_rules,
]


def main():
    parser = command_line(__doc__.splitlines()[0])
    parser.add_argument("--docs", help="also write the README's small screenshots into this folder")
    args = parser.parse_args()
    global docs
    docs = Path(args.docs) if args.docs else None
    return run_steps(TESTS, "web games", args)

if __name__ == "__main__":
    sys.exit(main())
