/**
 * The signed intake, `/api/Terminal/Intake/*` (packages/contract/src/api/terminal-intake.ts; the
 * protocol for terminal makers is docs/terminal-intake.md). Public for the session auth, signed
 * instead: bodies are read as raw bytes so the signature covers them exactly, checked before
 * anything is parsed, then each call runs in one transaction that also claims its nonce — so a
 * refused or failed call stores nothing, and its answer is sent only after the commit.
 */
import {
  INTAKE_PATHS,
  commandAckBodySchema,
  eventsBodySchema,
  heartbeatBodySchema,
  logsBodySchema,
  upgradeProgressBodySchema,
  type BatchAnswer,
  type HeartbeatAnswer,
  type IntakeEvent,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { enqueueCallbacks } from '../developers/callback-queue.js';
import { enqueueParentNotices } from '../parents/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { z } from 'zod';
import { envelopeSchema, errorResponses, ok } from '../platform/envelope.js';
import { claimNonce, touchTerminal, verifyIntakeCall } from './intake-auth.js';
import { parseIntakeBody, validIntakeBody } from './intake-body.js';
import { insertEvents, personNames, schoolUploadScope } from './intake-events.js';
import { nvrsToCheck, recordNvrReach } from './nvr-reach.js';
import { commandHandlersOf, screenHandlersOf, upgradeHandlersOf } from './intake-handlers.js';
import { insertLogs } from './intake-logs.js';
import { announceRecognitions, announceTerminalCall } from './live-intake.js';
import { openGaps, recordSerials } from './serial-gaps.js';
import { recordSnapshots, removeSnapshots, storeSnapshots } from './snapshots.js';

/** Largest events body (500 events with their snapshots); the other calls are small. */
const EVENTS_BODY_LIMIT = 64 * 1024 * 1024;
const SMALL_BODY_LIMIT = 1024 * 1024;
const MEGABYTE = 1024 * 1024;

/** The part of the docs every intake route shares. */
const routeDocs = (summary: string) => ({
  schema: {
    tags: ['TerminalIntake'],
    summary: `${summary} Signed by the terminal (docs/terminal-intake.md); a refused signature is HTTP 401 code 401.`,
    // The answers are written out in docs/terminal-intake.md; the body is read raw (the signature covers its bytes).
    response: { 200: envelopeSchema(z.unknown().describe('The answer of the call, as docs/terminal-intake.md describes it')), 401: errorResponses[401] },
  },
  config: { public: true },
});

/** Duplicate serials within one batch are the device's error: refused, naming the second. */
function refuseRepeatedSerials(items: readonly { serial: number }[], list: string): void {
  const seen = new Set<number>();
  items.forEach((item, index) => {
    if (seen.has(item.serial)) throw badRequest([{ path: `${list}.${index}.serial`, ...msg('intake.serialTwice', { serial: item.serial }) }]);
    seen.add(item.serial);
  });
}

export async function intakeRoutes(app: FastifyInstance): Promise<void> {
  // Raw bytes for every content type: the signature is over the body exactly as sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const bodyOf = async (request: FastifyRequest, jsonPart: string) => parseIntakeBody(request.body as Buffer, request.headers['content-type'], jsonPart);

  app.post(INTAKE_PATHS.heartbeat, { ...routeDocs('Heartbeat: reports the terminal\'s state and the NVRs it reached; answers the interval, queued commands, serials to resend, a released upgrade and the NVRs to check.'), bodyLimit: SMALL_BODY_LIMIT }, async (request) => {
    const call = await verifyIntakeCall(request, request.body as Buffer);
    const { nvrs: nvrReports, ...status } = validIntakeBody(heartbeatBodySchema, (await bodyOf(request, 'heartbeat')).json);
    const signer = await request.server.mediaUrls();
    const answer = await request.server.db.transaction(async (tx): Promise<HeartbeatAnswer> => {
      await claimNonce(tx, call);
      await touchTerminal(tx, call, status);
      await recordNvrReach(tx, call, nvrReports);
      const [commands, resendEvents, upgrade] = [
        await commandHandlersOf().commandsFor(tx, call.device, call.now),
        await openGaps(tx, call.terminalId),
        await upgradeHandlersOf().pendingUpgradeFor(tx, call.device, status.firmwareVersion, call.now, signer),
      ];
      const nvrs = await nvrsToCheck(tx, call.schoolId);
      const { ads, screenTexts } = await screenHandlersOf().screenFor(tx, call.device, call.now, signer);
      return {
        intervalSeconds: call.intervalSeconds,
        serverTime: call.now.toISOString(),
        commands,
        resendEvents,
        ...(upgrade ? { upgrade } : {}),
        ...(ads.length > 0 ? { ads } : {}),
        ...(screenTexts.length > 0 ? { screenTexts } : {}),
        ...(nvrs.length > 0 ? { nvrs } : {}),
      };
    });
    announceTerminalCall(request.server, call);
    return ok(answer);
  });

  app.post(INTAKE_PATHS.events, { ...routeDocs('Recognition events: JSON `{ events }`, or multipart with a part `events` and one image part per snapshotPart; idempotent by serial.'), bodyLimit: EVENTS_BODY_LIMIT }, async (request) => {
    const call = await verifyIntakeCall(request, request.body as Buffer);
    const parsed = await bodyOf(request, 'events');
    const { events } = validIntakeBody(eventsBodySchema, parsed.json);
    refuseRepeatedSerials(events, 'events');
    const parts = new Map<number, string>();
    events.forEach((event: IntakeEvent, index: number) => event.snapshotPart && parts.set(index, event.snapshotPart));
    const storage = request.server.uploads;
    const snapshots = await storeSnapshots(storage, parsed.files, parts, Math.floor(request.server.env.UPLOAD_IMAGE_MAX_MB * MEGABYTE), call.now);
    let keptIndexes = new Set<number>();
    try {
      const answer = await request.server.db.transaction(async (tx): Promise<BatchAnswer> => {
        await claimNonce(tx, call);
        const { lastEventSerial } = await touchTerminal(tx, call);
        const names = await personNames(tx, call.schoolId, events);
        const stored = await insertEvents(tx, { deviceId: call.device.id, schoolId: call.schoolId, successSimilarity: call.successSimilarity }, events, names, snapshots);
        const storedSerials = stored.map((event) => event.serial);
        const storedSet = new Set(storedSerials);
        keptIndexes = new Set([...snapshots.keys()].filter((index) => storedSet.has(events[index]!.serial)));
        if (keptIndexes.size > 0) await recordSnapshots(tx, [...keptIndexes].map((index) => snapshots.get(index)!), await schoolUploadScope(tx, call.schoolId));
        await recordSerials(tx, call.terminalId, lastEventSerial, storedSerials);
        // The developers' deliveries commit with the events (an outbox): none is lost after the answer.
        await enqueueCallbacks(tx, call.schoolId, stored.map((event) => event.record), call.now);
        // The parents' notices (and their pushes) commit with the events too: never lost, never twice.
        await enqueueParentNotices(tx, stored.map((event) => event.record), call.now);
        return { accepted: stored.length, duplicates: events.length - stored.length };
      });
      // A retried event's snapshot was stored the first time: this copy names nothing.
      await removeSnapshots(storage, [...snapshots].filter(([index]) => !keptIndexes.has(index)).map(([, snapshot]) => snapshot));
      announceTerminalCall(request.server, call);
      announceRecognitions(request.server, call.schoolId, answer.accepted);
      return ok(answer);
    } catch (error) {
      await removeSnapshots(storage, [...snapshots.values()]);
      throw error;
    }
  });

  app.post(INTAKE_PATHS.logs, { ...routeDocs('Terminal log lines in a batch; idempotent by serial.'), bodyLimit: SMALL_BODY_LIMIT * 4 }, async (request) => {
    const call = await verifyIntakeCall(request, request.body as Buffer);
    const { logs } = validIntakeBody(logsBodySchema, (await bodyOf(request, 'logs')).json);
    refuseRepeatedSerials(logs, 'logs');
    const answer = await request.server.db.transaction(async (tx): Promise<BatchAnswer> => {
      await claimNonce(tx, call);
      await touchTerminal(tx, call);
      const accepted = await insertLogs(tx, { deviceId: call.device.id, schoolId: call.schoolId }, logs);
      return { accepted, duplicates: logs.length - accepted };
    });
    return ok(answer);
  });

  app.post(INTAKE_PATHS.commandAck, { ...routeDocs('A command delivered, succeeded or failed, with the device\'s result code.'), bodyLimit: SMALL_BODY_LIMIT }, async (request) => {
    const call = await verifyIntakeCall(request, request.body as Buffer);
    const body = validIntakeBody(commandAckBodySchema, (await bodyOf(request, 'ack')).json);
    await request.server.db.transaction(async (tx) => {
      await claimNonce(tx, call);
      await touchTerminal(tx, call);
      await commandHandlersOf().acknowledge(tx, call.device, body, call.now);
    });
    return ok(null);
  });

  app.post(INTAKE_PATHS.upgradeProgress, { ...routeDocs('Progress of an upgrade handed out by a heartbeat.'), bodyLimit: SMALL_BODY_LIMIT }, async (request) => {
    const call = await verifyIntakeCall(request, request.body as Buffer);
    const body = validIntakeBody(upgradeProgressBodySchema, (await bodyOf(request, 'progress')).json);
    await request.server.db.transaction(async (tx) => {
      await claimNonce(tx, call);
      await touchTerminal(tx, call);
      await upgradeHandlersOf().reportUpgradeProgress(tx, call.device, body, call.now);
    });
    return ok(null);
  });
}
