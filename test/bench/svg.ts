/**
 * Draws a benchmark's results (./results.ts) as one SVG: for repeated timings, a bar per case and
 * tool (the median as the bar, the minimum as a dark tick, both as text); for counts over time, a
 * line per tool (nodes Ready, pods Running, ...) against seconds. Plain SVG text, no library.
 */
import type { BenchResults, Series, Timing } from './results.js';

const WIDTH = 760;
const MARGIN = 16;
const FONT = 'font-family="system-ui, sans-serif"';
/** kwokts first in blue, peers in the next colours, in the order they appear. */
const PALETTE = ['#2f6fb3', '#e07b1a', '#4a9c4a', '#8c5fb5', '#9a9a9a'];

export function renderSvg(results: BenchResults): string {
  const tools = [...new Set([...results.timings.map((t) => t.tool), ...results.series.map((s) => s.tool)])];
  const colour = (tool: string): string => PALETTE[tools.indexOf(tool) % PALETTE.length]!;
  const parts: string[] = [];
  let y = MARGIN;
  parts.push(text(MARGIN, y + 14, results.title, 'font-size="16" font-weight="bold"'));
  y += 22;
  const load = results.machine.loadavg.join(' ');
  parts.push(text(MARGIN, y + 12, `${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')} · ${results.machine.cpus} CPUs · load ${load} · node ${results.machine.node}`, 'font-size="11" fill="#555"'));
  y += 20;
  // Legend.
  let x = MARGIN;
  for (const tool of tools) {
    parts.push(`<rect x="${x}" y="${y}" width="12" height="12" fill="${colour(tool)}"/>`);
    parts.push(text(x + 16, y + 10, tool, 'font-size="12"'));
    x += 28 + tool.length * 7;
  }
  y += 22;
  if (results.timings.length > 0) {
    const drawn = bars(results.timings, y, colour);
    parts.push(drawn.svg);
    y = drawn.bottom + 8;
  }
  const names = [...new Set(results.series.map((s) => s.name))];
  for (const name of names) {
    const drawn = lines(name, results.series.filter((s) => s.name === name), y, colour);
    parts.push(drawn.svg);
    y = drawn.bottom + 8;
  }
  for (const note of results.notes) {
    parts.push(text(MARGIN, y + 11, `note: ${note}`, 'font-size="11" fill="#555"'));
    y += 15;
  }
  const height = y + MARGIN;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ${FONT}>\n<rect width="100%" height="100%" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`;
}

/** One horizontal bar per timing, grouped by case; each case has its own scale (its slowest median). */
function bars(timings: readonly Timing[], top: number, colour: (tool: string) => string): { svg: string; bottom: number } {
  const parts: string[] = [];
  const labelWidth = 150;
  const valueWidth = 190;
  const barMax = WIDTH - 2 * MARGIN - labelWidth - valueWidth;
  let y = top;
  for (const caseName of [...new Set(timings.map((t) => t.case))]) {
    const rows = timings.filter((t) => t.case === caseName);
    parts.push(text(MARGIN, y + 12, caseName, 'font-size="13" font-weight="bold"'));
    y += 18;
    const scale = Math.max(...rows.map((r) => (Number.isFinite(r.median) ? r.median : 0)), 1e-9);
    for (const row of rows) {
      const x0 = MARGIN + labelWidth;
      parts.push(text(MARGIN + 8, y + 12, row.tool, 'font-size="12"'));
      if (Number.isFinite(row.median)) {
        const w = Math.max(1, (row.median / scale) * barMax);
        parts.push(`<rect x="${x0}" y="${y + 2}" width="${w.toFixed(1)}" height="12" fill="${colour(row.tool)}" fill-opacity="0.75"/>`);
        const mx = x0 + Math.min(1, row.min / scale) * barMax;
        parts.push(`<rect x="${(mx - 1).toFixed(1)}" y="${y}" width="2" height="16" fill="#222"/>`);
        parts.push(text(x0 + w + 6, y + 12, `median ${fmt(row.median)} ${row.unit} · min ${fmt(row.min)} ${row.unit}`, 'font-size="11"'));
      } else {
        parts.push(text(x0, y + 12, 'no result', 'font-size="11" fill="#a00"'));
      }
      y += 18;
    }
    y += 6;
  }
  parts.push(text(MARGIN, y + 10, 'bar: median · black tick: minimum · n = ' + [...new Set(timings.map((t) => t.samples.length))].join('/') + ' runs each', 'font-size="10" fill="#555"'));
  return { svg: parts.join('\n'), bottom: y + 14 };
}

/** A line chart of one quantity over time, one line per tool, a common scale. */
function lines(name: string, series: readonly Series[], top: number, colour: (tool: string) => string): { svg: string; bottom: number } {
  const parts: string[] = [];
  const plot = { x: MARGIN + 50, y: top + 22, w: WIDTH - 2 * MARGIN - 70, h: 160 };
  parts.push(text(MARGIN, top + 12, `${name} over time`, 'font-size="13" font-weight="bold"'));
  const maxT = Math.max(...series.flatMap((s) => s.points.map((p) => p[0])), 1e-9);
  const maxN = Math.max(...series.map((s) => s.target), ...series.flatMap((s) => s.points.map((p) => p[1])), 1);
  const px = (t: number): string => (plot.x + (t / maxT) * plot.w).toFixed(1);
  const py = (n: number): string => (plot.y + plot.h - (n / maxN) * plot.h).toFixed(1);
  parts.push(`<rect x="${plot.x}" y="${plot.y}" width="${plot.w}" height="${plot.h}" fill="none" stroke="#ccc"/>`);
  for (const f of [0, 0.5, 1]) {
    parts.push(text(plot.x - 6, Number(py(maxN * f)) + 4, String(Math.round(maxN * f)), 'font-size="10" text-anchor="end"'));
    parts.push(text(Number(px(maxT * f)), plot.y + plot.h + 14, `${fmt(maxT * f)} s`, 'font-size="10" text-anchor="middle"'));
  }
  for (const s of series) {
    // A step line: a count holds until the next sample changes it.
    const points: string[] = [];
    let last: number | undefined;
    for (const [t, n] of s.points) {
      if (last !== undefined) points.push(`${px(t)},${py(last)}`);
      points.push(`${px(t)},${py(n)}`);
      last = n;
    }
    parts.push(`<polyline fill="none" stroke="${colour(s.tool)}" stroke-width="2" points="${points.join(' ')}"/>`);
    const end = s.points.at(-1);
    if (end) parts.push(text(Number(px(end[0])) - 4, Number(py(end[1])) - 4, `${s.tool}: ${end[1]}${s.target > 0 ? `/${s.target}` : ''} at ${fmt(end[0])} s`, `font-size="10" text-anchor="end" fill="${colour(s.tool)}"`));
  }
  return { svg: parts.join('\n'), bottom: plot.y + plot.h + 20 };
}

/** Three significant figures at most: 41.3, 0.077, 1480. */
function fmt(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (value >= 100) return value.toFixed(0);
  return String(Number(value.toPrecision(3)));
}

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${x}" y="${y}" ${attributes}>${escapeXml(content)}</text>`;
}

export function escapeXml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
