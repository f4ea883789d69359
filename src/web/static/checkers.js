// The checkers page: draws the game the server holds (?game=ID), sends
// the person's moves and special moves, and follows the game by long
// polling so the machine's moves and answers appear as they come. A move
// is chosen by clicking its squares one after another; the page only
// matches the clicks against the server's list of legal moves and their
// routes, and never works out a rule itself. A finished game replays move
// by move from the server's positions (buttons and the arrow keys).

import { request, strengthText, keepInAddress, followGame, postAction, gameInAddress } from './api.js';
import { STRENGTH } from './levels.js';
import { loadReplayAtEnd, paintReplayBar, shownPosition, standing, wireReplay } from './replay.js';

const $ = (id) => document.getElementById(id);
const API = '/api/checkers/games';
const LEVELS = [
  [0, '0 — strongest (about a second a move)'],
  [1, '1 — looks 1 ply ahead'],
  [2, '2 — looks 2 plies ahead'],
  [3, '3 — looks 3 plies ahead'],
  [4, '4 — looks 4 plies ahead'],
  [6, '6 — looks 6 plies ahead'],
  [8, '8 — looks 8 plies ahead'],
  [12, '12 — looks 12 plies ahead'],
];

let state = null;
let follower = null;
let flipped = false;
let flippedByHand = false;
let route = [];            // the squares clicked so far for the move being chosen
let lastAnnounced = null;
const cells = new Map();   // square number -> element
let replay = null;         // a finished game's positions: {id, version, positions}
let shown = null;          // the index of the replay position shown

// The replay position shown, when it is not the game's last.
const viewing = () => shownPosition(replay, shown);

// A disc drawn as SVG: a man, or a king with a crown on it.
function discSvg(piece) {
  const black = piece.toLowerCase() === 'b';
  const king = piece === piece.toUpperCase();
  const [face, rim, line, ring] = black
    ? ['#34302c', '#1a1816', '#0b0a09', '#5a534c']
    : ['#f4efe4', '#cfc6b4', '#5b5348', '#ffffff'];
  const crown = king
    ? `<path d="M30 62 26 38l12 10 12-16 12 16 12-10-4 24z" fill="#e7b93b" stroke="#7a5a10" stroke-width="2.5" stroke-linejoin="round"/>
       <rect x="30" y="61" width="40" height="6" rx="2" fill="#e7b93b" stroke="#7a5a10" stroke-width="2.5"/>`
    : '';
  return `<svg viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg">
    <circle cx="50" cy="54" r="44" fill="${rim}" stroke="${line}" stroke-width="3"/>
    <circle cx="50" cy="48" r="44" fill="${face}" stroke="${line}" stroke-width="3"/>
    <circle cx="50" cy="48" r="33" fill="none" stroke="${ring}" stroke-opacity=".45" stroke-width="3"/>
    <circle cx="50" cy="48" r="24" fill="none" stroke="${ring}" stroke-opacity=".25" stroke-width="2"/>
    ${crown}</svg>`;
}

function setMessage(text, kind = 'error') {
  const el = $('message');
  el.textContent = text || '';
  el.className = 'message' + (text ? ' ' + kind : '');
}

function humanSides(s) {
  return ['black', 'white'].filter((c) => s.players[c].player === 'human');
}

function humanToAct(s) {
  return s && s.status === 'playing' && s.players[s.to_act].player === 'human';
}

// Legal moves the person may choose now: none while a draw awaits an answer.
function choosable() {
  return humanToAct(state) && !state.draw_offered ? state.moves : [];
}

function startsWith(path, prefix) {
  return prefix.every((sq, i) => path[i] === sq);
}

// -- the board --------------------------------------------------------------

function buildBoard() {
  const el = $('board');
  el.classList.add('board');
  el.innerHTML = '';
  const grid = document.createElement('div');
  grid.className = 'board-grid';
  grid.style.gridTemplateColumns = 'repeat(8, 1fr)';
  const at = new Map();
  for (const sq of state.squares) {
    const row = flipped ? 7 - sq.row : sq.row;
    const col = flipped ? 7 - sq.col : sq.col;
    at.set(row * 8 + col, sq.square);
  }
  cells.clear();
  for (let i = 0; i < 64; i++) {
    const cell = document.createElement('div');
    const number = at.get(i);
    if (number === undefined) {
      cell.className = 'sq light';
    } else {
      cell.className = 'sq dark playable';
      cell.dataset.square = number;
      cell.innerHTML = `<span class="num">${number}</span>`;
      cells.set(number, cell);
    }
    grid.appendChild(cell);
  }
  grid.addEventListener('click', (e) => {
    const cell = e.target.closest('.sq.playable');
    if (cell) clickSquare(parseInt(cell.dataset.square, 10));
  });
  el.appendChild(grid);
  el.dataset.orientation = flipped ? 'black' : 'white';
}

function paintBoard() {
  const view = viewing();
  const moves = view ? [] : choosable();
  const alive = moves.filter((m) => startsWith(m.path, route));
  const next = new Set(route.length ? alive.map((m) => m.path[route.length]).filter((n) => n) : []);
  const starts = new Set(moves.map((m) => m.path[0]));
  const last = view ? view.last_move : state.last_move;
  const lastPath = new Set(last ? last.path : []);
  const taken = new Set(last ? last.captures : []);
  // The pieces the routes still open from the clicked squares would take.
  const victims = new Set(route.length ? alive.flatMap((m) => m.captures) : []);
  for (const sq of view ? view.board : state.squares) {
    const cell = cells.get(sq.square);
    let disc = cell.querySelector('.disc');
    if (sq.piece) {
      if (!disc) {
        disc = document.createElement('div');
        disc.className = 'disc';
        cell.appendChild(disc);
      }
      if (disc.dataset.piece !== sq.piece) {
        disc.dataset.piece = sq.piece;
        disc.innerHTML = discSvg(sq.piece);
      }
    } else if (disc) {
      disc.remove();
    }
    cell.classList.toggle('path', lastPath.has(sq.square));
    cell.classList.toggle('taken', taken.has(sq.square) && !sq.piece);
    cell.classList.toggle('victim', victims.has(sq.square));
    cell.classList.toggle('route', route.includes(sq.square));
    cell.classList.toggle('next', next.has(sq.square));
    cell.classList.toggle('can-move', !route.length && starts.has(sq.square));
  }
}

function clickSquare(n) {
  const moves = choosable();
  if (!moves.length) return;
  const longer = route.concat([n]);
  const exact = moves.find((m) => m.path.length === longer.length && startsWith(m.path, longer));
  if (route.length && exact) {
    route = [];
    paintBoard();
    sendMove(exact.move);
    return;
  }
  if (route.length && moves.some((m) => startsWith(m.path, longer))) {
    route = longer;
  } else if (route.length) {
    // A click on the end of the only route from here finishes it.
    const ends = moves.filter((m) => startsWith(m.path, route) && m.path[m.path.length - 1] === n);
    if (ends.length === 1) {
      route = [];
      paintBoard();
      sendMove(ends[0].move);
      return;
    }
    route = moves.some((m) => m.path[0] === n) && n !== route[0] ? [n] : [];
  } else if (moves.some((m) => m.path[0] === n)) {
    route = [n];
  } else {
    const forced = state.must_capture ? ' A jump is compulsory.' : '';
    setMessage(`No move starts on ${n}.${forced}`, 'info');
  }
  paintBoard();
}

// -- the panel --------------------------------------------------------------

function renderPlayer(el, color) {
  const p = state.players[color];
  el.dataset.color = color;
  el.querySelector('.name').textContent = p.name;
  const strength = p.level === 0 ? 'strongest' : `level ${p.level}`;
  el.querySelector('.seat').textContent = p.player === 'human' ? color : `${color} · ${strength}`;
  el.title = p.player === 'human' ? ''
    : p.level === 0 ? 'the strongest machine, on its time budget' : `the machine looks ${p.level} plies ahead`;
  el.classList.toggle('to-move', state.to_act === color);
  el.classList.toggle('thinking', state.to_act === color && state.thinking);
  const man = color === 'black' ? 'b' : 'w';
  // A replayed position's pieces are counted from its board.
  const view = viewing();
  const count = (c) => view.board.filter((sq) => sq.piece === c).length;
  const men = view ? count(man) : p.men;
  const kings = view ? count(man.toUpperCase()) : p.kings;
  el.querySelector('.count').innerHTML =
    `<span title="men">${discSvg(man)}${men}</span><span title="kings">${discSvg(man.toUpperCase())}${kings}</span>`;
}

function statusText(s) {
  if (s.status === 'over') return `Game over — ${s.result.text} (${s.result.score})`;
  const side = s.to_act[0].toUpperCase() + s.to_act.slice(1);
  const actor = s.players[s.to_act];
  if (s.draw_offered) {
    const offerer = s.to_act === 'black' ? 'White' : 'Black';
    return actor.player === 'human'
      ? `${offerer} offers a draw — accept or reject?`
      : `${offerer} offered a draw — ${side} is considering…`;
  }
  if (actor.player !== 'human') return `${side} to move — the machine is thinking…`;
  const you = humanSides(s).length === 1 ? ' — your move' : '';
  const jump = s.must_capture ? ' (a jump is compulsory)' : '';
  return `${side} to move${you}${jump}`;
}

function renderTranscript(s) {
  const ol = $('transcript');
  ol.innerHTML = '';
  const lines = s.transcript.split('\n').filter((l) => l.length);
  if (!lines.length) {
    ol.innerHTML = '<li class="empty">The transcript starts with Black\'s first move.</li>';
    return;
  }
  lines.forEach((line, i) => {
    const li = document.createElement('li');
    li.textContent = line;
    const isScore = s.status === 'over' && i === lines.length - 1 && !/^\d+\./.test(line);
    if (isScore) li.className = 'score';
    else if (i === lines.length - 1 || (s.status === 'over' && i === lines.length - 2)) li.className = 'latest';
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
}

function render(s) {
  if (state && s.id === state.id && s.version < state.version) return;
  const fresh = !state || state.id !== s.id;
  state = s;
  if (fresh) {
    route = [];
    if (!flippedByHand) {
      const humans = humanSides(s);
      flipped = humans.length === 1 && humans[0] === 'black';
    }
  }
  if (s.status === 'playing') {
    replay = null;
    shown = null;
  } else if (!replay || replay.id !== s.id || replay.version !== s.version) {
    fetchReplay(s);
  }
  const view = viewing();
  if (fresh || !cells.size) buildBoard();
  if (!choosable().length) route = [];
  paintBoard();
  const bottom = flipped ? 'black' : 'white';
  const top = bottom === 'white' ? 'black' : 'white';
  renderPlayer($('player-top'), top);
  renderPlayer($('player-bottom'), bottom);
  $('status').textContent = view ? replayText(view) : statusText(s);
  $('status').className = 'status' + (s.status !== 'playing' && !view ? ' over' : '');
  const offerForMe = s.draw_offered && humanToAct(s);
  $('offer').classList.toggle('shown', offerForMe);
  if (offerForMe) $('offer-text').textContent = `${s.to_act === 'black' ? 'White' : 'Black'} offers a draw.`;
  const last = s.last_action;
  if (view) {
    $('last-move').textContent = view.last_move ? view.last_move.text : 'The start of the game.';
  } else {
    $('last-move').textContent = last ? last.text : 'No move yet: Black moves first.';
  }
  $('last-move').classList.toggle('machine', !view && !!last && s.players[last.side].player !== 'human');
  if (!view && last && lastAnnounced !== `${s.id}:${s.version}:${last.text}`) {
    lastAnnounced = `${s.id}:${s.version}:${last.text}`;
    $('last-move').classList.remove('flash');
    void $('last-move').offsetWidth;
    $('last-move').classList.add('flash');
  }
  renderTranscript(s);
  const mine = humanToAct(s);
  $('btn-draw').disabled = !mine || !s.may_offer_draw;
  $('btn-resign').disabled = !mine || s.draw_offered;
  $('move-input').disabled = !mine;
  $('type-move').hidden = !!replay;
  $('btn-transcript').href = `${API}/${s.id}/transcript`;
  $('seed-line').textContent = `Game ${s.id} · seed ${s.seed}`;
  paintReplayBar(replayWhere());
  document.body.dataset.game = s.id;
  document.body.dataset.ply = String(replay ? (shown ?? replay.positions.length - 1) : -1);
}

// -- replays ------------------------------------------------------------------

function replayText(view) {
  const total = replay.positions.length - 1;
  const side = view.to_move ? ` · ${view.to_move[0].toUpperCase()}${view.to_move.slice(1)} to move` : '';
  return `Replay — move ${shown} of ${total}${side}`;
}

function fetchReplay(s) {
  const keep = (got, last) => { replay = got; if (got) shown = last; };
  loadReplayAtEnd(API, { id: s.id, version: s.version }, () => state, keep, () => render(state));
}

const replayWhere = () => standing(replay, shown);


function show(s) {
  render(s);
  if (follower) follower.saw(s.version);
}

function openGame(s) {
  keepInAddress(s.id);
  flippedByHand = false;
  state = null;
  show(s);
  if (follower) follower.stop();
  follower = followGame(API, s, render, setMessage);
}

// The state after the action, or null when it is refused (and said).
async function act(path, body = {}) {
  return postAction(`${API}/${state.id}/${path}`, body, show, setMessage).catch(() => null);
}

async function sendMove(text) {
  setMessage('');
  if (await act('move', { move: text })) $('move-input').value = '';
}

// -- new games ----------------------------------------------------------------

function seatsFor(side, level) {
  const machine = `level:${level}`;
  switch (side) {
    case 'black': return { black: 'human', white: machine };
    case 'white': return { black: machine, white: 'human' };
    case 'both': return { black: 'human', white: 'human' };
    default: return { black: machine, white: machine };
  }
}

async function newGame(options) {
  const s = await request('POST', API, options);
  openGame(s);
}

function wire() {
  $('levels').innerHTML = LEVELS.map(([n, label]) => {
    const strength = strengthText(STRENGTH.checkers, n);
    return `<option value="${n}">${label}${strength ? ' · ' + strength : ''}</option>`;
  }).join('');
  $('btn-new').addEventListener('click', () => {
    const form = $('form-new');
    const machine = state && ['black', 'white'].map((c) => state.players[c]).find((p) => p.level !== null);
    if (machine) form.level.value = String(machine.level);
    $('new-message').textContent = '';
    $('dlg-new').showModal();
  });
  $('new-start').addEventListener('click', async (e) => {
    e.preventDefault();
    const form = $('form-new');
    const options = seatsFor(form.side.value, form.level.value);
    if (form.seed.value !== '') options.seed = Number(form.seed.value);
    const file = form.init.files[0];
    if (file) options.init = await file.text();
    try {
      await newGame(options);
      $('dlg-new').close();
      setMessage('');
    } catch (err) {
      $('new-message').textContent = err.message;
    }
  });
  $('type-move').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (text) sendMove(text);
  });
  $('btn-draw').addEventListener('click', () => { setMessage(''); act('draw'); });
  $('btn-accept').addEventListener('click', () => { setMessage(''); act('accept'); });
  $('btn-reject').addEventListener('click', () => { setMessage(''); act('reject'); });
  $('btn-resign').addEventListener('click', () => { setMessage(''); act('resign'); });
  $('btn-flip').addEventListener('click', () => {
    flipped = !flipped;
    flippedByHand = true;
    buildBoard();
    render(state);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && route.length) { route = []; paintBoard(); }
  });
}

async function start() {
  wire();
  wireReplay(replayWhere, (index) => {
    shown = index;
    route = [];
    render(state);
  });
  const saved = await gameInAddress(API, setMessage);
  if (saved) {
    openGame(saved);
    return;
  }
  try {
    await newGame({ black: 'human', white: 'level:0' });
  } catch (e) {
    setMessage(e.message);
  }
}

start();
