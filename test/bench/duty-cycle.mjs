// The memory sizing's fallback CPU limiter (memory.ts), when no cgroup can be made: runs the command
// given after the share, letting it run share × 20 ms of every 20 ms (SIGCONT) and stopping it for the
// rest (SIGSTOP), until it exits. argv: share (0–1], command, args…. Its output passes through.
import { spawn } from 'node:child_process';

const PERIOD_MS = 20;
const share = Number(process.argv[2]);
const child = spawn(process.argv[3], process.argv.slice(4), { stdio: 'inherit' });
let running = true;
const cycle = () => {
  if (share >= 1 || child.exitCode !== null) return;
  running = !running;
  child.kill(running ? 'SIGCONT' : 'SIGSTOP');
  setTimeout(cycle, running ? share * PERIOD_MS : (1 - share) * PERIOD_MS);
};
setTimeout(cycle, share * PERIOD_MS);
child.once('exit', (code) => process.exit(code ?? 1));
