/** The server under benchmark in a child process (server.ts), and logging in to it as a demo account. */
import { API_PATHS } from '@campus/contract';
import { DEMO_ACCOUNTS } from '@campus/server/src/seeds/demo.js';
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const CAPTCHA_CODE = '1234';

export interface BenchServer {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

export interface Envelope<T> {
  code: number | string;
  message: string;
  data: T;
}

/** Starts bench/server.ts on the database of DATABASE_URL (or DATA_DIR) with a fixed captcha code. */
export async function startBenchServer(dataDir: string): Promise<BenchServer> {
  const entry = fileURLToPath(new URL('./server.ts', import.meta.url));
  const child = fork(entry, [], {
    // BENCH_SERVER_NODE_ARGS passes Node flags to the server alone (a profiler, --cpu-prof).
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    env: { ...process.env, CAPTCHA_FIXED_CODE: CAPTCHA_CODE, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the server exited with code ${code} before listening`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Logs a demo account in through the captcha and Login_web calls; answers its token. */
export async function loginAs(base: string, loginName: string): Promise<string> {
  const account = DEMO_ACCOUNTS.find((a) => a.loginName === loginName);
  if (!account) throw new Error(`no demo account ${loginName}`);
  // A server that has just started may still shed (its event-loop delay includes the start): retry.
  let captchaAnswer = await fetch(`${base}${API_PATHS.captcha}`);
  for (let attempt = 0; captchaAnswer.status === 503 && attempt < 10; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    captchaAnswer = await fetch(`${base}${API_PATHS.captcha}`);
  }
  const captcha = (await captchaAnswer.json()) as Envelope<{ vcId: string }>;
  const response = await fetch(`${base}${API_PATHS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: loginName, password: createHash('md5').update(account.password).digest('hex'), vcId: captcha.data.vcId, vcCode: CAPTCHA_CODE }),
  });
  const answer = (await response.json()) as Envelope<{ Token: string }>;
  if (answer.code !== 200) throw new Error(`login as ${loginName} failed: ${answer.code} ${answer.message}`);
  return answer.data.Token;
}

/**
 * Keep-alive connections for timed calls. `fetch` (undici's WHATWG streams) adds about 1 ms per call
 * on the client at p50 here, which is no part of the server's answer time.
 */
const timingAgent = new http.Agent({ keepAlive: true });

/** One JSON call over node:http with the timing agent; answers the status and the parsed body. */
export function callJson<T>(base: string, path: string, { method = 'GET', token, body }: { method?: 'GET' | 'POST'; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent: timingAgent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T });
        } catch (error) {
          reject(error as Error);
        }
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}
