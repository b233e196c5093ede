/**
 * Report calls timed through the server, shared by bench:report and bench:summaries: each scenario
 * is one Search or GetSummary call as one account; the table prints p50/p95/p99 against the reports'
 * 200 ms p95 budget.
 */
import os from 'node:os';
import type { Envelope } from './bench-server.js';
import { percentile } from './stats.js';

export interface ReportScenario {
  id: string;
  as: 'admin' | 'agent1';
  what: string;
  method: 'POST' | 'GET';
  path: string;
  body?: Record<string, unknown>;
}

/** One call of a scenario (first page of 20): its time, the groups it reports and its totals. */
export async function callReport(base: string, token: string, scenario: ReportScenario): Promise<{ ms: number; groups: number; totals?: Record<string, number> }> {
  const t0 = performance.now();
  const response = await fetch(`${base}${scenario.path}`, {
    method: scenario.method,
    headers: { authorization: `Bearer ${token}`, ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
    body: scenario.body ? JSON.stringify({ pageIndex: 1, pageSize: 20, ...scenario.body }) : undefined,
  });
  // The Overview answers figures, not groups: it counts as none.
  const answer = (await response.json()) as Envelope<{ items?: unknown[]; total?: number; totals?: Record<string, number> }>;
  const ms = performance.now() - t0;
  if (answer.code !== 200) throw new Error(`${scenario.id}: HTTP ${response.status} ${answer.code} ${answer.message}`);
  return { ms, groups: answer.data.total ?? answer.data.items?.length ?? 0, totals: answer.data.totals };
}

export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toPrecision(3));

/** Times every scenario with `samples` sequential calls after 5 warm-up calls, and prints the table. */
export async function printReportTimes(base: string, tokens: Record<ReportScenario['as'], string>, scenarios: readonly ReportScenario[], samples: number, context = ''): Promise<void> {
  console.log(`\nload average before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${context}${samples} sequential requests per scenario\n`);
  console.log('| id | as | scenario | groups | p50 ms | p95 ms | p99 ms | budget (p95 ≤ 200) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const scenario of scenarios) {
    const token = tokens[scenario.as];
    for (let i = 0; i < 5; i += 1) await callReport(base, token, scenario); // warm-up
    const times: number[] = [];
    let groups = 0;
    for (let i = 0; i < samples; i += 1) {
      const result = await callReport(base, token, scenario);
      groups = result.groups;
      times.push(result.ms);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    console.log(`| ${scenario.id} | ${scenario.as} | ${scenario.what} | ${groups} | ${fmt(percentile(times, 50))} | ${fmt(p95)} | ${fmt(percentile(times, 99))} | ${p95 <= 200 ? 'ok' : 'OVER'} |`);
  }
}
