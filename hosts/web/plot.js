// The bench panel's chart and table, drawn with DOM calls (no chart library):
// one row per series (op, text or bytes), one bar per path at its median on a
// log time axis, a whisker from p10 to p90.

const SVG_NS = 'http://www.w3.org/2000/svg';
const PATH_COLORS = { component: '#1f77b4', raw: '#ff7f0e', bindgen: '#2ca02c' };
const FALLBACK_COLORS = ['#9467bd', '#8c564b', '#e377c2'];

function el(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024) return `${bytes / 1024} KiB`;
  return `${bytes} B`;
}

/** "png ref-02", "consume 16 KiB", ... */
export function seriesLabel(row) {
  if (row.bytes !== null) return `${row.op} ${formatBytes(row.bytes)}`;
  if (row.op === 'png-repeat') return `png-repeat ${row.text_id} (per png)`;
  return row.text_id === null ? row.op : `${row.op} ${row.text_id}`;
}

export function formatNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

function groupRows(rows) {
  const series = new Map();
  for (const row of rows) {
    const label = seriesLabel(row);
    series.set(label, [...(series.get(label) ?? []), row]);
  }
  return series;
}

/** An <svg> chart of the rows (bench schema measurements). */
export function plotBench(rows) {
  const paths = [...new Set(rows.map((r) => r.path))];
  const color = (path) => PATH_COLORS[path] ?? FALLBACK_COLORS[paths.indexOf(path) % FALLBACK_COLORS.length];
  const series = groupRows(rows);
  const barHeight = 9;
  const rowHeight = paths.length * barHeight + 10;
  const left = 170;
  const right = 90;
  const top = 34;
  const plotWidth = 560;
  const width = left + plotWidth + right;
  const height = top + series.size * rowHeight + 40;

  const values = rows.flatMap((r) => [r.p10_ns, r.p90_ns, r.median_ns]).filter((v) => v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const x = (ns) => left + ((Math.log10(Math.max(ns, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotWidth;

  const svg = el('svg', { xmlns: SVG_NS, width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'font-family': 'system-ui, sans-serif', 'font-size': 11 });
  svg.append(el('title', {}, 'Median time per call by series and path (log scale), whiskers p10 to p90'));

  // Legend.
  paths.forEach((path, i) => {
    const lx = left + i * 110;
    svg.append(el('rect', { x: lx, y: 8, width: 12, height: 12, fill: color(path) }));
    svg.append(el('text', { x: lx + 17, y: 18 }, path));
  });

  // Decade grid lines and labels.
  for (let decade = lo; decade <= hi; decade *= 10) {
    const gx = x(decade);
    svg.append(el('line', { x1: gx, x2: gx, y1: top - 4, y2: height - 34, stroke: '#ddd' }));
    svg.append(el('text', { x: gx, y: height - 20, 'text-anchor': 'middle', fill: '#555' }, formatNs(decade)));
  }
  svg.append(el('text', { x: left + plotWidth / 2, y: height - 5, 'text-anchor': 'middle', fill: '#555' },
    'time per call, median (log scale)'));

  let y = top;
  for (const [label, group] of series) {
    svg.append(el('text', { x: left - 8, y: y + (paths.length * barHeight) / 2 + 4, 'text-anchor': 'end' }, label));
    for (const path of paths) {
      const row = group.find((r) => r.path === path);
      if (row !== undefined) {
        svg.append(el('rect', { x: left, y, width: Math.max(1, x(row.median_ns) - left), height: barHeight - 2, fill: color(path) },
        ));
        const wy = y + (barHeight - 2) / 2;
        svg.append(el('line', { x1: x(row.p10_ns), x2: x(row.p90_ns), y1: wy, y2: wy, stroke: '#222', 'stroke-width': 1 }));
        svg.append(el('text', { x: left + plotWidth + 6, y: y + barHeight - 2, fill: '#333', 'font-size': 9 },
          `${path} ${formatNs(row.median_ns)}`));
      }
      y += barHeight;
    }
    y += 10;
  }
  return svg;
}

/** Table rows (<tr>) of the measurements, for people and screen readers. */
export function benchTable(rows) {
  const cell = (tag, text) => {
    const node = document.createElement(tag);
    node.textContent = text;
    return node;
  };
  const head = document.createElement('tr');
  head.append(...['series', 'path', 'output', 'median', 'p10', 'p90', 'samples'].map((t) => cell('th', t)));
  return [head, ...rows.map((row) => {
    const tr = document.createElement('tr');
    tr.append(cell('td', seriesLabel(row)), cell('td', row.path), cell('td', row.output_bytes === null ? '' : `${row.output_bytes} B`),
      cell('td', formatNs(row.median_ns)), cell('td', formatNs(row.p10_ns)), cell('td', formatNs(row.p90_ns)), cell('td', String(row.samples)));
    return tr;
  })];
}
