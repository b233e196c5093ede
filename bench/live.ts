/**
 * bench:live — push latency of the live stream (docs/live.md): N open streams on one instance, a
 * refund application made through the API each round, and the time until every stream has the
 * `badges` event. Prints p50/p95/max of the push (publish → received) and of the whole change
 * (call sent → received), with the load average. Target: p95 ≤ 1 s with 200 streams.
 *
 *   npm run bench:live -- [--db postgres|pglite] [--streams 200] [--rounds 30]
 * PostgreSQL (the default when DATABASE_URL is set) uses a scratch database next to DATABASE_URL's.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { LIVE_PATHS, type LiveEvent } from '@campus/contract';
import { callJson, loginAs } from './bench-server.js';
import { scratchDatabase, startServer, stop } from './main-server.js';
import { percentile, sortedOf } from './stats.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
    streams: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '30' },
  },
});
const STREAMS = Number(args.streams);
const ROUNDS = Number(args.rounds);

interface Stream {
  received: { event: LiveEvent; at: number }[];
  close(): void;
}

/** Opens one stream and collects its badge events. */
async function openStream(base: string, token: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${base}${LIVE_PATHS.stream}`, { headers: { authorization: `Bearer ${token}`, 'x-background': '1', accept: 'text/event-stream' }, signal: controller.signal });
  if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}`);
  const received: Stream['received'] = [];
  let isReady!: () => void;
  const ready = new Promise<void>((resolve) => (isReady = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let split: number;
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          if (block.includes('event: ready')) isReady();
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (block.startsWith('event: badges') && data) received.push({ event: JSON.parse(data.slice(6)) as LiveEvent, at: Date.now() });
        }
      }
    } catch {
      // closed
    }
  })();
  await ready;
  return { received, close: () => controller.abort() };
}

const scratch = await scratchDatabase(args.db!, 'live');
let server: Awaited<ReturnType<typeof startServer>> | undefined;
const streams: Stream[] = [];
try {
  server = await startServer(scratch.env);
  console.log(`${args.db}: server up in ${(server.startMs / 1000).toFixed(1)} s`);
  const token = await loginAs(server.base, 'admin');
  const payments = await callJson<{ data: { items: { id: number; amount: number; refundedAmount: number }[] } }>(server.base, '/api/PaymentRecord/Search?view=payDetailManage', { method: 'POST', token, body: { pageIndex: 1, pageSize: 20 } });
  const payment = payments.body.data.items.find((item) => item.amount > item.refundedAmount);
  if (!payment) throw new Error('no payment left to refund in the demo data');
  for (let opened = 0; opened < STREAMS; opened += 20) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(20, STREAMS - opened) }, () => openStream(server!.base, token)))));
  }
  console.log(`${streams.length} streams open`);

  const push: number[] = [];
  const whole: number[] = [];
  let missed = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const seen = streams.map((stream) => stream.received.length);
    const sent = Date.now();
    const answer = await callJson<{ code: number }>(server.base, '/api/Refund/Add', { method: 'POST', token, body: { paymentId: payment.id, reason: `bench:live ${round}` } });
    if (answer.body.code !== 200) throw new Error(`Refund/Add answered ${JSON.stringify(answer.body)}`);
    const deadline = Date.now() + 5_000;
    while (streams.some((stream, index) => stream.received.length <= seen[index]!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    streams.forEach((stream, index) => {
      const got = stream.received[seen[index]!];
      if (!got) return void (missed += 1);
      push.push(got.at - got.event.at);
      whole.push(got.at - sent);
    });
    // Rounds apart, so each measures one change, not a queue of them.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const line = (name: string, sample: number[]) => {
    const sorted = sortedOf(sample);
    return `${name}: p50 ${percentile(sorted, 50)} ms, p95 ${percentile(sorted, 95)} ms, max ${sorted.at(-1)} ms (${sorted.length} deliveries)`;
  };
  console.log(`bench:live ${args.db}, ${streams.length} streams on one instance, ${ROUNDS} refund applications`);
  console.log(line('push (published → received)', push));
  console.log(line('change (Refund/Add sent → received)', whole));
  console.log(`missed (not received within 5 s): ${missed}`);
  console.log(`load average: ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
} finally {
  for (const stream of streams) stream.close();
  if (server) await stop(server.child);
  await scratch.cleanUp();
}
