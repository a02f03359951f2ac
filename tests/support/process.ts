/**
 * Server processes started as `npm start` starts them (`tsx <script>`), for the browser tests and the
 * bench: a free port, a start that waits for the ready line, a graceful stop, and a crash (SIGKILL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The TypeScript runner the scripts run under, as `npm start` runs the server. */
export const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs `tsx script` with `env` added, until it prints `readyText`; a process that fails to start is killed. */
export async function startScript(script: string, env: Record<string, string>, readyText: string, timeoutMs = 60_000): Promise<ChildProcess> {
  const child = spawn(TSX, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script} did not start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(readyText)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited with ${code}:\n${output}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  child.removeAllListeners('exit');
  return child;
}

/**
 * SIGTERM, as a deployment stops it, and waits for the exit; a process still running 30 s later is
 * killed (and said so), so a slow stop under a loaded machine does not fail the file's afterAll. How
 * the server stops on SIGTERM is tested on its own (tests/server/lifecycle.test.ts).
 */
export async function stopScript(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      console.warn(`process ${child.pid} still running 30 s after SIGTERM: killed`);
      child.kill('SIGKILL');
    }, 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The processes `pid` started, and theirs (Linux: /proc/<pid>/task/<tid>/children); none where /proc is missing. */
function descendantsOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * SIGKILL, as a crash or the kernel's out-of-memory killer ends it: no shutdown runs, open transactions
 * die with their connections. `tsx` runs the script in a node process of its own, which a signal to
 * `tsx` alone would leave running (and listening): the whole tree is killed. Waits until all are gone.
 */
export async function killScript(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const tree = descendantsOf(child.pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (const pid of [child.pid, ...tree]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  await exited;
  const deadline = Date.now() + 10_000;
  while (tree.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
