// goal html in a real browser: Debian's chromium, driven by playwright-core (which never
// downloads a browser here: executablePath is given). For each world: make the page, load it
// from disk, and check it against `goal sim --critical` (rows, finish times, critical path,
// title), that nothing but the file itself is fetched, that there are no console errors, that
// stepping advances the time, and that a click explains an action. Screenshots go to OUT.
// usage: node test_html.js GOAL OUT WORLD...   (prints "ok ..." lines, then "N passed, N failed")
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const [goal, out, ...worlds] = process.argv.slice(2);
let pass = 0, fail = 0;
// Waits end only at the watchdog (test_html.sh's, in ms): a loaded machine is slow, not wrong.
const HANG = 1000 * (+process.env.GOAL_TEST_HANG || 1800);
function check(name, cond, detail) {
  if (cond) { pass++; console.log("ok " + name); } else { fail++; console.log("FAIL " + name + (detail ? ": " + detail : "")); }
}

// What `goal sim --critical` says: finish times, max, and the critical actions as "rank:label".
function simulate(world) {
  const text = execFileSync(goal, ["sim", world, "--critical"], { encoding: "utf8" });
  const finish = [], critical = [];   // critical in path order
  let max = null;
  for (const line of text.split("\n")) {
    let m;
    if ((m = /^rank (\d+) (\d+)$/.exec(line))) finish[+m[1]] = m[2];
    else if ((m = /^max (\d+)$/.exec(line))) max = m[1];
    else if ((m = /^critical rank (\d+) (\S+?):? /.exec(line))) critical.push(m[1] + ":" + (m[2] === "-" ? "(unexpected)" : m[2]));
  }
  return { finish, max, critical, last: critical[critical.length - 1] };
}

async function testPage(ctx, world) {
  const name = path.basename(world).replace(/\.[^.]*$/, ""), html = path.join(out, name + ".html");
  execFileSync(goal, ["html", world, "-o", html]);
  const sim = simulate(world), page = await ctx.newPage(), errors = [], foreign = [];
  page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", e => errors.push(e.message));
  page.on("request", r => { if (!/^(file|data|about):/.test(r.url())) foreign.push(r.url()); });
  await page.goto("file://" + path.resolve(html));
  const p = sim.finish.length;
  check(`${name}: title`, (await page.title()) === `goal: ${name}, ${p} ranks, ${sim.max} ns`, await page.title());
  if (p <= 32) {
    const rows = await page.$$eval("g[data-rank]", gs => gs.map(g => [+g.dataset.rank, g.dataset.finish]));
    check(`${name}: one row per rank with goal sim's finish time`,
          rows.length === p && rows.every(([r, f]) => sim.finish[r] === f), JSON.stringify(rows));
    const crit = await page.$$eval("[data-critical]", bs => bs.map(b => b.dataset.rank + ":" + b.dataset.label));
    check(`${name}: critical path is goal sim --critical's`, JSON.stringify(crit.sort()) === JSON.stringify([...sim.critical].sort()),
          `page ${crit} sim ${sim.critical}`);
    check(`${name}: critical path ends on the rank that finishes last`, sim.last && sim.finish[+sim.last.split(":")[0]] === sim.max);
  } else {
    const drawn = await page.$$eval("g[data-rank]", gs => gs.length);
    const nodes = await page.evaluate(() => document.getElementsByTagName("*").length);
    check(`${name}: ${p} ranks, only the rows in view drawn (${drawn}), ${nodes} elements`, drawn > 10 && drawn < 100 && nodes < 20000);
    await page.evaluate(() => { const v = document.getElementById("view"); v.scrollTop = v.scrollHeight; });
    await page.waitForSelector(`g[data-rank="${p - 1}"]`, { timeout: HANG }).catch(() => null);
    check(`${name}: scrolling to the end draws rank ${p - 1}`, (await page.$(`g[data-rank="${p - 1}"]`)) !== null);
    await page.evaluate(() => { document.getElementById("view").scrollTop = 0; });
    await page.waitForSelector('g[data-rank="0"]', { timeout: HANG }).catch(() => null);
  }
  // Click the middle action of the critical path: it is explained, its rank's DAG drawn.
  const widths = await page.$$eval("[data-critical]", bs => bs.map(b => +b.getAttribute("width")));
  const wide = widths.map((w, i) => i).filter(i => widths[i] >= 8);   // one a person could click
  const pick = wide.length ? wide[Math.floor(wide.length / 2)] : widths.length - 1;
  await page.locator("[data-critical]").nth(pick).click({ timeout: HANG });
  const details = await page.textContent("#details");
  const dagNodes = await page.$$eval("#dag [data-dag]", n => n.length);
  check(`${name}: a click explains the action and draws its rank's DAG`, /on the critical path/.test(details) && dagNodes > 0, details);
  const marked = await page.$$eval("#dag rect", rs => rs.filter(r => getComputedStyle(r).stroke === "rgb(230, 0, 126)").length);
  const sel = await page.$$eval(".box.sel", b => b.map(x => x.dataset.label));
  const want = sel[0] === "(unexpected)" ? 0 : 1;   // a message before its recv: no action to mark
  check(`${name}: the clicked action is marked in the timeline and in the DAG`, marked === want && sel.length === 1, `${marked} ${sel}`);
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
      executablePath: "/usr/bin/chromium", headless: true, timeout: HANG,
      viewport: { width: 1400, height: +process.env.GOAL_SHOT_HEIGHT || 700 },   // docs/pictures.sh crops
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync"] });
    ctx.setDefaultTimeout(HANG);
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
