// check.js: loads the batch report in headless Chromium over the DevTools protocol on
// a local pipe (--remote-debugging-pipe: fd 3 in, fd 4 out, messages ending in NUL),
// then checks the three pictures (elements, sizes), that nothing was fetched and that
// the console stayed clean. Node's standard library only.
// Usage: node check.js CHROMIUM REPORT.html PROFILE_DIR
"use strict";
const { spawn } = require("child_process");
const path = require("path");

const [chromium, report, profile] = process.argv.slice(2);
const child = spawn(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
  "--no-first-run", "--window-size=1280,2000", `--user-data-dir=${path.join(profile, "profile")}`, "about:blank"],
  { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });

let nextId = 1, inbuf = "";
const waiting = new Map(), listeners = [];
const problems = [];  // console errors, exceptions, failed loads

function send(method, params = {}, sessionId) {
  const id = nextId++;
  child.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + "\0");
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject, method }));
}

function onMessage(msg) {
  if (msg.id && waiting.has(msg.id)) {
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(`${w.method}: ${msg.error.message}`)); else w.resolve(msg.result);
    return;
  }
  const p = msg.params || {};
  if (msg.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "warning"))
    problems.push(`console.${p.type}: ${(p.args || []).map(a => a.value).join(" ")}`);
  if (msg.method === "Runtime.exceptionThrown") problems.push(`exception: ${p.exceptionDetails.text}`);
  if (msg.method === "Log.entryAdded" && (p.entry.level === "error" || p.entry.level === "warning"))
    problems.push(`log ${p.entry.level}: ${p.entry.text}`);
  if (msg.method === "Network.loadingFailed") problems.push(`load failed: ${p.errorText}`);
  listeners.forEach(l => l(msg));
}

child.stdio[4].on("data", chunk => {
  inbuf += chunk.toString("utf8");
  let end;
  while ((end = inbuf.indexOf("\0")) >= 0) {
    const text = inbuf.slice(0, end);
    inbuf = inbuf.slice(end + 1);
    onMessage(JSON.parse(text));
  }
});

function event(name, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timeout waiting for ${name}`)), timeoutMs);
    listeners.push(msg => { if (msg.method === name) { clearTimeout(timer); resolve(msg.params); } });
  });
}

// Runs in the page: what the test checks, as plain values.
const probe = `(() => {
  const box = id => { const e = document.getElementById(id); if (!e) return null;
    const r = e.getBoundingClientRect();
    return { tag: e.tagName.toLowerCase(), w: r.width, h: r.height,
             aw: +e.getAttribute("width"), ah: +e.getAttribute("height") }; };
  const bboxes = sel => [...document.querySelectorAll(sel)].map(e => { const b = e.getBBox(); return [b.width, b.height]; });
  return { title: document.title, lines: box("vf-lines"), bars: box("vf-bars"), matrix: box("vf-matrix"),
    series: bboxes("#vf-lines polyline.series"), capacity: document.querySelectorAll("#vf-lines g.capacity").length,
    barGroups: document.querySelectorAll("#vf-bars g.bar").length, segments: bboxes("#vf-bars rect.cat"),
    cells: bboxes("#vf-matrix g.cell rect"), scripts: document.scripts.length,
    fetched: performance.getEntriesByType("resource").map(r => r.name),
    summary: (document.getElementById("vf-summary") || {}).textContent };
})()`;

async function main() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  for (const m of ["Runtime.enable", "Log.enable", "Page.enable", "Network.enable"]) await send(m, {}, sessionId);
  const loaded = event("Page.loadEventFired", 20000);
  await send("Page.navigate", { url: "file://" + path.resolve(report) }, sessionId);
  await loaded;
  const { result } = await send("Runtime.evaluate", { expression: probe, returnByValue: true }, sessionId);
  return result.value;
}

function verdicts(v) {
  const checks = [];
  const ok = (what, cond) => checks.push([what, !!cond]);
  ok("title is the report's", v.title === "vramfit batch report");
  for (const [name, b] of [["lines", v.lines], ["bars", v.bars], ["matrix", v.matrix]]) {
    ok(`${name}: an <svg> element`, b && b.tag === "svg");
    ok(`${name}: laid out at its own size plus the 1px border (${b && b.w}x${b && b.h} of ${b && b.aw}x${b && b.ah})`,
       b && b.w >= 300 && b.h >= 150 && Math.abs(b.w - b.aw - 2) < 1 && Math.abs(b.h - b.ah - 2) < 1);
  }
  ok(`lines: 4 series drawn (${v.series.length})`, v.series.length === 4 && v.series.every(([w, h]) => w > 100 && h > 0));
  ok(`lines: a capacity line per GPU (${v.capacity})`, v.capacity === 3);
  ok(`bars: every 2nd of 72 scenarios (${v.barGroups})`, v.barGroups === 36);
  ok("bars: every stacked segment has a size", v.segments.length > 36 && v.segments.every(([w, h]) => w > 0 && h >= 0));
  ok(`matrix: 2 models x 3 GPUs cells (${v.cells.length})`, v.cells.length === 6 && v.cells.every(([w, h]) => w > 50 && h > 20));
  ok("no script in the report", v.scripts === 0);
  ok(`nothing fetched (${v.fetched.join(", ")})`, v.fetched.length === 0);
  ok(`summary counts the rows (${v.summary})`, /^72 rows, 0 failed/.test(v.summary || ""));
  ok(`console clean (${problems.join("; ")})`, problems.length === 0);
  return checks;
}

main().then(v => {
  const checks = verdicts(v);
  for (const [what, pass] of checks) console.log(`${pass ? "ok  " : "FAIL"} ${what}`);
  const failed = checks.filter(c => !c[1]).length;
  console.log(`browser: ${checks.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}).catch(err => {
  console.log(`FAIL ${err.message}`);
  console.log("browser: 0 passed, 1 failed");
  process.exitCode = 1;
}).finally(() => {
  send("Browser.close").catch(() => {});
  setTimeout(() => { child.kill(); process.exit(); }, 500);
});
