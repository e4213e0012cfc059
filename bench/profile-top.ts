import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `node dist/bench/profile-top.js <file.cpuprofile | dir> [n]`: the top n functions by self time of a V8 CPU
 * profile (of each profile in a folder), as written by `BENCH_CPU_PROF=<dir> npm run bench`. Time spent in
 * better-sqlite3's native code counts as the self time of the JS function that called it.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [target = '.', count = '10'] = process.argv.slice(2);
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((name) => name.endsWith('.cpuprofile'))
      .sort()
      .map((name) => join(target, name))
  : [target];
if (files.length === 0) throw new Error(`No .cpuprofile in ${target}`);

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  console.log(`\n${file}: ${(total / 1000).toFixed(0)} ms sampled`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  }
}
