/**
 * `npx tsx scripts/test-times.ts <report.json> [count]`: where a test run's time went, from vitest's JSON report
 * (`npx vitest run --project fast --reporter=json --outputFile=<report.json>`): the run's span, the summed time of the
 * test files and of their tests, and the slowest files and tests (docs/testing.md). A file's time is its tests' and
 * hooks'; what the files' sum leaves of span × workers is importing, setting up and waiting for a worker.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Report {
  numTotalTests: number;
  numFailedTests: number;
  testResults: { name: string; startTime: number; endTime: number; assertionResults: { title: string; duration?: number | null }[] }[];
}

const [file, count = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx scripts/test-times.ts <vitest JSON report> [how many of the slowest to list]');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
const n = Number(count);
const root = process.cwd() + path.sep;
const s = (ms: number) => (ms / 1000).toFixed(1).padStart(7);
const files = report.testResults.map((f) => ({ name: f.name.replace(root, ''), ms: f.endTime - f.startTime, tests: f.assertionResults }));
const start = Math.min(...report.testResults.map((f) => f.startTime));
const end = Math.max(...report.testResults.map((f) => f.endTime));
const tests = files.flatMap((f) => f.tests.map((t) => ({ file: f.name, title: t.title, ms: t.duration ?? 0 })));
console.log(`${files.length} files, ${report.numTotalTests} tests (${report.numFailedTests} failed)`);
console.log(`span ${s(end - start)} s; files summed ${s(files.reduce((a, f) => a + f.ms, 0))} s; tests summed ${s(tests.reduce((a, t) => a + t.ms, 0))} s`);
console.log(`\nslowest files (s):`);
for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, n)) console.log(`${s(f.ms)}  ${f.name} (${f.tests.length} tests)`);
console.log(`\nslowest tests (s):`);
for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, n)) console.log(`${s(t.ms)}  ${t.file} | ${t.title.slice(0, 100)}`);
