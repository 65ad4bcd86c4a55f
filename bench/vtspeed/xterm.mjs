// xterm.mjs feeds benchmark streams to @xterm/headless and prints, per
// stream, one JSON line: {"name", "bytes", "runs": [{"wall", "cpu"}]}
// with seconds of wall-clock and process CPU time (user + system) per run.
//
// Usage: node xterm.mjs DIR RUNS NAME...   (reads DIR/NAME.vt)
//
// Each stream goes to a fresh 120x40 terminal with a 10000-line
// scrollback, in one write() like the Go benchmarks' one Write: first
// WARMUPS untimed passes (JIT compilation, scrollback filled: xterm.js
// gets faster over its first three or four passes, 68 -> 87 MB/s on the
// CJK stream, and the Go side is measured in its steady state too), then
// RUNS timed passes, each timed until xterm's write callback reports it
// parsed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import headless from '@xterm/headless';

const { Terminal } = headless;
const [dir, runsArg, ...names] = process.argv.slice(2);
const runs = Number(runsArg);
if (!dir || !(runs > 0) || names.length === 0) {
  console.error('usage: node xterm.mjs DIR RUNS NAME...');
  process.exit(2);
}

const WARMUPS = 4;

const write = (term, data) => new Promise((resolve) => term.write(data, resolve));

for (const name of names) {
  const data = readFileSync(join(dir, name + '.vt'));
  const term = new Terminal({ cols: 120, rows: 40, scrollback: 10000, allowProposedApi: true });
  for (let i = 0; i < WARMUPS; i++) await write(term, data);
  const out = [];
  for (let i = 0; i < runs; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await write(term, data);
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    out.push({ wall, cpu: (cpu.user + cpu.system) / 1e6 });
  }
  term.dispose();
  console.log(JSON.stringify({ name, bytes: data.length, runs: out }));
}
