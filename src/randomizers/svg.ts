/**
 * Just enough SVG to draw the randomizer charts without a plotting dependency: a plot frame with ticks and
 * labels, and bar, stacked-bar and line layers drawn inside it. Output is plain, indented-free SVG text.
 */

export interface Frame {
  /** Top-left corner and size of the whole panel (labels included). */
  x: number;
  y: number;
  width: number;
  height: number;
  title: string;
  xLabel?: string;
  yLabel?: string;
  xDomain: [number, number];
  yDomain: [number, number];
  logX?: boolean;
  xTicks?: number[];
  yTicks?: number[];
  formatX?: (v: number) => string;
  formatY?: (v: number) => string;
  /** Extra room under the x tick labels (for a row of annotations), in pixels. */
  extraBottom?: number;
}

const MARGIN = { left: 52, right: 12, top: 26, bottom: 38 };
const FONT = 'font-family="system-ui, sans-serif"';

export function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

/** Maps data coordinates to pixels inside a frame's plot area. */
export class Plot {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;

  constructor(readonly frame: Frame) {
    this.left = frame.x + MARGIN.left;
    this.right = frame.x + frame.width - MARGIN.right;
    this.top = frame.y + MARGIN.top;
    this.bottom = frame.y + frame.height - MARGIN.bottom - (frame.extraBottom ?? 0);
  }

  px(v: number): number {
    const [lo, hi] = this.frame.xDomain;
    const t = this.frame.logX ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo);
    return round(this.left + t * (this.right - this.left));
  }

  py(v: number): number {
    const [lo, hi] = this.frame.yDomain;
    return round(this.bottom - ((v - lo) / (hi - lo)) * (this.bottom - this.top));
  }

  /** Axes, ticks, grid lines, title and axis labels. */
  axes(): string {
    const f = this.frame;
    const fx = f.formatX ?? String;
    const fy = f.formatY ?? String;
    const parts: string[] = [];
    for (const t of f.yTicks ?? niceTicks(f.yDomain[0], f.yDomain[1], 5)) {
      const y = this.py(t);
      parts.push(`<line x1="${this.left}" y1="${y}" x2="${this.right}" y2="${y}" stroke="#e5e5e5"/>`);
      parts.push(
        `<text x="${this.left - 5}" y="${y + 3.5}" text-anchor="end" font-size="10">${escapeXml(fy(t))}</text>`,
      );
    }
    for (const t of f.xTicks ?? niceTicks(f.xDomain[0], f.xDomain[1], 6)) {
      const x = this.px(t);
      parts.push(`<line x1="${x}" y1="${this.bottom}" x2="${x}" y2="${this.bottom + 4}" stroke="#333"/>`);
      parts.push(
        `<text x="${x}" y="${this.bottom + 15}" text-anchor="middle" font-size="10">${escapeXml(fx(t))}</text>`,
      );
    }
    parts.push(
      `<polyline points="${this.left},${this.top} ${this.left},${this.bottom} ${this.right},${this.bottom}" fill="none" stroke="#333"/>`,
    );
    parts.push(
      `<text x="${f.x + f.width / 2}" y="${f.y + 16}" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(f.title)}</text>`,
    );
    if (f.xLabel)
      parts.push(
        `<text x="${(this.left + this.right) / 2}" y="${f.y + f.height - 6}" text-anchor="middle" font-size="11">${escapeXml(f.xLabel)}</text>`,
      );
    if (f.yLabel) {
      const cx = f.x + 12;
      const cy = (this.top + this.bottom) / 2;
      parts.push(
        `<text x="${cx}" y="${cy}" text-anchor="middle" font-size="11" transform="rotate(-90 ${cx} ${cy})">${escapeXml(f.yLabel)}</text>`,
      );
    }
    return parts.join('\n');
  }

  /** One bar per value, centred on x = index. */
  bars(values: readonly number[], color: string): string {
    const width = Math.max(0.5, (this.px(1) - this.px(0)) * 0.85);
    return values
      .map((v, i) =>
        v > 0
          ? `<rect x="${round(this.px(i) - width / 2)}" y="${this.py(v)}" width="${round(width)}" height="${round(this.bottom - this.py(v))}" fill="${color}"/>`
          : '',
      )
      .filter(Boolean)
      .join('\n');
  }

  /** stacks[i][layer]: bar i is made of its layers, bottom to top. */
  stackedBars(stacks: readonly (readonly number[])[], colors: readonly string[]): string {
    const width = round(this.px(1) - this.px(0));
    const parts: string[] = [];
    stacks.forEach((layers, i) => {
      let base = 0;
      layers.forEach((v, layer) => {
        const y0 = this.py(base);
        const y1 = this.py(base + v);
        parts.push(
          `<rect x="${round(this.px(i) - width / 2)}" y="${y1}" width="${width}" height="${round(y0 - y1)}" fill="${colors[layer]}"/>`,
        );
        base += v;
      });
    });
    return `<g class="stacked-bars">\n${parts.join('\n')}\n</g>`;
  }

  line(points: readonly (readonly [number, number])[], color: string, dashed = false): string {
    const coords = points.map(([x, y]) => `${this.px(x)},${this.py(y)}`).join(' ');
    return `<polyline points="${coords}" fill="none" stroke="${color}" stroke-width="1.5"${dashed ? ' stroke-dasharray="5 4"' : ''}/>`;
  }

  /** A vertical marker with a label at its top (e.g. the maximum drought). */
  marker(x: number, label: string, color: string): string {
    const px = this.px(x);
    return `<line x1="${px}" y1="${this.top}" x2="${px}" y2="${this.bottom}" stroke="${color}" stroke-dasharray="3 3"/>\n<text x="${px - 3}" y="${this.top + 10}" text-anchor="end" font-size="10" fill="${color}">${escapeXml(label)}</text>`;
  }
}

/** Legend entries in a row starting at (x, y). */
export function legend(entries: readonly { label: string; color: string }[], x: number, y: number): string {
  return entries
    .map((e, i) => {
      const ex = x + i * 70;
      return `<rect x="${ex}" y="${y - 9}" width="10" height="10" fill="${e.color}"/><text x="${ex + 14}" y="${y}" font-size="11">${escapeXml(e.label)}</text>`;
    })
    .join('\n');
}

export function svgDocument(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT}>\n<rect width="100%" height="100%" fill="white"/>\n${body}\n</svg>\n`;
}

/** About `count` round tick values covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}
