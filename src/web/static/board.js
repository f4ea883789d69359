// A square board drawn from what the server says: pieces, the last move,
// a king in check, and the legal moves of the side a person plays. A
// person moves by click-click or by dragging; the board only ever offers
// moves from the server's list, and hands the chosen one to `onMove`.
//
// Usable by any game on a square board: the caller gives the size, the
// file letters and a function that draws a piece from its letter.

export class Board {
  // el: the element to fill; options: { files: 'abcdefgh', ranks: 8,
  // drawPiece(letter) -> svg markup, onMove(move) }.
  constructor(el, options) {
    this.el = el;
    this.files = options.files || 'abcdefgh';
    this.ranks = options.ranks || 8;
    this.drawPiece = options.drawPiece;
    this.onMove = options.onMove || (() => {});
    this.flipped = false;
    this.rows = [];
    this.moves = [];
    this.selected = null;
    this.last = null;
    this.check = null;
    this.drag = null;
    this.squares = new Map();
    this.build();
  }

  build() {
    this.el.classList.add('board');
    this.el.innerHTML = '';
    this.grid = document.createElement('div');
    this.grid.className = 'board-grid';
    this.grid.style.gridTemplateColumns = `repeat(${this.files.length}, 1fr)`;
    this.el.appendChild(this.grid);
    this.grid.addEventListener('pointerdown', (e) => this.pointerDown(e));
    window.addEventListener('pointermove', (e) => this.pointerMove(e));
    window.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.layout();
  }

  // Square names in screen order, top-left first.
  order() {
    const names = [];
    for (let row = 0; row < this.ranks; row++) {
      for (let col = 0; col < this.files.length; col++) {
        const file = this.flipped ? this.files.length - 1 - col : col;
        const rank = this.flipped ? row + 1 : this.ranks - row;
        names.push(this.files[file] + rank);
      }
    }
    return names;
  }

  layout() {
    this.grid.innerHTML = '';
    this.squares.clear();
    const names = this.order();
    names.forEach((name, i) => {
      const col = i % this.files.length;
      const row = Math.floor(i / this.files.length);
      const sq = document.createElement('div');
      const file = this.files.indexOf(name[0]);
      const rank = parseInt(name.slice(1), 10);
      sq.className = 'sq ' + ((file + rank) % 2 === 0 ? 'light' : 'dark');
      sq.dataset.square = name;
      if (col === 0) sq.insertAdjacentHTML('beforeend', `<span class="coord rank">${rank}</span>`);
      if (row === this.ranks - 1) sq.insertAdjacentHTML('beforeend', `<span class="coord file">${name[0]}</span>`);
      this.grid.appendChild(sq);
      this.squares.set(name, sq);
    });
    this.paint();
  }

  flip(flipped = !this.flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.layout();
  }

  // rows: strings from the top rank down, '-' for an empty square.
  // moves: [{from, to, ...}] the person may play now (empty otherwise).
  set({ rows, moves, last, check }) {
    this.rows = rows;
    this.moves = moves || [];
    this.last = last || null;
    this.check = check || null;
    if (this.selected && !this.moves.some((m) => m.from === this.selected)) this.selected = null;
    this.paint();
  }

  pieceAt(name) {
    const file = this.files.indexOf(name[0]);
    const rank = parseInt(name.slice(1), 10);
    const row = this.rows[this.ranks - rank];
    const c = row ? row[file] : '-';
    return c && c !== '-' ? c : null;
  }

  paint() {
    const targets = new Map();
    if (this.selected) {
      for (const m of this.moves) if (m.from === this.selected) targets.set(m.to, true);
    }
    for (const [name, sq] of this.squares) {
      const piece = this.pieceAt(name);
      let holder = sq.querySelector('.piece');
      if (piece) {
        if (!holder) {
          holder = document.createElement('div');
          holder.className = 'piece';
          sq.appendChild(holder);
        }
        if (holder.dataset.letter !== piece) {
          holder.dataset.letter = piece;
          holder.innerHTML = this.drawPiece(piece);
        }
        holder.classList.toggle('movable', this.moves.some((m) => m.from === name));
        holder.classList.toggle('dragging', !!(this.drag && this.drag.active && this.drag.from === name));
      } else if (holder) {
        holder.remove();
      }
      sq.classList.toggle('last', !!(this.last && (this.last.from === name || this.last.to === name)));
      sq.classList.toggle('selected', this.selected === name);
      sq.classList.toggle('check', this.check === name);
      sq.classList.toggle('target', targets.has(name) && !piece);
      sq.classList.toggle('target-capture', targets.has(name) && !!piece);
    }
  }

  squareFromPoint(x, y) {
    const el = document.elementFromPoint(x, y);
    const sq = el && el.closest ? el.closest('.sq') : null;
    return sq && this.grid.contains(sq) ? sq.dataset.square : null;
  }

  choose(from, to) {
    const options = this.moves.filter((m) => m.from === from && m.to === to);
    this.selected = null;
    this.paint();
    if (options.length) this.onMove(options);
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    const name = this.squareFromPoint(e.clientX, e.clientY);
    if (!name) return;
    e.preventDefault();
    if (this.selected && this.selected !== name &&
        this.moves.some((m) => m.from === this.selected && m.to === name)) {
      this.choose(this.selected, name);
      return;
    }
    if (this.moves.some((m) => m.from === name)) {
      const wasSelected = this.selected === name;
      this.selected = name;
      this.drag = { from: name, x: e.clientX, y: e.clientY, active: false, wasSelected, ghost: null };
    } else {
      this.selected = null;
    }
    this.paint();
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.active && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 4) {
      d.active = true;
      const sq = this.squares.get(d.from);
      const size = sq.getBoundingClientRect().width;
      d.ghost = document.createElement('div');
      d.ghost.className = 'piece ghost';
      d.ghost.style.width = d.ghost.style.height = size + 'px';
      d.ghost.innerHTML = this.drawPiece(this.pieceAt(d.from));
      document.body.appendChild(d.ghost);
      this.paint();
    }
    if (d.active) {
      const size = d.ghost.getBoundingClientRect().width;
      d.ghost.style.left = e.clientX - size / 2 + 'px';
      d.ghost.style.top = e.clientY - size / 2 + 'px';
      for (const [name, sq] of this.squares) sq.classList.remove('hover');
      const over = this.squareFromPoint(e.clientX, e.clientY);
      if (over && this.moves.some((m) => m.from === d.from && m.to === over)) {
        this.squares.get(over).classList.add('hover');
      }
    }
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    for (const sq of this.squares.values()) sq.classList.remove('hover');
    if (d.ghost) {
      d.ghost.style.display = 'none';
    }
    const over = this.squareFromPoint(e.clientX, e.clientY);
    if (d.ghost) d.ghost.remove();
    if (d.active && over && over !== d.from &&
        this.moves.some((m) => m.from === d.from && m.to === over)) {
      this.choose(d.from, over);
      return;
    }
    if (!d.active && d.wasSelected && over === d.from) this.selected = null;
    this.paint();
  }
}
