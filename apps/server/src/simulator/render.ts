import sharp from 'sharp';
import { between, gauss, intBetween, mulberry32, weighted, type Rng } from '../lib/random.ts';

/** The kinds the simulator draws, each with the on-device label index of its system class (contracts/classes.ts). */
export const PLANKTON_KINDS = {
  copepod: 1,
  diatom_chain: 2,
  dinoflagellate: 3,
  appendicularian: 4,
  chaetognath: 5,
  medusa: 6,
  detritus: 7,
  bubble: 8,
} as const;
export type PlanktonKind = keyof typeof PLANKTON_KINDS;
export const PLANKTON_KIND_NAMES = Object.keys(PLANKTON_KINDS) as PlanktonKind[];

/** How often each kind passes the camera: copepods and detritus dominate coastal samples, medusae are rare. */
const KIND_WEIGHTS: Record<PlanktonKind, number> = {
  copepod: 30,
  detritus: 25,
  diatom_chain: 12,
  dinoflagellate: 10,
  appendicularian: 7,
  bubble: 7,
  chaetognath: 6,
  medusa: 3,
};

export const pickKind = (rng: Rng): PlanktonKind => weighted(rng, KIND_WEIGHTS);

export interface RenderedRoi {
  png: Buffer;
  width: number;
  height: number;
  /** Particle area: pixels clearly brighter than the background (what the device's segmentation measures). */
  sizePx: number;
  labelIndex: number;
}

/** One organism in its own frame (body axis along x), with the box it occupies. */
interface Drawing {
  svg: string;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** Brightness of the organism for one image: dark-field makes bodies translucent and edges glow. */
interface Tone {
  gain: number;
}

const MIN_SIDE = 64;
const MAX_SIDE = 360;
/** A pixel counts towards the particle area when it is this much brighter than the background. */
const AREA_THRESHOLD = 26;

const n1 = (v: number) => (Math.round(v * 10) / 10).toString();
const pt = (x: number, y: number) => `${n1(x)},${n1(y)}`;
const op = (t: Tone, a: number) => Math.min(1, a * t.gain).toFixed(2);

/** Fill and outline attributes (the group sets both colours to white). */
const paint = (t: Tone, fill: number, stroke: number, width: number) =>
  `fill-opacity="${op(t, fill)}" stroke-opacity="${op(t, stroke)}" stroke-width="${n1(width)}"`;
const line = (t: Tone, opacity: number, width: number) =>
  `fill="none" stroke-opacity="${op(t, opacity)}" stroke-width="${n1(width)}"`;
const dot = (t: Tone, x: number, y: number, r: number, opacity: number) =>
  `<circle cx="${n1(x)}" cy="${n1(y)}" r="${n1(r)}" fill-opacity="${op(t, opacity)}" stroke="none"/>`;

/** A smooth closed outline through points around the origin (quadratic curves between edge midpoints). */
function blobPath(rng: Rng, cx: number, cy: number, r: number, points: number, roughness: number): string {
  const ps: [number, number][] = [];
  for (let i = 0; i < points; i++) {
    const a = ((i + between(rng, -0.3, 0.3)) / points) * 2 * Math.PI;
    const rr = r * (1 - roughness + rng() * roughness * 1.6);
    ps.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
  }
  const mid = (i: number) => {
    const [ax, ay] = ps[i % points] as [number, number];
    const [bx, by] = ps[(i + 1) % points] as [number, number];
    return pt((ax + bx) / 2, (ay + by) / 2);
  };
  let d = `M${mid(0)}`;
  for (let i = 1; i <= points; i++) {
    const [x, y] = ps[i % points] as [number, number];
    d += `Q${pt(x, y)} ${mid(i)}`;
  }
  return `${d}Z`;
}

function copepod(rng: Rng, t: Tone): Drawing {
  const L = between(rng, 80, 190);
  const ry = L * between(rng, 0.1, 0.14);
  const parts: string[] = [];
  // Prosome, urosome and furca with its setae.
  parts.push(`<ellipse cx="${n1(0.12 * L)}" cy="0" rx="${n1(0.27 * L)}" ry="${n1(ry)}" ${paint(t, 0.3, 0.85, 1.6)}/>`);
  parts.push(
    `<path d="M${pt(-0.12 * L, -0.045 * L)}L${pt(-0.42 * L, -0.017 * L)}L${pt(-0.42 * L, 0.017 * L)}L${pt(-0.12 * L, 0.045 * L)}Z" ${paint(t, 0.32, 0.75, 1.3)}/>`,
  );
  const spread = between(rng, 0.03, 0.08);
  for (const s of [-1, 1]) {
    parts.push(
      `<path d="M${pt(-0.42 * L, s * 0.014 * L)}L${pt(-0.5 * L, s * spread * L)}L${pt(-0.62 * L, s * (spread + 0.05) * L)}" ${line(t, 0.6, 1)}/>`,
    );
  }
  // Body segments across the prosome.
  const segments = intBetween(rng, 3, 5);
  for (let i = 1; i <= segments; i++) {
    const x = 0.12 * L + 0.27 * L * (1 - (2 * i) / (segments + 1));
    const half = ry * Math.sqrt(Math.max(0, 1 - ((x - 0.12 * L) / (0.27 * L)) ** 2));
    parts.push(`<path d="M${pt(x, -half)}Q${pt(x - 0.03 * L, 0)} ${pt(x, half)}" ${line(t, 0.35, 1)}/>`);
  }
  // Long first antennae sweeping back, slightly asymmetric.
  for (const s of [-1, 1]) {
    const reach = between(rng, 0.38, 0.5) * L;
    const back = between(rng, -0.15, 0.2) * L;
    parts.push(
      `<path d="M${pt(0.33 * L, s * 0.05 * L)}Q${pt(0.34 * L, s * reach * 0.8)} ${pt(0.2 * L - back, s * reach)}" ${line(t, 0.7, between(rng, 1, 1.8))}/>`,
    );
  }
  const legs = intBetween(rng, 3, 5);
  for (let i = 0; i < legs; i++) {
    const x = 0.22 * L - i * 0.07 * L;
    parts.push(`<path d="M${pt(x, ry * 0.8)}L${pt(x - 0.06 * L, ry + 0.07 * L)}" ${line(t, 0.5, 1)}/>`);
  }
  parts.push(`<ellipse cx="${n1(0.08 * L)}" cy="0" rx="${n1(0.14 * L)}" ry="${n1(ry * 0.3)}" ${paint(t, 0.25, 0, 0)}/>`);
  parts.push(dot(t, 0.35 * L, 0, Math.max(1.5, 0.018 * L), 0.95));
  if (rng() < 0.2) {
    for (const s of [-1, 1])
      parts.push(
        `<ellipse cx="${n1(-0.25 * L)}" cy="${n1(s * 0.09 * L)}" rx="${n1(0.12 * L)}" ry="${n1(0.05 * L)}" ${paint(t, 0.4, 0.6, 1)}/>`,
      );
  }
  return { svg: parts.join(''), minX: -0.64 * L, maxX: 0.42 * L, minY: -0.52 * L, maxY: 0.52 * L };
}

function diatomChain(rng: Rng, t: Tone): Drawing {
  const cells = intBetween(rng, 4, 11);
  const c = between(rng, 14, 26);
  const h = c * between(rng, 0.75, 1.2);
  const gap = between(rng, 1, 3);
  const len = cells * (c + gap);
  const bend = between(rng, -0.18, 0.18) * len;
  const setae = rng() < 0.5 ? c * between(rng, 0.8, 2.2) : 0;
  const parts: string[] = [];
  for (let i = 0; i < cells; i++) {
    const x = -len / 2 + i * (c + gap);
    const u = (x + c / 2) / (len / 2);
    const y = bend * u * u - h / 2;
    parts.push(
      `<rect x="${n1(x)}" y="${n1(y)}" width="${n1(c)}" height="${n1(h)}" rx="${n1(c * 0.25)}" ${paint(t, 0.28, 0.8, 1.3)}/>`,
    );
    const plastids = intBetween(rng, 1, 3);
    for (let p = 0; p < plastids; p++)
      parts.push(dot(t, x + between(rng, 0.25, 0.75) * c, y + between(rng, 0.25, 0.75) * h, c * between(rng, 0.1, 0.2), 0.6));
    if (setae > 0) {
      for (const s of [-1, 1]) {
        const ey = s > 0 ? y + h : y;
        parts.push(`<path d="M${pt(x, ey)}L${pt(x - setae * 0.5, ey + s * setae)}" ${line(t, 0.5, 0.9)}/>`);
      }
    }
  }
  const top = Math.min(0, bend) - h / 2 - setae;
  const bottom = Math.max(0, bend) + h / 2 + setae;
  return { svg: parts.join(''), minX: -len / 2 - setae * 0.5, maxX: len / 2, minY: top, maxY: bottom };
}

function dinoflagellate(rng: Rng, t: Tone): Drawing {
  const parts: string[] = [];
  if (rng() < 0.7) {
    // Round thecate cell with its girdle (cingulum) and a short apical horn.
    const r = between(rng, 30, 56);
    const ry = r * between(rng, 0.85, 1.05);
    parts.push(`<ellipse cx="0" cy="0" rx="${n1(r)}" ry="${n1(ry)}" ${paint(t, 0.3, 0.85, 1.8)}/>`);
    const g = between(rng, -0.15, 0.15) * ry;
    parts.push(`<path d="M${pt(-r, g)}Q${pt(0, g + 0.3 * ry)} ${pt(r, g)}" ${line(t, 0.6, 1.4)}/>`);
    const horn = rng() < 0.5 ? between(rng, 0.2, 0.45) * r : 0;
    if (horn > 0)
      parts.push(
        `<path d="M${pt(-0.2 * r, -ry * 0.95)}L${pt(0, -ry - horn)}L${pt(0.2 * r, -ry * 0.95)}Z" ${paint(t, 0.3, 0.7, 1.2)}/>`,
      );
    for (let i = intBetween(rng, 3, 7); i > 0; i--)
      parts.push(dot(t, between(rng, -0.5, 0.5) * r, between(rng, -0.5, 0.5) * ry, between(rng, 1.5, 4), 0.55));
    return { svg: parts.join(''), minX: -r, maxX: r, minY: -ry - horn, maxY: ry };
  }
  // Ceratium: small body with one long apical horn and two antapical horns.
  const r = between(rng, 24, 34);
  const apical = r * between(rng, 1.8, 3);
  const left = r * between(rng, 1, 1.8);
  const right = r * between(rng, 0.6, 1.4);
  const w = r * 0.22;
  parts.push(`<path d="M${pt(-w, -r * 0.7)}L${pt(0, -r - apical)}L${pt(w, -r * 0.7)}Z" ${paint(t, 0.35, 0.8, 1.3)}/>`);
  parts.push(
    `<path d="M${pt(-r * 0.7, r * 0.2)}L${pt(-r * 0.6, r + left)}L${pt(-r * 0.3, r * 0.5)}Z" ${paint(t, 0.35, 0.8, 1.3)}/>`,
  );
  parts.push(
    `<path d="M${pt(r * 0.7, r * 0.2)}L${pt(r * 0.65, r + right)}L${pt(r * 0.3, r * 0.5)}Z" ${paint(t, 0.35, 0.8, 1.3)}/>`,
  );
  parts.push(`<ellipse cx="0" cy="0" rx="${n1(r)}" ry="${n1(r * 0.9)}" ${paint(t, 0.32, 0.85, 1.6)}/>`);
  parts.push(`<path d="M${pt(-r, 0)}Q${pt(0, 0.3 * r)} ${pt(r, 0)}" ${line(t, 0.6, 1.3)}/>`);
  return { svg: parts.join(''), minX: -r, maxX: r, minY: -r - apical, maxY: r + Math.max(left, right) };
}

function appendicularian(rng: Rng, t: Tone): Drawing {
  const L = between(rng, 170, 300);
  const parts: string[] = [];
  const amp = between(rng, 0.03, 0.12) * L;
  const wave = between(rng, 0.35, 0.7) * L;
  const phase = between(rng, 0, 2 * Math.PI);
  let d = '';
  for (let i = 0; i <= 16; i++) {
    const x = 0.28 * L - (i / 16) * 0.78 * L;
    const y = amp * (i / 16) * Math.sin((2 * Math.PI * (0.28 * L - x)) / wave + phase);
    d += `${i === 0 ? 'M' : 'L'}${pt(x, y)}`;
  }
  if (rng() < 0.25) {
    parts.push(`<ellipse cx="${n1(0.2 * L)}" cy="0" rx="${n1(0.3 * L)}" ry="${n1(0.2 * L)}" ${paint(t, 0.06, 0.12, 1)}/>`);
  }
  parts.push(`<path d="${d}" ${line(t, 0.32, 0.05 * L)}/>`);
  parts.push(`<path d="${d}" ${line(t, 0.75, 1.2)}/>`);
  parts.push(`<ellipse cx="${n1(0.38 * L)}" cy="0" rx="${n1(0.11 * L)}" ry="${n1(0.075 * L)}" ${paint(t, 0.32, 0.85, 1.6)}/>`);
  parts.push(dot(t, 0.36 * L, 0.01 * L, 0.035 * L, 0.7));
  const halfY = Math.max(0.1 * L, amp + 0.03 * L);
  return { svg: parts.join(''), minX: -0.52 * L, maxX: 0.5 * L, minY: -halfY, maxY: halfY };
}

function chaetognath(rng: Rng, t: Tone): Drawing {
  const L = between(rng, 190, 320);
  const ry = between(rng, 0.032, 0.048) * L;
  const parts: string[] = [];
  for (const s of [-1, 1]) {
    parts.push(
      `<path d="M${pt(0.02 * L, s * ry * 0.8)}L${pt(-0.14 * L, s * (ry + 0.045 * L))}L${pt(-0.26 * L, s * ry * 0.8)}Z" ${paint(t, 0.18, 0.45, 1)}/>`,
    );
    parts.push(
      `<path d="M${pt(-0.3 * L, s * ry * 0.6)}L${pt(-0.36 * L, s * (ry + 0.03 * L))}L${pt(-0.42 * L, s * ry * 0.4)}Z" ${paint(t, 0.18, 0.45, 1)}/>`,
    );
  }
  parts.push(
    `<path d="M${pt(-0.44 * L, 0)}L${pt(-0.56 * L, -0.06 * L)}L${pt(-0.53 * L, 0)}L${pt(-0.56 * L, 0.06 * L)}Z" ${paint(t, 0.2, 0.5, 1)}/>`,
  );
  parts.push(`<ellipse cx="0" cy="0" rx="${n1(0.46 * L)}" ry="${n1(ry)}" ${paint(t, 0.3, 0.8, 1.5)}/>`);
  parts.push(`<path d="M${pt(0.36 * L, 0)}L${pt(-0.32 * L, 0)}" ${line(t, 0.55, 1.2)}/>`);
  parts.push(`<ellipse cx="${n1(0.44 * L)}" cy="0" rx="${n1(0.05 * L)}" ry="${n1(ry * 1.1)}" ${paint(t, 0.35, 0.85, 1.4)}/>`);
  const hooks = intBetween(rng, 4, 8);
  for (let i = 0; i < hooks; i++) {
    const s = i % 2 === 0 ? 1 : -1;
    const spread = (0.2 + Math.floor(i / 2) * 0.25) * ry;
    parts.push(
      `<path d="M${pt(0.47 * L, s * spread * 0.5)}Q${pt(0.52 * L, s * spread)} ${pt(0.54 * L, s * (spread + 0.025 * L))}" ${line(t, 0.7, 1)}/>`,
    );
  }
  const halfY = ry + 0.07 * L;
  return { svg: parts.join(''), minX: -0.57 * L, maxX: 0.56 * L, minY: -halfY, maxY: halfY };
}

function medusa(rng: Rng, t: Tone): Drawing {
  const R = between(rng, 40, 95);
  const H = R * between(rng, 0.7, 1.1);
  const T = R * between(rng, 0.4, 1.5);
  const parts: string[] = [];
  const tentacles = intBetween(rng, 6, 20);
  for (let i = 0; i < tentacles; i++) {
    const x0 = -R * 0.95 + (i / (tentacles - 1)) * 1.9 * R;
    const len = T * between(rng, 0.6, 1);
    const sway = between(rng, -0.15, 0.15) * R;
    parts.push(
      `<path d="M${pt(x0, 0)}Q${pt(x0 + sway, len * 0.5)} ${pt(x0 - sway * 0.5, len)}" ${line(t, 0.5, between(rng, 0.8, 1.4))}/>`,
    );
  }
  parts.push(
    `<path d="M${pt(-R, 0)}C${pt(-R, -1.3 * H)} ${pt(R, -1.3 * H)} ${pt(R, 0)}Q${pt(0, 0.2 * H)} ${pt(-R, 0)}Z" ${paint(t, 0.24, 0.85, 1.8)}/>`,
  );
  for (const x of [-0.6, -0.2, 0.2, 0.6])
    parts.push(`<path d="M${pt(x * 0.3 * R, -0.9 * H)}L${pt(x * R, 0)}" ${line(t, 0.4, 1)}/>`);
  for (const x of [-0.45, 0.45])
    parts.push(
      `<ellipse cx="${n1(x * R)}" cy="${n1(-0.4 * H)}" rx="${n1(0.12 * R)}" ry="${n1(0.2 * H)}" ${paint(t, 0.35, 0.5, 1)}/>`,
    );
  parts.push(`<ellipse cx="0" cy="${n1(0.05 * H)}" rx="${n1(0.1 * R)}" ry="${n1(0.3 * H)}" ${paint(t, 0.35, 0.6, 1)}/>`);
  return { svg: parts.join(''), minX: -R - 0.2 * R, maxX: R + 0.2 * R, minY: -H, maxY: Math.max(T, 0.4 * H) };
}

function detritus(rng: Rng, t: Tone): Drawing {
  const r = between(rng, 30, 105);
  const parts: string[] = [];
  parts.push(
    `<path d="${blobPath(rng, 0, 0, r, intBetween(rng, 9, 16), between(rng, 0.25, 0.5))}" ${paint(t, between(rng, 0.2, 0.4), 0.4, 1.2)}/>`,
  );
  for (let i = intBetween(rng, 1, 5); i > 0; i--) {
    const a = between(rng, 0, 2 * Math.PI);
    const d = r * between(rng, 0.6, 1);
    parts.push(
      `<path d="${blobPath(rng, Math.cos(a) * d, Math.sin(a) * d, r * between(rng, 0.15, 0.35), 7, 0.4)}" ${paint(t, 0.25, 0.35, 1)}/>`,
    );
  }
  for (let i = intBetween(rng, 0, 3); i > 0; i--) {
    const a = between(rng, 0, 2 * Math.PI);
    const len = r * between(rng, 0.4, 0.8);
    const x0 = Math.cos(a) * r * 0.7;
    const y0 = Math.sin(a) * r * 0.7;
    parts.push(
      `<path d="M${pt(x0, y0)}Q${pt(x0 + Math.cos(a + 0.6) * len, y0 + Math.sin(a + 0.6) * len)} ${pt(x0 + Math.cos(a) * len * 1.3, y0 + Math.sin(a) * len * 1.3)}" ${line(t, 0.4, 1)}/>`,
    );
  }
  for (let i = intBetween(rng, 5, 18); i > 0; i--)
    parts.push(dot(t, between(rng, -0.6, 0.6) * r, between(rng, -0.6, 0.6) * r, between(rng, 0.8, 2.5), between(rng, 0.5, 0.9)));
  const reach = r * 1.65;
  return { svg: parts.join(''), minX: -reach, maxX: reach, minY: -reach, maxY: reach };
}

function bubble(rng: Rng, t: Tone): Drawing {
  const r = between(rng, 32, 80);
  const ring = r * between(rng, 0.07, 0.14);
  const parts = [
    `<circle cx="0" cy="0" r="${n1(r)}" ${paint(t, 0.2, 0.9, ring)}/>`,
    `<circle cx="0" cy="0" r="${n1(r * 0.72)}" ${line(t, 0.25, 1.2)}/>`,
    dot(t, -0.35 * r, -0.35 * r, 0.12 * r, 1),
  ];
  return { svg: parts.join(''), minX: -r - ring, maxX: r + ring, minY: -r - ring, maxY: r + ring };
}

const DRAW: Record<PlanktonKind, (rng: Rng, t: Tone) => Drawing> = {
  copepod,
  diatom_chain: diatomChain,
  dinoflagellate,
  appendicularian,
  chaetognath,
  medusa,
  detritus,
  bubble,
};

const clampSide = (v: number) => Math.min(MAX_SIDE, Math.max(MIN_SIDE, Math.ceil(v)));

/** One image's look: flat background level, a soft central glow of the illumination, focus and sensor noise. */
interface Look {
  background: number;
  glow: number;
  softenPasses: number;
  noise: number;
}

/** The SVG of one ROI (organism on a flat background) and how to finish it; the same seed gives the same result. */
function compose(kind: PlanktonKind, seed: number): { svg: string; width: number; height: number; look: Look; rng: Rng } {
  const rng = mulberry32(seed);
  const tone: Tone = { gain: between(rng, 0.75, 1.25) };
  const background = intBetween(rng, 6, 22);
  const drawing = DRAW[kind](rng, tone);
  const angle = between(rng, 0, 360);
  const rad = (angle * Math.PI) / 180;
  const hx = (drawing.maxX - drawing.minX) / 2;
  const hy = (drawing.maxY - drawing.minY) / 2;
  const cos = Math.abs(Math.cos(rad));
  const sin = Math.abs(Math.sin(rad));
  const margin = between(rng, 6, 16);
  const width = clampSide(2 * (hx * cos + hy * sin) + 2 * margin);
  const height = clampSide(2 * (hx * sin + hy * cos) + 2 * margin);
  const cx = (drawing.maxX + drawing.minX) / 2;
  const cy = (drawing.maxY + drawing.minY) / 2;
  const specks: string[] = [];
  for (let i = intBetween(rng, 0, 4); i > 0; i--)
    specks.push(dot(tone, rng() * width, rng() * height, between(rng, 0.8, 2), 0.35));
  const bg = `rgb(${background},${background},${background})`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="${bg}"/>` +
    `<g fill="#fff" stroke="#fff" stroke-linecap="round" stroke-linejoin="round">${specks.join('')}` +
    `<g transform="translate(${n1(width / 2)} ${n1(height / 2)}) rotate(${n1(angle)}) translate(${n1(-cx)} ${n1(-cy)})">` +
    `${drawing.svg}</g></g></svg>`;
  const look = { background, glow: between(rng, 3, 10), softenPasses: intBetween(rng, 0, 2), noise: between(rng, 1.5, 5) };
  return { svg, width, height, look, rng };
}

/** Standard normal values shared by all images; each pixel picks one at random (cheaper than drawing one). */
const NOISE = (() => {
  const rng = mulberry32(0x5eed);
  return Float32Array.from({ length: 65_536 }, () => gauss(rng));
})();

/** A [1 2 1] blur along rows and columns: the slight defocus of a real camera. */
function soften(data: Buffer, width: number, height: number) {
  const tmp = new Uint16Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const c = data[row + x] as number;
      tmp[row + x] = (data[row + Math.max(0, x - 1)] as number) + 2 * c + (data[row + Math.min(width - 1, x + 1)] as number);
    }
  }
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const down = Math.min(height - 1, y + 1) * width;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      data[row + x] = ((tmp[up + x] as number) + 2 * (tmp[row + x] as number) + (tmp[down + x] as number) + 8) >> 4;
    }
  }
}

/**
 * A synthetic dark-field ROI of one kind as a greyscale PNG: deterministic for a seed, different seeds differ
 * in size, rotation, limb and segment counts, brightness, focus and sensor noise.
 */
export async function renderRoi(kind: PlanktonKind, seed: number): Promise<RenderedRoi> {
  const { svg, width, height, look, rng } = compose(kind, seed);
  const data = await sharp(Buffer.from(svg)).extractChannel(0).raw().toBuffer();
  for (let i = 0; i < look.softenPasses; i++) soften(data, width, height);
  const level = look.background + AREA_THRESHOLD;
  let sizePx = 0;
  for (let i = 0; i < data.length; i++) if ((data[i] as number) > level) sizePx++;
  // Illumination glow (brighter centre) and sensor noise; the clamped view rounds and clips to 0–255.
  const out = new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
  const column = Float32Array.from({ length: width }, (_, x) => look.glow * (1 - ((2 * x) / width - 1) ** 2 / 2));
  let state = Math.floor(rng() * 4_294_967_296);
  for (let y = 0; y < height; y++) {
    const rowGlow = (-look.glow * ((2 * y) / height - 1) ** 2) / 2;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      out[row + x] = (data[row + x] as number) + (column[x] as number) + rowGlow + (NOISE[state >>> 16] as number) * look.noise;
    }
  }
  const png = await sharp(data, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .png({ compressionLevel: 2, adaptiveFiltering: false })
    .toBuffer();
  return { png, width, height, sizePx, labelIndex: PLANKTON_KINDS[kind] };
}
