#!/usr/bin/env node
// The checks `npm test` runs before the tests: types, import loops, lint and format. They read
// the code and share nothing, so they run side by side (each is one process on one core); each
// one's output is printed whole once it ends, and any failure fails the run.
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'check:imports', 'lint', 'format:check'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`── ${script}: ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
if (results.includes(false)) process.exit(1);
