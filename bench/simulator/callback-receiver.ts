/**
 * `--callbacks <port>`: the simulator plays a developer too. It listens on 127.0.0.1:<port>, registers
 * a developer (developManage) reading the fleet's schools with that callback URL and a fresh secret,
 * and checks every POST the console delivers as a receiver must (docs/terminal-intake.md §7): the
 * signature over the raw body, and repeats dropped by their delivery id. The console must allow the
 * host (it does outside production; in production set CALLBACK_ALLOWED_HOSTS=127.0.0.1).
 */
import { CALLBACK_HEADERS, type DeveloperCallbackBody } from '@campus/contract';
import { openSignature, signatureMatches } from '@campus/contract/terminal-signing';
import http from 'node:http';
import type { ConsoleClient } from './console-client.js';

export interface CallbackStats {
  deliveries: number;
  events: number;
  repeats: number;
  badSignatures: number;
}

const CALLBACK_PATH = '/simulator/callbacks';

function isSigned(request: http.IncomingMessage, body: Buffer, secret: string): boolean {
  const header = (name: string) => String(request.headers[name] ?? '');
  const expected = openSignature(secret, { method: 'POST', pathWithQuery: request.url ?? '', timestamp: header(CALLBACK_HEADERS.timestamp), nonce: header(CALLBACK_HEADERS.nonce), body });
  return signatureMatches(expected, header(CALLBACK_HEADERS.signature));
}

/** Registers the simulated developer and starts its receiver; answers the counts (live) and how to stop. */
export async function startCallbackReceiver(client: ConsoleClient, port: number, schoolIds: readonly number[]): Promise<{ stats: CallbackStats; close: () => Promise<void> }> {
  const stats: CallbackStats = { deliveries: 0, events: 0, repeats: 0, badSignatures: 0 };
  const seen = new Set<string>();
  let secret = '';
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!isSigned(request, body, secret)) {
        stats.badSignatures += 1;
        response.writeHead(401).end();
        return;
      }
      const deliveryId = String(request.headers[CALLBACK_HEADERS.deliveryId]);
      if (seen.has(deliveryId)) stats.repeats += 1;
      else {
        seen.add(deliveryId);
        stats.deliveries += 1;
        stats.events += (JSON.parse(body.toString('utf8')) as DeveloperCallbackBody).events.length;
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { id } = await client.call<{ id: number }>('/api/Developer/Add?view=developManage', {
    name: `模拟开发者 ${new Date().toISOString().slice(0, 16)}`,
    callbackUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    schoolIds: [...new Set(schoolIds)],
  });
  ({ secret } = await client.call<{ secret: string }>('/api/Developer/ResetSecret?view=developManage', { id }));
  return {
    stats,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
