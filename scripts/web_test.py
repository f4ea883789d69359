#!/usr/bin/env python3
"""Browser tests of the web board (`antichess serve`), as a person uses it.

Playwright for Python drives Debian's Chromium (/usr/bin/chromium; the
browser Playwright downloads itself cannot be had offline) against a real
server on a free port, with a database of its own. The steps play an
antichess game by clicking, dragging and typing; restart the server on
the same database and find that game in the games list; replay it with
the arrow keys and by clicking its moves; download its PGN, read its
headers with python-chess and replay its moves legally in our engine
(python-chess's own antichess is lichess's, a different rule set), read
the PGN of a chess game still being played with python-chess, and the
game file of a replayed position; ask the engine's analysis of a replayed
position; see the level menus give each level's Elo; see an illegal move
refused with its reason, save and load a game file (a damaged one
refused), set a clock, start a game as black, and choose a promotion in
chess. Each page is photographed into the screenshot folder
(target/screenshots/ by default) for people to look at.

    python3 scripts/web_test.py [--binary target/release/antichess]

Needs: pip install -r scripts/requirements-web.txt; apt-get install chromium.
The last line is `N passed, M failed`; the exit status is 1 if any failed.
"""

import argparse
import io
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

import chess.pgn
from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
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
VIEWPORT = {"width": 1280, "height": 860}
PATIENCE_S = 60


class Server:
    """`antichess serve --port 0 --db DB`, and the JSON API for checking
    the page; restart() starts it again on the same database."""

    def __init__(self, binary, db):
        self.binary = binary
        self.db = db
        self.start()

    def restart(self):
        self.stop()
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--port", "0", "--db", str(self.db)],
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://"):
            self.stop()
            raise RuntimeError(f"the server printed {line!r}, not its address")
        self.page_url = line
        self.base = line.rsplit("/", 1)[0]

    def api(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=PATIENCE_S) as resp:
            return json.load(resp)

    def text(self, path):
        with urllib.request.urlopen(self.base + path, timeout=PATIENCE_S) as resp:
            return resp.read().decode()

    def stop(self):
        self.proc.kill()
        self.proc.wait()


# ---- helpers on the chess page -------------------------------------------

def address(page):
    # page.url may lag behind history.replaceState; the page's own is exact.
    return page.evaluate("location.href")


def game_id(page):
    return address(page).split("game=")[1].split("&")[0]


def state(server, page):
    return server.api(f"/api/chess/games/{game_id(page)}")


def wait_for(what, test, timeout=PATIENCE_S):
    """Calls test() until it returns something true; its value."""
    end = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def square(page, name):
    return page.locator(f'#board .sq[data-square="{name}"]')


def click_move(page, frm, to):
    square(page, frm).click()
    square(page, to).click()


def drag_move(page, frm, to):
    a = square(page, frm).bounding_box()
    b = square(page, to).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def type_move(page, text):
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")


def new_game(page, side="white", level="1", rules="antichess", minutes="5", seed=None):
    page.click("#btn-new")
    form = page.locator("#dlg-new")
    form.locator("select[name=rules]").select_option(rules)
    form.locator(f"input[name=side][value={side}]").check()
    form.locator("select[name=level]").select_option(level)
    form.locator("input[name=minutes]").fill(minutes)
    form.locator("input[name=seed]").fill("" if seed is None else str(seed))
    old = address(page)
    page.click("#new-start")
    wait_for("the new game's address", lambda: address(page) != old and "game=" in address(page))
    expect(page.locator("#status")).not_to_have_text("Loading…")
    if seed is not None:
        expect(page.locator("#seed-line")).to_have_text(re.compile(rf"· seed {seed}$"))


def shown(server, page):
    """The game's state once the page shows that same version."""
    s = state(server, page)
    on_page = page.evaluate("[document.body.dataset.game, document.body.dataset.version]")
    return s if on_page == [s["id"], str(s["version"])] else None


def our_turn(server, page, side):
    s = shown(server, page)
    if s is None or s["status"] != "playing":
        return s
    return s if s["to_move"] == side else None


def load_file(page, name, text, side="both"):
    page.click("#btn-load")
    dialog = page.locator("#dlg-load")
    dialog.locator("input[type=file]").set_input_files(
        files=[{"name": name, "mimeType": "text/plain", "buffer": text.encode()}]
    )
    dialog.locator(f"input[name=side][value={side}]").check()
    page.click("#load-start")


# ---- the steps ---------------------------------------------------------------

def test_play_a_game_by_mouse_and_keyboard(server, page, shots):
    """A whole antichess game against the machine at level 1: our moves
    by click-click, drag and typing in turn, until the game is over."""
    page.goto(server.page_url)
    expect(page.locator("#board .sq")).to_have_count(64)
    expect(page.locator("#board .piece")).to_have_count(32)
    page.screenshot(path=shots / "chess-start.png")
    # A fixed seed for level 1's random choices: about one seed in sixty
    # locks this pair in a king-and-pawn ending that never ends (the 2002
    # rules have no repetition rule), as in tests/web_api.rs.
    new_game(page, side="white", level="1", seed=6170)
    rng = random.Random(6170)
    ways = [click_move, drag_move, lambda p, f, t: type_move(p, f"{f}-{t}")]
    for ply in range(400):
        s = wait_for("our turn", lambda: our_turn(server, page, "white"))
        if s["status"] != "playing":
            break
        mv = rng.choice(s["moves"])
        before = len(s["history"])
        ways[ply % 3](page, mv["from"], mv["to"])
        wait_for(f"{mv['move']} to be played",
                 lambda: len(state(server, page)["history"]) > before)
        if ply == 6:
            wait_for("the machine's reply", lambda: our_turn(server, page, "white"))
            expect(page.locator("#last-move")).to_have_text("black moved " + state(server, page)["last_move"]["move"])
            page.screenshot(path=shots / "chess-midgame.png")
    s = state(server, page)
    assert s["status"] == "over", s["status"]
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#status")).to_contain_text(s["result"]["text"])
    page.screenshot(path=shots / "chess-game-over.png")
    PLAYED.update(s)


# The game the first step played, for the steps after the restart.
PLAYED = {}

# The folder for the small screenshots of docs/web-pages.md (--docs), or None.
DOCS = None


def small_shot(page, name, prepare=None):
    """With --docs, a small screenshot (0.6 pixels per CSS pixel) of the
    page's address as docs/web-NAME.png; `prepare(page)` sets it up."""
    if DOCS is None:
        return
    context = page.context.browser.new_context(viewport=VIEWPORT, device_scale_factor=0.6)
    try:
        small = context.new_page()
        small.goto(page.evaluate("location.href"))
        if prepare:
            prepare(small)
        small.screenshot(path=DOCS / f"web-{name}.png")
    finally:
        context.close()


def played():
    assert PLAYED, "the first step did not finish its game"
    return PLAYED


def board_on_page(page):
    """The rows the board shows, from rank 8 down, '-' for an empty square."""
    return page.evaluate("""() => {
        const rows = [];
        for (let rank = 8; rank >= 1; rank--) {
            let row = '';
            for (const f of 'abcdefgh') {
                const piece = document.querySelector(`#board .sq[data-square="${f}${rank}"] .piece`);
                row += piece ? piece.dataset.letter : '-';
            }
            rows.push(row);
        }
        return rows;
    }""")


def shown_ply(page):
    return page.evaluate("Number(document.body.dataset.ply)")


def wait_ply(page, ply):
    wait_for(f"move {ply} of the replay", lambda: shown_ply(page) == ply, 10)


def open_replay(server, page, gid, ply=None):
    query = f"?game={gid}" + ("" if ply is None else f"&ply={ply}")
    page.goto(f"{server.base}/chess{query}")
    expect(page.locator("#replay-bar")).to_be_visible()


def test_restart_and_find_the_game_in_the_list(server, page, shots):
    """The server restarts on the same database: the finished game is in
    the games list with its result, and opens on the chess board."""
    game = played()
    server.restart()
    page.goto(f"{server.base}/games")
    row = page.locator(f'#rows tr[data-game="{game["id"]}"]')
    expect(row).to_have_count(1)
    expect(row).to_contain_text(game["result"]["score"])
    expect(row).to_contain_text("Antichess 2002")
    moves = (len(game["history"]) + 1) // 2
    expect(row.locator("td.num")).to_have_text(str(moves))
    expect(page.locator("#btn-more")).to_be_hidden()  # every game is on this page
    page.screenshot(path=shots / "games-list.png")
    small_shot(page, "games", lambda p: expect(p.locator(f'#rows tr[data-game="{game["id"]}"]')).to_have_count(1))
    page.locator("#filters select[name=family]").select_option("checkers")
    expect(row).to_have_count(0)
    page.locator("#filters select[name=family]").select_option("chess")
    expect(row).to_have_count(1)
    row.locator("a.open").click()
    wait_for("the chess page", lambda: f"/chess?game={game['id']}" in address(page))
    expect(page.locator("#replay-bar")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Game over")


def test_replay_with_the_arrow_keys(server, page, shots):
    """Home, the arrow keys, End and a click on a move show the server's
    positions one by one."""
    game = played()
    positions = server.api(f"/api/chess/games/{game['id']}/replay")["positions"]
    assert len(positions) == len(game["history"]) + 1, len(positions)
    open_replay(server, page, game["id"])
    last = len(positions) - 1
    wait_ply(page, last)
    page.keyboard.press("Home")
    wait_ply(page, 0)
    assert board_on_page(page) == positions[0]["board"]
    for ply in range(1, 6):
        page.keyboard.press("ArrowRight")
        wait_ply(page, ply)
        assert board_on_page(page) == positions[ply]["board"], ply
    page.keyboard.press("ArrowLeft")
    wait_ply(page, 4)
    assert board_on_page(page) == positions[4]["board"]
    expect(page.locator("#status")).to_contain_text(f"move 4 of {last}")
    expect(page.locator("#history .mv.shown")).to_have_text(game["history"][3])
    page.screenshot(path=shots / "chess-replay.png")
    small_shot(page, "replay", lambda p: wait_ply(p, 4))
    page.locator('#history .mv[data-ply="7"]').click()
    wait_ply(page, 7)
    assert board_on_page(page) == positions[7]["board"]
    page.keyboard.press("End")
    wait_ply(page, last)
    assert board_on_page(page) == positions[last]["board"] == game["board"]
    expect(page.locator("#status")).to_contain_text("Game over")
    page.click("#rp-first")
    wait_ply(page, 0)
    page.click("#rp-next")
    wait_ply(page, 1)


SAN = re.compile(r"^(?P<piece>[KQRBN])?(?P<hint>[a-h]?[1-8]?)x?(?P<to>[a-h][1-8])(=(?P<promo>[QRBNK]))?$")


def engine_move(san, legal, rows):
    """The one legal move of our engine (e2-e4, e7-e8q) that `san` names."""
    text = san.rstrip("+#!?")
    found = []
    for mv in legal:
        frm, to, promo = mv[:2], mv[3:5], mv[5:]
        piece = rows[8 - int(frm[1])]["abcdefgh".index(frm[0])].upper()
        if text in ("O-O", "O-O-O"):
            goes = "g" if text == "O-O" else "c"
            if piece == "K" and frm[0] == "e" and to[0] == goes:
                found.append(mv)
            continue
        m = SAN.match(text)
        assert m, f"not a SAN move: {san}"
        if (m["piece"] or "P") != piece or to != m["to"]:
            continue
        if (m["promo"] or "").lower() != promo or any(c not in frm for c in m["hint"]):
            continue
        found.append(mv)
    assert len(found) == 1, f"{san}: {found} of {legal}"
    return found[0]


def replay_in_our_engine(binary, rules, sans):
    """Plays the moves through the engine line protocol (`play`); every
    one must be legal. The engine's `moves` answer after the last."""
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)

    def ask(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        return engine.stdout.readline().strip()

    try:
        assert ask(f"set rules {rules}") == "ok"
        for san in sans:
            legal = ask("moves").split()[1:]
            rows = ask("board").split()[4:]
            mv = engine_move(san, legal, rows)
            answer = ask(f"play {mv}")
            assert answer == "ok", f"{san} ({mv}): {answer}"
        return ask("moves")
    finally:
        engine.kill()
        engine.wait()


def test_pgn_downloads_and_replays_legally_in_our_engine(server, page, shots):
    """The PGN's headers, read by python-chess, name the variant and the
    result; its moves, each with its clock, replay legally in our engine
    and end the game; the game file of a replayed position is that
    position."""
    game = played()
    positions = server.api(f"/api/chess/games/{game['id']}/replay")["positions"]
    open_replay(server, page, game["id"], ply=6)
    wait_ply(page, 6)
    with page.expect_download() as info:
        page.click("#btn-pgn")
    pgn = Path(info.value.path()).read_text()
    headers = chess.pgn.read_headers(io.StringIO(pgn))
    assert headers is not None, pgn[:300]
    assert headers.get("Variant", "").lower().startswith("antichess"), dict(headers)
    assert headers["Result"] == game["result"]["score"], dict(headers)
    assert headers["White"] and headers["Black"], dict(headers)
    movetext = pgn.split("\n\n", 1)[1]
    clocks = re.findall(r"\[%clk \d+:\d\d:\d\d(?:\.\d+)?\]", movetext)
    bare = re.sub(r"\{[^}]*\}", " ", movetext)
    sans = [t for t in bare.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", t)]
    assert len(sans) == len(game["history"]), (len(sans), len(game["history"]))
    assert len(clocks) == len(sans), (len(clocks), len(sans))
    after = replay_in_our_engine(server.binary, game["rules"], sans)
    if game["result"]["reason"] not in ("time", "resigned", "adjudicated", "fault"):
        assert after == "moves", f"the game goes on in our engine: {after}"
    with page.expect_download() as info:
        page.click("#btn-save")
    lines = Path(info.value.path()).read_text().split()
    assert lines[0] == positions[6]["to_move"], lines
    assert lines[3:11] == positions[6]["board"], lines


def test_pgn_of_a_game_being_played(server, page, shots):
    """lichess's export of a game in progress: the PGN button of a chess
    game being played downloads the moves so far, which python-chess reads
    without an error to the position on the board, with the result `*`."""
    game = server.api("/api/chess/games", {"rules": "chess", "white": "human", "black": "human"})
    for mv in ["e2-e4", "c7-c5", "g1-f3", "d7-d6"]:
        game = server.api(f"/api/chess/games/{game['id']}/move", {"move": mv})
    page.goto(f"{server.base}/chess?game={game['id']}")
    expect(page.locator("#last-move")).to_have_text("black moved d7-d6")
    with page.expect_download() as info:
        page.click("#btn-pgn")
    pgn = Path(info.value.path()).read_text()
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None and not read.errors, (pgn, read and read.errors)
    assert read.headers["Result"] == "*", dict(read.headers)
    assert [m.uci() for m in read.mainline_moves()] == ["e2e4", "c7c5", "g1f3", "d7d6"], pgn
    board = read.end().board()
    assert board.board_fen() == "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R", board.fen()
    assert pgn.rstrip().endswith("*"), pgn[-80:]


def test_analysis_of_a_replayed_position(server, page, shots):
    """The engine's evaluation and best line for the position shown, and
    again after a step of the replay."""
    game = played()
    open_replay(server, page, game["id"], ply=8)
    wait_ply(page, 8)
    page.click("#btn-analyse")
    expect(page.locator("#analysis")).to_be_visible()
    wait_for("the analysis", lambda: page.evaluate("document.body.dataset.analysed || ''").endswith(":8"))
    expect(page.locator("#eval")).to_have_text(re.compile(r"^([+−]?\d+\.\d\d|−?#\d+)$"))
    expect(page.locator("#pv")).to_contain_text("Best: 5.")
    page.screenshot(path=shots / "chess-analysis.png")

    def analysed(p):
        wait_ply(p, 8)
        p.click("#btn-analyse")
        wait_for("the analysis", lambda: p.evaluate("document.body.dataset.analysed || ''").endswith(":8"))

    small_shot(page, "analysis", analysed)
    page.keyboard.press("ArrowRight")
    wait_for("the next analysis", lambda: page.evaluate("document.body.dataset.analysed || ''").endswith(":9"))
    expect(page.locator("#pv")).to_contain_text("Best: 5…")


def test_level_menus_give_measured_strength(server, page, shots):
    page.goto(server.page_url)
    expect(page.locator("#status")).not_to_have_text("Loading…")
    page.click("#btn-new")
    dialog = page.locator("#dlg-new")
    option = dialog.locator("select[name=level] option[value='8']")
    expect(option).to_contain_text("Elo vs level 0")
    antichess = option.inner_text()
    dialog.locator("select[name=rules]").select_option("chess")
    expect(option).to_contain_text("Elo vs level 0")
    assert option.inner_text() != antichess, antichess
    page.screenshot(path=shots / "chess-levels.png")
    dialog.locator("button[value=cancel]").click()


def test_illegal_move_is_refused_with_its_reason(server, page, shots):
    page.goto(server.page_url)
    new_game(page, side="both")
    type_move(page, "e2-e4")
    expect(page.locator("#last-move")).to_have_text("white moved e2-e4")
    click_move(page, "d7", "d5")
    expect(page.locator("#last-move")).to_have_text("black moved d7-d5")
    # The board offers only the capture; typing another move says why.
    square(page, "a2").click()
    expect(square(page, "a3")).not_to_have_class(re.compile(r"\btarget\b"))
    type_move(page, "a2-a3")
    expect(page.locator("#message")).to_have_text("a capture is compulsory: e4-d5")
    type_move(page, "e4-e9")
    expect(page.locator("#message")).to_contain_text("is not a move")
    square(page, "e4").click()
    expect(square(page, "d5")).to_have_class(re.compile(r"\btarget-capture\b"))
    page.screenshot(path=shots / "chess-illegal-move.png")
    square(page, "d5").click()
    expect(page.locator("#last-move")).to_have_text("white moved e4-d5")
    expect(page.locator("#message")).to_have_text("")


def test_save_and_load(server, page, shots):
    page.goto(server.page_url)
    new_game(page, side="both")
    for mv in ["e2-e4", "b7-b5", "f1-b5"]:
        type_move(page, mv)
        expect(page.locator("#history .mv.latest")).to_have_text(mv)
    with page.expect_download() as info:
        page.click("#btn-save")
    saved = Path(info.value.path()).read_text()
    lines = saved.splitlines()
    assert lines[0] == "black" and len(lines) == 11, saved
    assert lines[6] == "-B------", saved
    board_before = state(server, page)["board"]
    # Play goes on after saving.
    type_move(page, "c8-a6")
    expect(page.locator("#last-move")).to_have_text("black moved c8-a6")
    # A damaged file is refused with its line; the game is kept.
    broken = saved.replace("-B------", "-B--Z---")
    load_file(page, "broken.txt", broken)
    expect(page.locator("#load-message")).to_contain_text("line 7")
    expect(page.locator("#load-message")).to_contain_text("unchanged")
    page.screenshot(path=shots / "chess-load-refused.png")
    assert state(server, page)["history"][-1] == "c8-a6"
    page.locator("#dlg-load button[value=cancel]").click()
    # The saved file loads back, the person playing black.
    load_file(page, "saved.txt", saved, side="black")
    expect(page.locator("#message")).to_have_text("Loaded saved.txt.")
    s = state(server, page)
    assert s["board"] == board_before, s["board"]
    assert s["to_move"] == "black" and s["players"]["black"]["player"] == "human"
    page.screenshot(path=shots / "chess-loaded.png")


def test_set_a_clock(server, page, shots):
    page.goto(server.page_url)
    new_game(page, side="both", minutes="5")
    page.click("#btn-clock")
    dialog = page.locator("#dlg-clock")
    dialog.locator("input[name=side][value=black]").check()
    dialog.locator("input[name=time]").fill("1:23")
    page.click("#clock-set")
    expect(page.locator("#message")).to_contain_text("black's clock set to 1:23")
    assert state(server, page)["players"]["black"]["clock_ms"] == 83000
    expect(page.locator("#player-top .clock")).to_have_text("1:23")
    # White's clock runs; the page counts it down between answers.
    first = page.locator("#player-bottom .clock").inner_text()
    wait_for("white's clock to tick", lambda: page.locator("#player-bottom .clock").inner_text() != first, 5)
    page.screenshot(path=shots / "chess-clock-set.png")


def test_new_game_as_black(server, page, shots):
    page.goto(server.page_url)
    new_game(page, side="black", level="3")
    expect(page.locator("#last-move")).to_contain_text("white moved", timeout=PATIENCE_S * 1000)
    # Black at the bottom: the board is turned, h1 top left.
    first = page.locator("#board .sq").first
    assert first.get_attribute("data-square") == "h1"
    s = state(server, page)
    assert s["players"]["black"]["player"] == "human" and s["to_move"] == "black"
    last = s["last_move"]
    expect(square(page, last["to"])).to_have_class(re.compile(r"\blast\b"))
    page.screenshot(path=shots / "chess-as-black.png")


def test_a_refused_seed_keeps_the_dialog_and_says_why(server, page, shots):
    page.goto(server.page_url)
    expect(page.locator("#status")).not_to_have_text("Loading…")
    before = address(page)
    page.click("#btn-new")
    dialog = page.locator("#dlg-new")
    dialog.locator("input[name=seed]").fill("-1")
    page.click("#new-start")
    expect(page.locator("#new-message")).to_contain_text("seed")
    expect(dialog).to_be_visible()
    page.screenshot(path=shots / "chess-refused-seed.png")
    assert address(page) == before
    dialog.locator("input[name=seed]").fill("")
    dialog.locator("button[value=cancel]").click()
    expect(dialog).to_be_hidden()


def test_chess_promotion_choice(server, page, shots):
    page.goto(server.page_url)
    new_game(page, side="both", rules="chess")
    position = "white 300000 300000\n----k---\n-P------\n--------\n--------\n--------\n-p------\n--------\nR---K--R\n"
    load_file(page, "promotion.txt", position)
    expect(page.locator("#board .piece")).to_have_count(6)
    click_move(page, "b7", "b8")
    expect(page.locator("#dlg-promotion")).to_be_visible()
    expect(page.locator("#promotion-choices .promo")).to_have_count(4)
    page.screenshot(path=shots / "chess-promotion.png")
    page.click("#promotion-choices .promo[data-promotion=n]")
    expect(page.locator("#last-move")).to_have_text("white moved b7-b8n")
    assert state(server, page)["board"][0] == "-N--k---"
    type_move(page, "e8-f7")
    expect(page.locator("#last-move")).to_have_text("black moved e8-f7")
    drag_move(page, "e1", "g1")
    expect(page.locator("#last-move")).to_have_text("white moved e1-g1")
    assert state(server, page)["board"][7] == "R----RK-"
    page.click("#btn-undo")
    expect(page.locator("#message")).to_have_text("Took back 1 move.")
    assert state(server, page)["board"][7] == "R---K--R"


TESTS = [
    test_play_a_game_by_mouse_and_keyboard,
    test_restart_and_find_the_game_in_the_list,
    test_replay_with_the_arrow_keys,
    test_pgn_downloads_and_replays_legally_in_our_engine,
    test_pgn_of_a_game_being_played,
    test_analysis_of_a_replayed_position,
    test_level_menus_give_measured_strength,
    test_illegal_move_is_refused_with_its_reason,
    test_save_and_load,
    test_set_a_clock,
    test_new_game_as_black,
    test_a_refused_seed_keeps_the_dialog_and_says_why,
    test_chess_promotion_choice,
]


def command_line(description):
    """The options every browser script takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", default="target/release/antichess")
    parser.add_argument("--screenshots", default="target/screenshots")
    parser.add_argument("-k", default="", help="run only the steps whose name contains this")
    return parser


def run_steps(tests, label, args):
    """Runs each step `test(server, page, shots)` in a fresh browser context
    against one server; a step fails on an exception or an error in the page.
    Prints `LABEL: N passed, M failed`; the exit status."""
    shots = Path(args.screenshots)
    shots.mkdir(parents=True, exist_ok=True)
    keep = tempfile.TemporaryDirectory(prefix="web-test-")
    server = Server(args.binary, Path(keep.name) / "games.db")
    passed = failed = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for test in tests:
                if args.k not in test.__name__:
                    continue
                context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
                page = context.new_page()
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                try:
                    test(server, page, shots)
                    assert not errors, f"errors in the page: {errors}"
                    passed += 1
                    print(f"ok {test.__name__}")
                except Exception:
                    failed += 1
                    print(f"FAILED {test.__name__}")
                    traceback.print_exc()
                    page.screenshot(path=shots / f"failed-{test.__name__}.png")
                finally:
                    context.close()
            browser.close()
    finally:
        server.stop()
        keep.cleanup()
    print(f"{label}: {passed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    parser = command_line(__doc__.splitlines()[0])
    parser.add_argument("--docs", help="also write the small screenshots of docs/web-pages.md into this folder")
    args = parser.parse_args()
    global DOCS
    DOCS = Path(args.docs) if args.docs else None
    return run_steps(TESTS, "web", args)

if __name__ == "__main__":
    sys.exit(main())
