// The antichess and chess page: draws the game the server holds (its id
// in the URL, ?game=ID), sends the person's moves and commands, and
// follows the game by long polling so the machine's moves appear as they
// are made. The clocks count down between answers from the last times the
// server gave; every rule, legal move and result comes from the server.
// A finished game replays move by move from the server's positions
// (buttons, the arrow keys, a click on a move), and on request the engine
// analyses the position shown.

import { Board } from './board.js';
import { pieceSvg, PIECE_NAMES } from './pieces.js';
import { request, showClock, strengthText, keepInAddress, followGame, postAction, gameInAddress } from './api.js';
import { STRENGTH } from './levels.js';
import { loadReplay, paintReplayBar, shownPosition, standing, wireReplay } from './replay.js';

const $ = (id) => document.getElementById(id);
const API = '/api/chess/games';
const LEVELS = [
  [0, '0 — strongest (searches on its clock)'],
  [1, '1 — random moves'],
  [2, '2 — forcing moves'],
  [3, '3 — careful'],
  [4, '4 — searches 2 plies'],
  [5, '5 — searches 3 plies'],
  [6, '6 — searches 4 plies'],
  [8, '8 — searches 6 plies'],
  [10, '10 — searches 8 plies'],
];

let state = null;        // the last state the server gave
let receivedAt = 0;      // when it came (performance.now())
let follower = null;
let flippedByHand = null;
let lastAnnounced = null;
let replay = null;       // a finished game's positions: {id, version, positions}
let shown = null;        // the index of the replay position shown
let analysing = false;   // whether the analysis is asked for
let analysisKey = null;  // the position whose analysis is on the screen (or coming)

const board = new Board($('board'), {
  drawPiece: pieceSvg,
  onMove: (options) => chooseMove(options),
});

function gameUrl() {
  return `${API}/${state.id}`;
}

function setMessage(text, kind = 'error') {
  const el = $('message');
  el.textContent = text || '';
  el.className = 'message' + (text ? ' ' + kind : '');
}

function humanSides(s) {
  return ['white', 'black'].filter((c) => s.players[c].player === 'human');
}

// The replay position shown, when it is not the game's last.
const viewing = () => shownPosition(replay, shown);

// The number of moves played to reach the position shown.
function shownPly() {
  const pos = viewing();
  return pos ? shown : state.history.length;
}

function clockLeft(color) {
  const pos = viewing();
  if (pos && pos.clock_ms) return pos.clock_ms[color];
  const ms = state.players[color].clock_ms;
  if (state.clock_running !== color) return ms;
  return ms - (performance.now() - receivedAt);
}

function renderPlayer(el, color) {
  const p = state.players[color];
  el.dataset.color = color;
  el.querySelector('.name').textContent = p.name;
  const humans = humanSides(state).length;
  const who = p.player === 'human' ? (humans === 1 ? 'you' : 'person') : `machine, level ${p.level}`;
  el.querySelector('.seat').textContent = `${color} · ${who}`;
  el.classList.toggle('to-move', state.to_move === color);
  el.classList.toggle('thinking', state.to_move === color && state.thinking);
}

function tickClocks() {
  if (!state) return;
  for (const [id, color] of playerBoxes()) {
    const left = clockLeft(color);
    const clock = $(id).querySelector('.clock');
    clock.textContent = showClock(left);
    clock.classList.toggle('running', !viewing() && state.clock_running === color);
    clock.classList.toggle('low', left < 20000);
  }
}

function playerBoxes() {
  const bottom = board.flipped ? 'black' : 'white';
  const top = bottom === 'white' ? 'black' : 'white';
  return [['player-top', top], ['player-bottom', bottom]];
}

function statusText(s) {
  if (s.status === 'over') return `Game over — ${s.result.text}`;
  if (s.status === 'ended') return 'The game was ended. Start a new game or load one.';
  const side = s.to_move[0].toUpperCase() + s.to_move.slice(1);
  const p = s.players[s.to_move];
  if (p.player !== 'human') return `${side} to move — ${p.name} is thinking…`;
  const humans = humanSides(s);
  const you = humans.length === 1 ? ' — your move' : '';
  const inCheck = s.check ? ' (in check)' : '';
  return `${side} to move${inCheck}${you}`;
}

function renderHistory(s) {
  const ol = $('history');
  ol.innerHTML = '';
  ol.classList.toggle('browsable', !!replay);
  const at = replay ? shownPly() : -1;
  let number = s.first_move_number;
  let li = null;
  s.history.forEach((mv, i) => {
    const white = (s.first_mover === 'white') === (i % 2 === 0);
    if (white || !li) {
      li = document.createElement('li');
      li.innerHTML = `<span class="num">${number}.</span>`;
      if (!white) li.insertAdjacentHTML('beforeend', '<span class="mv">…</span>');
      ol.appendChild(li);
    }
    const span = document.createElement('span');
    span.className = 'mv' + (i === s.history.length - 1 ? ' latest' : '') + (i + 1 === at ? ' shown' : '');
    span.dataset.ply = String(i + 1);
    span.textContent = mv;
    li.appendChild(span);
    if (!white) number++;
  });
  const current = ol.querySelector('.mv.shown');
  if (current && viewing()) current.scrollIntoView({ block: 'nearest' });
  else ol.scrollTop = ol.scrollHeight;
}

// The square of the king in check in a replay position: the server names
// it, or says only that the side to move is in check.
function checkSquare(pos) {
  if (typeof pos.check === 'string') return pos.check;
  if (!pos.check || !pos.to_move) return null;
  const king = pos.to_move === 'white' ? 'K' : 'k';
  for (let r = 0; r < 8; r++) {
    const f = pos.board[r].indexOf(king);
    if (f >= 0) return 'abcdefgh'[f] + (8 - r);
  }
  return null;
}

function lastMoveText(pos) {
  const m = pos.last_move;
  if (!m) return 'The start of the game.';
  if (m.text) return m.text;
  return `${m.side || ''} moved ${m.move || `${m.from}-${m.to}`}`.trim();
}

function replayText(pos) {
  const total = replay.positions.length - 1;
  const side = pos.to_move ? ` · ${pos.to_move[0].toUpperCase()}${pos.to_move.slice(1)} to move` : '';
  return `Replay — move ${shown} of ${total}${side}`;
}

function render(s) {
  if (state && s.id === state.id && s.version < state.version) return;
  const fresh = !state || state.id !== s.id;
  state = s;
  receivedAt = performance.now();
  if (fresh || flippedByHand === null) {
    const humans = humanSides(s);
    board.flip(humans.length === 1 && humans[0] === 'black');
  }
  if (s.status === 'playing') {
    replay = null;
    shown = null;
  } else if (!replay || replay.id !== s.id || replay.version !== s.version) {
    fetchReplay(s);
  }
  const humanToMove = s.status === 'playing' && s.players[s.to_move].player === 'human';
  const pos = viewing();
  if (pos) {
    board.set({ rows: pos.board, moves: [], last: pos.last_move, check: checkSquare(pos) });
  } else {
    board.set({ rows: s.board, moves: humanToMove ? s.moves : [], last: s.last_move, check: s.check });
  }
  for (const [id, color] of playerBoxes()) renderPlayer($(id), color);
  $('status').textContent = pos ? replayText(pos) : statusText(s);
  $('status').className = 'status' + (s.status !== 'playing' && !pos ? ' over' : '');
  const last = s.last_move;
  $('last-move').textContent = pos ? lastMoveText(pos) : last ? last.text : 'No move yet.';
  $('last-move').classList.toggle('machine', !pos && !!last && s.players[last.side].player !== 'human');
  if (!pos && last && lastAnnounced !== `${s.id}:${s.history.length}`) {
    lastAnnounced = `${s.id}:${s.history.length}`;
    $('last-move').classList.remove('flash');
    void $('last-move').offsetWidth;
    $('last-move').classList.add('flash');
  }
  renderHistory(s);
  $('rules-badge').textContent = s.rules;
  $('seed-line').textContent = `Game ${s.id} · seed ${s.seed}`;
  $('btn-save').href = `${gameUrl()}/file` + (pos ? `?ply=${shown}` : '');
  $('btn-pgn').href = `${gameUrl()}/pgn`;
  paintReplayBar(replayWhere());
  $('btn-undo').disabled = s.history.length === 0;
  $('btn-resign').disabled = s.status !== 'playing' || humanSides(s).length === 0;
  $('btn-end').disabled = s.status !== 'playing';
  $('move-input').disabled = !humanToMove;
  // A finished game has no moves to type: its replay takes the room.
  $('type-move').hidden = !!replay;
  tickClocks();
  // For scripts and tests: which version of which game is on the screen.
  document.body.dataset.game = s.id;
  document.body.dataset.version = s.version;
  document.body.dataset.ply = String(shownPly());
  if (analysing) analyse();
}

// -- replays ------------------------------------------------------------------

// A server without replays leaves the game as it ended. The address may
// ask for a position (?ply=N), as a link to one does.
function fetchReplay(s) {
  loadReplay(API, { id: s.id, version: s.version }, () => state, (got) => {
    replay = got;
    if (!got) return;
    const url = new URL(location.href);
    const asked = Number(url.searchParams.get('ply'));
    const lastIndex = got.positions.length - 1;
    shown = url.searchParams.has('ply') && Number.isInteger(asked) && asked >= 0 && asked < lastIndex
      ? asked : lastIndex;
    render(state);
  });
}

const replayWhere = () => standing(replay, shown);

// Shows replay position `index`, keeping it in the address.
function showPly(index) {
  shown = index;
  const url = new URL(location.href);
  if (shown < replay.positions.length - 1) url.searchParams.set('ply', String(shown));
  else url.searchParams.delete('ply');
  history.replaceState(null, '', url);
  render(state);
}


// -- analysis -------------------------------------------------------------------

// The move number and dots before the move played at `ply`.
function moveNumber(ply, white) {
  const offset = state.first_mover === 'white' ? 0 : 1;
  const number = state.first_move_number + Math.floor((ply + offset) / 2);
  return white ? `${number}.` : `${number}…`;
}

// The best line in numbered moves, each move kept whole on a line.
function lineHtml(pv, ply, side) {
  let white = side === 'white';
  const safe = (t) => String(t).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return pv.map((mv, i) => {
    const head = white ? `${moveNumber(ply + i, true)} ` : i === 0 ? `${moveNumber(ply + i, false)} ` : '';
    white = !white;
    return `<span class="pv-move">${safe(head + mv)}</span>`;
  }).join(' ');
}

function showAnalysis(a, ply) {
  const side = a.to_move;
  const Side = (c) => c[0].toUpperCase() + c.slice(1);
  const other = side === 'white' ? 'black' : 'white';
  let value;
  let note;
  if (a.over) {
    value = a.over.winner === 'white' ? '1-0' : a.over.winner === 'black' ? '0-1' : '½-½';
    note = a.over.winner ? `${Side(a.over.winner)} has won (${a.over.reason})` : `drawn (${a.over.reason})`;
  } else if (a.score.win_in !== undefined || a.score.lose_in !== undefined) {
    const winner = a.score.win_in !== undefined ? side : other;
    const n = a.score.win_in ?? a.score.lose_in;
    value = `${winner === 'white' ? '' : '−'}#${n}`;
    note = `${Side(winner)} wins in ${n} move${n === 1 ? '' : 's'} by force`;
  } else {
    const white = side === 'white' ? a.score.cp : -a.score.cp;
    value = `${white > 0 ? '+' : white < 0 ? '−' : ''}${(Math.abs(white) / 100).toFixed(2)}`;
    note = Math.abs(white) < 30 ? 'about even' : `${white > 0 ? 'White' : 'Black'} is better`;
  }
  $('eval').textContent = value;
  $('eval-note').textContent = `${note} · depth ${a.depth}, ${Math.round(a.nodes / 1000)}k nodes`;
  $('pv').innerHTML = a.pv.length ? `Best: ${lineHtml(a.pv, ply, side)}` : '';
  document.body.dataset.analysed = analysisKey;
}

async function analyse(tries = 0) {
  if (!analysing || !state) return;
  const ply = shownPly();
  const key = `${state.id}:${state.version}:${ply}`;
  if (key === analysisKey && tries === 0) return;
  analysisKey = key;
  $('eval').textContent = '…';
  $('eval-note').textContent = 'the engine is thinking (a second at most)';
  $('pv').textContent = '';
  try {
    const url = `${gameUrl()}/file` + (viewing() ? `?ply=${shown}` : '');
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the game file cannot be had (${response.status})`);
    const file = await response.text();
    const a = await request('POST', '/api/chess/analysis', { rules: state.rules, file });
    if (analysisKey === key) showAnalysis(a, ply);
  } catch (e) {
    if (analysisKey !== key) return;
    if (e.code === 'busy' && tries < 5) {
      $('eval-note').textContent = 'the engine is busy with another analysis; asking again';
      setTimeout(() => { if (analysisKey === key) analyse(tries + 1); }, 1000);
      return;
    }
    $('eval').textContent = '–';
    $('eval-note').textContent = e.message;
  }
}

function wireAnalysis() {
  $('btn-analyse').addEventListener('click', () => {
    analysing = !analysing;
    $('btn-analyse').setAttribute('aria-pressed', String(analysing));
    $('analysis').hidden = !analysing;
    analysisKey = null;
    if (analysing) analyse();
  });
}

function show(s) {
  render(s);
  if (follower) follower.saw(s.version);
}

function startFollowing(s) {
  if (follower) follower.stop();
  follower = followGame(API, s, render, setMessage);
}

async function openGame(s) {
  keepInAddress(s.id);
  flippedByHand = null;
  show(s);
  startFollowing(s);
}

// The state after the action; a refusal is said and thrown on.
async function act(action, body = {}) {
  return postAction(`${gameUrl()}/${action}`, body, show, setMessage);
}

async function sendMove(text) {
  setMessage('');
  try {
    await act('move', { move: text });
    $('move-input').value = '';
    return true;
  } catch (e) {
    if (e.code === 'promotion_needed') {
      const [from, to] = text.replace(/[^a-h1-8]/gi, '').match(/../g) || [];
      const options = state.moves.filter((m) => m.from === from && m.to === to);
      if (options.length > 1) chooseMove(options);
    }
    return false;
  }
}

function chooseMove(options) {
  if (options.length === 1) {
    sendMove(options[0].move);
    return;
  }
  const color = state.to_move === 'white' ? 'w' : 'b';
  const box = $('promotion-choices');
  box.innerHTML = '';
  for (const m of options) {
    const letter = color === 'w' ? m.promotion.toUpperCase() : m.promotion;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'promo';
    b.title = PIECE_NAMES[m.promotion];
    b.dataset.promotion = m.promotion;
    b.innerHTML = pieceSvg(letter);
    b.addEventListener('click', () => {
      $('dlg-promotion').close();
      sendMove(`${m.from}-${m.to}${m.promotion}`);
    });
    box.appendChild(b);
  }
  $('dlg-promotion').showModal();
}

function seatsFor(side, level) {
  const machine = `level:${level}`;
  switch (side) {
    case 'white': return { white: 'human', black: machine };
    case 'black': return { white: machine, black: 'human' };
    case 'both': return { white: 'human', black: 'human' };
    default: return { white: machine, black: machine };
  }
}

// The menus give each level's strength measured on the rules chosen
// (antichess1994 with the 2002 rules' figures).
function fillLevels(rules = 'antichess') {
  const table = STRENGTH[rules === 'chess' ? 'chess' : 'antichess'];
  for (const select of document.querySelectorAll('select.levels')) {
    const chosen = select.value || '3';
    select.innerHTML = LEVELS.map(([n, label]) => {
      const strength = strengthText(table, n);
      return `<option value="${n}">${label}${strength ? ' · ' + strength : ''}</option>`;
    }).join('');
    select.value = chosen;
  }
}

function currentLevel() {
  if (!state) return 3;
  const machine = ['white', 'black'].map((c) => state.players[c]).find((p) => p.level !== null);
  return machine ? machine.level : 3;
}

async function newGame(options) {
  try {
    const s = await request('POST', API, options);
    await openGame(s);
  } catch (e) {
    setMessage(e.message);
  }
}

// m:ss, h:mm:ss or minutes, to milliseconds; null if unreadable.
function parseTime(text) {
  text = text.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(parseFloat(text) * 60000);
  const parts = text.split(':');
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => /^\d+(\.\d+)?$/.test(p))) return null;
  const nums = parts.map(parseFloat);
  const secs = nums.reduce((total, n) => total * 60 + n, 0);
  return Math.round(secs * 1000);
}

function wireDialogs() {
  $('btn-new').addEventListener('click', () => {
    const form = $('form-new');
    if (state) {
      form.rules.value = state.rules;
      fillLevels(state.rules);
      form.level.value = String(currentLevel());
    }
    $('new-message').textContent = '';
    $('dlg-new').showModal();
  });
  $('form-new').rules.addEventListener('change', (e) => fillLevels(e.target.value));
  $('new-start').addEventListener('click', async (e) => {
    e.preventDefault();
    const form = $('form-new');
    const minutes = parseFloat(form.minutes.value);
    if (!(minutes > 0)) {
      $('new-message').textContent = 'Give the minutes each side has, more than 0.';
      return;
    }
    const options = {
      rules: form.rules.value,
      ...seatsFor(form.side.value, form.level.value),
      time_ms: Math.round(minutes * 60000),
    };
    if (form.seed.value !== '') options.seed = Number(form.seed.value);
    try {
      // Opened only once the server took it: a refused seed keeps the
      // dialog, and its reason, on the screen.
      const s = await request('POST', API, options);
      $('dlg-new').close();
      setMessage('');
      await openGame(s);
    } catch (err) {
      $('new-message').textContent = err.message;
    }
  });

  $('btn-load').addEventListener('click', () => {
    $('load-message').textContent = '';
    if (state) fillLevels(state.rules);
    $('form-load').level.value = String(currentLevel());
    $('dlg-load').showModal();
  });
  $('load-start').addEventListener('click', async (e) => {
    e.preventDefault();
    const form = $('form-load');
    const file = form.file.files[0];
    if (!file) {
      $('load-message').textContent = 'Choose a file first.';
      return;
    }
    const text = await file.text();
    try {
      const s = await request('POST', `${gameUrl()}/load`, {
        file: text, ...seatsFor(form.side.value, form.level.value),
      });
      $('dlg-load').close();
      flippedByHand = null;
      board.flip(form.side.value === 'black');
      show(s);
      setMessage(`Loaded ${file.name}.`, 'info');
    } catch (err) {
      $('load-message').textContent = `${err.message}. The current game is unchanged.`;
    }
  });

  $('btn-clock').addEventListener('click', () => {
    $('clock-message').textContent = '';
    const form = $('form-clock');
    form.time.value = showClock(clockLeft(form.side.value)).replace(/\.\d$/, '');
    $('dlg-clock').showModal();
  });
  $('form-clock').addEventListener('change', (e) => {
    if (e.target.name === 'side') {
      const form = $('form-clock');
      form.time.value = showClock(clockLeft(form.side.value)).replace(/\.\d$/, '');
    }
  });
  $('clock-set').addEventListener('click', async (e) => {
    e.preventDefault();
    const form = $('form-clock');
    const ms = parseTime(form.time.value);
    if (ms === null) {
      $('clock-message').textContent = 'Write the time as m:ss (5:00) or as minutes (2.5).';
      return;
    }
    try {
      await act('time', { side: form.side.value, ms });
      $('dlg-clock').close();
      setMessage(`${form.side.value}'s clock set to ${showClock(ms)}.`, 'info');
    } catch (err) {
      $('clock-message').textContent = err.message;
    }
  });
}

function wireButtons() {
  $('type-move').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (text) sendMove(text);
  });
  $('btn-undo').addEventListener('click', async () => {
    setMessage('');
    const before = state.history.length;
    const s = await act('undo').catch(() => null);
    if (s) setMessage(`Took back ${before - s.history.length} move${before - s.history.length === 1 ? '' : 's'}.`, 'info');
  });
  $('btn-flip').addEventListener('click', () => {
    board.flip();
    flippedByHand = board.flipped;
    render(state);
  });
  $('btn-resign').addEventListener('click', () => { setMessage(''); act('resign').catch(() => {}); });
  $('btn-end').addEventListener('click', () => { setMessage(''); act('end').catch(() => {}); });
}

async function start() {
  fillLevels();
  wireDialogs();
  wireButtons();
  const goTo = wireReplay(replayWhere, showPly);
  $('history').addEventListener('click', (e) => {
    const mv = e.target.closest('.mv[data-ply]');
    if (mv) goTo(Number(mv.dataset.ply));
  });
  wireAnalysis();
  setInterval(tickClocks, 100);
  const saved = await gameInAddress(API, setMessage);
  if (saved) {
    await openGame(saved);
    return;
  }
  await newGame({ rules: 'antichess', white: 'human', black: 'level:3', time_ms: 300000 });
}

start();
