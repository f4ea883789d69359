// The chess pieces, drawn for this board as SVG on a 100 x 100 grid:
// simple solid shapes with a dark outline, white pieces light and black
// pieces dark, details drawn in the opposite tone so both read clearly
// at any size.

const BASE = '<path d="M25 78h50a3 3 0 0 1 3 3v5a3 3 0 0 1-3 3H25a3 3 0 0 1-3-3v-5a3 3 0 0 1 3-3z"/>';

const SHAPES = {
  p: `<circle cx="50" cy="31" r="12"/>
      <path d="M41 44h18l-2 6c6 6 10 15 12 28H31c2-13 6-22 12-28z"/>${BASE}`,
  r: `<path d="M27 20h10v8h7v-8h12v8h7v-8h10v22H27z"/>
      <path d="M32 42h36l3 36H29z"/>
      <path class="d" d="M33 49h34M31 71h38"/>${BASE}`,
  n: `<path d="M31 78c0-12 6-20 15-26-6 1-12 4-16 8-4 3-9 2-11-2-2-3-1-6 1-9 7-10 13-18 19-24l1-10 7 7c3-2 7-3 11-2 14 4 21 20 20 58z"/>
      <path class="d" d="M57 27c9 6 13 20 12 40"/>
      <circle class="f" cx="42" cy="32" r="3"/>
      <circle class="f" cx="24" cy="50" r="2"/>${BASE}`,
  b: `<circle cx="50" cy="13" r="6"/>
      <path d="M50 19c11 8 17 20 15 33-1 4-3 6-5 8H40c-2-2-4-4-5-8-2-13 4-25 15-33z"/>
      <path d="M36 60h28l1 7H35z"/>
      <path d="M39 67h22l6 11H33z"/>
      <path class="d" d="M55 30 45 46M44 40h12"/>${BASE}`,
  q: `<path d="M29 70 21 36l14 20 1-28 12 24 2-28 2 28 12-24 1 28 14-20-8 34z"/>
      <circle cx="21" cy="34" r="5"/><circle cx="36" cy="26" r="5"/><circle cx="50" cy="21" r="5"/>
      <circle cx="64" cy="26" r="5"/><circle cx="79" cy="34" r="5"/>
      <path d="M29 70h42l2 8H27z"/>${BASE}`,
  k: `<path d="M47 6h6v6h6v6h-6v9h-6v-9h-6v-6h6z"/>
      <path d="M50 30c-5 0-8 6-3 18h6c5-12 2-18-3-18z"/>
      <path d="M29 72c-9-13-7-28 5-30 7-1 12 3 16 10 4-7 9-11 16-10 12 2 14 17 5 30z"/>
      <path class="d" d="M30 64h40"/>
      <path d="M29 72h42l2 6H27z"/>${BASE}`,
};

const TONES = {
  w: { fill: '#fbfaf7', line: '#1f1c18', detail: '#1f1c18' },
  b: { fill: '#2e2b28', line: '#0d0c0b', detail: '#e8e4dc' },
};

// The SVG of a piece given by its letter (upper case white, lower black).
export function pieceSvg(letter) {
  const kind = letter.toLowerCase();
  const shape = SHAPES[kind];
  if (!shape) return '';
  const tone = letter === kind ? TONES.b : TONES.w;
  return `<svg viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg" class="piece-svg">
    <g fill="${tone.fill}" stroke="${tone.line}" stroke-width="3.2" stroke-linejoin="round" stroke-linecap="round">
      ${shape.replace(/class="d"/g, `fill="none" stroke="${tone.detail}" stroke-width="2.6"`)
             .replace(/class="f"/g, `fill="${tone.detail}" stroke="none"`)}
    </g></svg>`;
}

// Names for screen readers and titles.
export const PIECE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
