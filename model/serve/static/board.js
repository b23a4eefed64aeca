// The board as an SVG, drawn from the server's rows of text ("X" black, "O" white, "." empty,
// row 0 at the top), with Go coordinates on the sides, as tsumego eval --picture draws it.
"use strict";

const GO_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const CELL = 28;
const MARGIN = 26;
const SVG_NS = "http://www.w3.org/2000/svg";
// star points by board size, as printed boards have them
const STAR_LINES = { 9: [2, 4, 6], 13: [3, 6, 9], 19: [3, 9, 15] };

function goPoint(x, y, size) { return GO_COLUMNS[x] + (size - y); }

function parseGoPoint(text, size) {
  const x = GO_COLUMNS.indexOf(text[0].toUpperCase());
  return [x, size - parseInt(text.slice(1), 10)];
}

// P(safe) 0..1 on red, yellow, green (matplotlib's RdYlGn ends and middle, as eval's picture)
function haloColour(p) {
  const stops = [[215, 48, 39], [255, 255, 191], [26, 152, 80]];
  const [from, to, t] = p < 0.5 ? [stops[0], stops[1], p * 2] : [stops[1], stops[2], (p - 0.5) * 2];
  const mix = from.map((c, i) => Math.round(c + (to[i] - c) * t));
  return `rgb(${mix[0]}, ${mix[1]}, ${mix[2]})`;
}

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function at(i) { return MARGIN + i * CELL; }

// view: {size, stones, halo (rows of P or null), target [x, y], wall (set of "x,y" the frame
// added), numbers ({"x,y": n}), last [x, y], moves ([{point: "C7", n}]: numbered hints), onClick(x, y)}
function drawBoard(svg, view) {
  const size = view.size;
  const width = 2 * MARGIN + (size - 1) * CELL;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${width}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", width);
  svg.dataset.size = size;
  for (let i = 0; i < size; i++) {
    element("line", { x1: at(0), y1: at(i), x2: at(size - 1), y2: at(i), stroke: "#000", "stroke-width": 0.8 }, svg);
    element("line", { x1: at(i), y1: at(0), x2: at(i), y2: at(size - 1), stroke: "#000", "stroke-width": 0.8 }, svg);
    for (const [x, y, text] of [[at(i), MARGIN * 0.45, GO_COLUMNS[i]], [at(i), width - MARGIN * 0.25, GO_COLUMNS[i]],
                                [MARGIN * 0.4, at(i) + 4, size - i], [width - MARGIN * 0.4, at(i) + 4, size - i]]) {
      element("text", { x, y, "text-anchor": "middle", "font-size": 11, class: "coordinate" }, svg).textContent = text;
    }
  }
  const lines = STAR_LINES[size] || [];
  for (const x of lines) for (const y of lines) {
    if (size === 19 || x === y || x + y === size - 1) element("circle", { cx: at(x), cy: at(y), r: 2.5 }, svg);
  }
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    const stone = view.stones[y][x];
    const point = goPoint(x, y, size);
    const wall = view.wall && view.wall.has(`${x},${y}`);
    if (stone !== "." && !wall && view.halo && view.halo[y][x] !== null) {
      const p = view.halo[y][x];
      element("circle", { cx: at(x), cy: at(y), r: CELL * 0.5, fill: haloColour(p), class: "halo",
                          "data-point": point, "data-p": p }, svg);
    }
    if (stone !== ".") {
      const black = stone === "X";
      const circle = element("circle", { cx: at(x), cy: at(y), r: CELL * 0.36, fill: black ? "#111" : "#fafafa",
        stroke: black ? "#000" : "#444", "stroke-width": 1, class: `stone ${black ? "black" : "white"}${wall ? " wall" : ""}`,
        "data-point": point }, svg);
      if (wall) {   // an assumption of the frame, not a stone of the game: drawn as a ghost
        circle.setAttribute("stroke-dasharray", "3 2");
        circle.setAttribute("fill-opacity", 0.4);
        circle.setAttribute("stroke", "#1565ff");
        circle.setAttribute("stroke-width", 2);
      }
      const number = view.numbers && view.numbers[`${x},${y}`];
      if (number) {
        element("text", { x: at(x), y: at(y) + 4, "text-anchor": "middle", "font-size": 11, "font-weight": "bold",
                          fill: black ? "#fff" : "#000", class: "move-number" }, svg).textContent = number;
      }
    }
  }
  if (view.last) {
    element("circle", { cx: at(view.last[0]), cy: at(view.last[1]), r: CELL * 0.18, fill: "none", stroke: "#e00",
                        "stroke-width": 2, class: "last-move" }, svg);
  }
  for (const hint of view.moves || []) {
    const [x, y] = parseGoPoint(hint.point, size);
    element("circle", { cx: at(x), cy: at(y), r: CELL * 0.35, fill: hint.colour, "fill-opacity": 0.35,
                        stroke: "#333", "stroke-dasharray": "2 2", class: "hint" }, svg);
    element("text", { x: at(x), y: at(y) + 4, "text-anchor": "middle", "font-size": 11, "font-weight": "bold",
                      class: "hint-label" }, svg).textContent = hint.label;
  }
  if (view.target) {
    const [x, y] = view.target;
    element("rect", { x: at(x) - 4, y: at(y) - 4, width: 8, height: 8, fill: "#1565ff", stroke: "#fff",
                      "stroke-width": 0.8, class: "target", "data-point": goPoint(x, y, size) }, svg);
  }
  svg.onclick = view.onClick ? (event) => {
    const box = svg.getBoundingClientRect();
    const scale = width / box.width;
    const x = Math.round(((event.clientX - box.left) * scale - MARGIN) / CELL);
    const y = Math.round(((event.clientY - box.top) * scale - MARGIN) / CELL);
    if (x >= 0 && y >= 0 && x < size && y < size) view.onClick(x, y);
  } : null;
}

// An 11×11 window's plane (or the end-state map): cells of numbers, shaded by value, with the
// board's Go coordinates where the window lies on the board; centre [x, y] on a board of size.
function drawWindow(svg, cells, centre, size, glyph) {
  const n = cells.length, cell = 16, margin = 18, width = 2 * margin + n * cell;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${width}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", width);
  const half = (n - 1) / 2;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const x = centre[0] + c - half, y = centre[1] + r - half;
    const off = x < 0 || y < 0 || x >= size || y >= size;
    const value = cells[r][c];
    const fill = glyph ? glyph(value).fill : off ? "#ccc" : value ? `rgba(21, 101, 255, ${Math.min(1, 0.35 + 0.65 * value / 4)})` : "#fff";
    element("rect", { x: margin + c * cell, y: margin + r * cell, width: cell - 1, height: cell - 1, fill,
                      class: value ? "on" : "off" }, svg);
    if (glyph && glyph(value).text) {
      element("text", { x: margin + c * cell + cell / 2 - 0.5, y: margin + r * cell + cell * 0.72, "text-anchor": "middle",
                        "font-size": 10 }, svg).textContent = glyph(value).text;
    } else if (!glyph && value > 1) {
      element("text", { x: margin + c * cell + cell / 2 - 0.5, y: margin + r * cell + cell * 0.72, "text-anchor": "middle",
                        "font-size": 9, fill: "#fff" }, svg).textContent = value;
    }
  }
  for (let i = 0; i < n; i++) {
    const x = centre[0] + i - half, y = centre[1] + i - half;
    if (x >= 0 && x < size) element("text", { x: margin + i * cell + cell / 2, y: margin - 5, "text-anchor": "middle", "font-size": 9 }, svg).textContent = GO_COLUMNS[x];
    if (y >= 0 && y < size) element("text", { x: margin - 9, y: margin + i * cell + cell * 0.72, "text-anchor": "middle", "font-size": 9 }, svg).textContent = size - y;
  }
}

// The server's JSON, or its one-line error thrown as an Error.
async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let answer;
  try { answer = await response.json(); } catch (e) { answer = { error: `${path}: the server answered ${response.status}` }; }
  if (!response.ok || answer.error) throw new Error(answer.error || `${path}: the server answered ${response.status}`);
  return answer;
}

function showError(message) { document.getElementById("error").textContent = message || ""; }
