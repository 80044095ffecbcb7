// goal html in a real browser: Debian's chromium, driven by playwright-core (which never
// downloads a browser here: executablePath is given). For each world: make the page, load it
// from disk, and check it against `goal sim --critical` (rows, finish times, critical path,
// title), that nothing but the file itself is fetched, that there are no console errors, that
// stepping advances the time, and that a click explains an action. Screenshots go to OUT.
// A world of more than BIG actions is checked as a large run: it loads (a watchdog, never a
// time bound: the measured times are printed), its summary counts every action, the page
// stays small, and zoomed in at the end of the run its last critical action is drawn and
// explained as goal sim --critical names it.
// usage: node test_html.js GOAL OUT WORLD...   (prints "ok ..." lines, then "N passed, N failed")
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const [goal, out, ...worlds] = process.argv.slice(2);
const BIG = 50000;   // actions (the 1024-rank dissemination has 40960)
// Waits end only at the watchdog (test_html.sh's, in ms): a loaded machine is slow, not wrong.
const WATCHDOG = 1000 * (+process.env.GOAL_TEST_HANG || 1800);
const BUF = { encoding: "utf8", maxBuffer: 1 << 30 };
let pass = 0, fail = 0;
function check(name, cond, detail) {
  if (cond) { pass++; console.log("ok " + name); } else { fail++; console.log("FAIL " + name + (detail ? ": " + detail : "")); }
}

// What `goal sim --critical` says: finish times, max, and the critical actions as "rank:label".
function simulate(world) {
  const text = execFileSync(goal, ["sim", world, "--critical"], BUF);
  const finish = [], critical = [], captions = [];   // critical in path order
  let max = null;
  for (const line of text.split("\n")) {
    let m;
    if ((m = /^rank (\d+) (\d+)$/.exec(line))) finish[+m[1]] = m[2];
    else if ((m = /^max (\d+)$/.exec(line))) max = m[1];
    else if ((m = /^critical rank (\d+) (\S+?):? /.exec(line))) {
      critical.push(m[1] + ":" + (m[2] === "-" ? "(unexpected)" : m[2]));
      captions.push(/^critical rank \d+ (.*) \d+\.\.\d+$/.exec(line)[1]);
    }
  }
  return { finish, max, critical, last: critical[critical.length - 1], lastCaption: captions[captions.length - 1] };
}
// The page's rows: only those in view are drawn, and scrolling to the end draws the last.
async function rowsInView(page, name, p) {
  const drawn = await page.$$eval("g[data-rank]", gs => gs.length);
  const nodes = await page.evaluate(() => document.getElementsByTagName("*").length);
  check(`${name}: ${p} ranks, only the rows in view drawn (${drawn}), ${nodes} elements`, drawn > 10 && drawn < 100 && nodes < 20000);
  await page.evaluate(() => { const v = document.getElementById("view"); v.scrollTop = v.scrollHeight; });
  await page.waitForSelector(`g[data-rank="${p - 1}"]`, { timeout: WATCHDOG }).catch(() => null);
  check(`${name}: scrolling to the end draws rank ${p - 1}`, (await page.$(`g[data-rank="${p - 1}"]`)) !== null);
  await page.evaluate(() => { document.getElementById("view").scrollTop = 0; });
  await page.waitForSelector('g[data-rank="0"]', { timeout: WATCHDOG }).catch(() => null);
}
const frame = page => page.evaluate(() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))));
// A large run: summarised, few elements, and zoomed in, real actions drawn and explained.
async function largeRun(page, name, html, sim, p, actions, loaded) {
  const summary = await page.textContent("#summary"), counted = await page.getAttribute("#summary", "data-actions");
  check(`${name}: the summary counts ${actions} actions (${summary})`,
        +counted === actions && summary.startsWith(actions.toLocaleString("en-US") + " action"), `${counted} ${summary}`);
  const nodes = await page.evaluate(() => document.getElementsByTagName("*").length), bytes = fs.statSync(html).size;
  check(`${name}: ${actions} actions drawn with ${nodes} elements`, nodes < 20000);
  check(`${name}: the page is ${bytes} bytes, ${(bytes / actions).toFixed(1)} per action (data, not markup)`, bytes < 48 * actions + 200000);
  if (p > 32) await rowsInView(page, name, p);
  else {
    const rows = await page.$$eval("g[data-rank]", gs => gs.map(g => [+g.dataset.rank, g.dataset.finish, +g.dataset.actions]));
    check(`${name}: one row per rank with goal sim's finish time and its action count`,
          rows.length === p && rows.every(([r, f]) => sim.finish[r] === f) && rows.reduce((n, r) => n + r[2], 0) === actions, JSON.stringify(rows));
  }
  // The run ends on the last critical action: show its row, zoom in at the end until it is wide.
  const rank = +sim.last.split(":")[0];
  await page.evaluate(r => { document.getElementById("view").scrollTop = Math.max(0, r * 22 - 200); }, rank);
  await frame(page);
  const last = `[data-critical][data-rank="${rank}"][data-label="${sim.last.split(":")[1]}"]`;
  const wide = async () => page.$$eval(last, bs => bs.some(b => +b.getAttribute("width") >= 8));
  let zooms = 0;
  for (; zooms < 60 && !(await wide()); zooms++) await page.click("#zoomin");
  check(`${name}: zoomed in ${zooms} times, the last critical action ${sim.last} is drawn`, await wide());
  const t = Date.now();
  await page.locator(last).last().click({ timeout: WATCHDOG });
  const details = await page.textContent("#details"), clicked = Date.now() - t;
  check(`${name}: a click explains it as goal sim --critical does`,
        details.split("\n")[0] === sim.lastCaption && /on the critical path/.test(details), `${details} / ${sim.lastCaption}`);
  const t1 = Date.now();
  await page.click("#step");
  await frame(page);
  console.log(`info ${name}: ${actions} actions, page loaded and drawn in ${loaded} ms, a click answered in ${clicked} ms, ` +
              `a step in ${Date.now() - t1} ms (watchdog ${WATCHDOG / 1000} s; times are printed, never asserted)`);
}

async function testPage(ctx, world) {
  const name = path.basename(world).replace(/\.[^.]*$/, ""), html = path.join(out, name + ".html");
  execFileSync(goal, ["html", world, "-o", html]);
  const sim = simulate(world), page = await ctx.newPage(), errors = [], foreign = [];
  const actions = +/total actions (\d+)/.exec(execFileSync(goal, ["stats", world], BUF))[1];
  page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", e => errors.push(e.message));
  page.on("dialog", d => { errors.push("a dialog: " + d.message()); d.dismiss(); });   // a hostile name's script ran
  page.on("request", r => { if (!/^(file|data|about):/.test(r.url())) foreign.push(r.url()); });
  const start = Date.now();
  await page.goto("file://" + path.resolve(html), { timeout: WATCHDOG });
  await page.waitForSelector("#time[data-time]", { timeout: WATCHDOG });
  await frame(page);
  const loaded = Date.now() - start, p = sim.finish.length;
  check(`${name}: title`, (await page.title()) === `goal: ${name}, ${p} ranks, ${sim.max} ns`, await page.title());
  if (actions > BIG) await largeRun(page, name, html, sim, p, actions, loaded);
  else if (p <= 32) {
    const rows = await page.$$eval("g[data-rank]", gs => gs.map(g => [+g.dataset.rank, g.dataset.finish]));
    check(`${name}: one row per rank with goal sim's finish time`,
          rows.length === p && rows.every(([r, f]) => sim.finish[r] === f), JSON.stringify(rows));
    const crit = await page.$$eval("[data-critical]", bs => bs.map(b => b.dataset.rank + ":" + b.dataset.label));
    check(`${name}: critical path is goal sim --critical's`, JSON.stringify(crit.sort()) === JSON.stringify([...sim.critical].sort()),
          `page ${crit} sim ${sim.critical}`);
    check(`${name}: critical path ends on the rank that finishes last`, sim.last && sim.finish[+sim.last.split(":")[0]] === sim.max);
  } else await rowsInView(page, name, p);
  if (actions <= BIG) {   // click the middle action of the critical path: it is explained, its rank's DAG drawn.
    const widths = await page.$$eval("[data-critical]", bs => bs.map(b => +b.getAttribute("width")));
    const wide = widths.map((w, i) => i).filter(i => widths[i] >= 8);   // one a person could click
    const pick = wide.length ? wide[Math.floor(wide.length / 2)] : widths.length - 1;
    await page.locator("[data-critical]").nth(pick).click({ timeout: WATCHDOG });
    const details = await page.textContent("#details");
    const dagNodes = await page.$$eval("#dag [data-dag]", n => n.length);
    check(`${name}: a click explains the action and draws its rank's DAG`, /on the critical path/.test(details) && dagNodes > 0, details);
    const marked = await page.$$eval("#dag rect", rs => rs.filter(r => getComputedStyle(r).stroke === "rgb(230, 0, 126)").length);
    const sel = await page.$$eval(".box.sel", b => b.map(x => x.dataset.label));
    const want = sel[0] === "(unexpected)" ? 0 : 1;   // a message before its recv: no action to mark
    check(`${name}: the clicked action is marked in the timeline and in the DAG`, marked === want && sel.length === 1, `${marked} ${sel}`);
  }
  await page.screenshot({ path: path.join(out, name + ".png") });
  // Time: back to 0, then each step moves forward.
  const time = async () => +(await page.getAttribute("#time", "data-time"));
  await page.click("#restart");
  const t0 = await time();
  await page.click("#step");
  const t1 = await time();
  await page.click("#step");
  const t2 = await time();
  check(`${name}: stepping advances the time (${t0} -> ${t1} -> ${t2})`, t0 === 0 && t1 > t0 && t2 > t1);
  const future = await page.$$eval(".box.future", b => b.length);
  check(`${name}: boxes after the current time are faded`, future > 0);
  check(`${name}: no console errors`, errors.length === 0, errors.join(" | "));
  check(`${name}: nothing fetched but the page`, foreign.length === 0, foreign.join(" "));
  await page.close();
}

(async () => {
  fs.mkdirSync(out, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "goal-chromium-"));   // a fresh --user-data-dir
  let ctx;
  try {
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium", headless: true, timeout: WATCHDOG,
      viewport: { width: 1400, height: +process.env.GOAL_SHOT_HEIGHT || 700 },   // docs/pictures.sh crops
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync"] });
    ctx.setDefaultTimeout(WATCHDOG);
    for (const w of worlds) await testPage(ctx, w);
  } catch (e) {
    check("browser run", false, e.stack || String(e));
  } finally {
    if (ctx) await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${pass} passed, ${fail} failed`);
  process.exit(fail ? 1 : 0);
})();
