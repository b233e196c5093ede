/**
 * How a terminal signs an intake call, and a developer an Open API call or the console a developer
 * callback (Node only: the web never imports this). The server signs and verifies with the same
 * functions, so the simulator, the benchmarks and the server cannot drift apart.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { INTAKE_HEADERS, intakeStringToSign } from '../api/terminal-intake.js';

/** SHA-256 (hex) of a body exactly as sent. */
export function bodySha256Hex(body: Uint8Array | string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** HMAC-SHA256 (hex) of the string to sign, keyed by the device's secret. */
export function intakeSignature(secret: string, parts: { method: string; path: string; timestamp: string; nonce: string; body: Uint8Array | string }): string {
  const text = intakeStringToSign({ ...parts, bodySha256Hex: bodySha256Hex(parts.body) });
  return createHmac('sha256', secret).update(text).digest('hex');
}

/**
 * HMAC-SHA256 (hex) of an Open API call or a developer callback: the same string as the intake's, with
 * the path's query (openStringToSign); no body signs the empty body's hash, as a GET does.
 */
export function openSignature(secret: string, parts: { method: string; pathWithQuery: string; timestamp: string; nonce: string; body?: Uint8Array | string }): string {
  return intakeSignature(secret, { method: parts.method, path: parts.pathWithQuery, timestamp: parts.timestamp, nonce: parts.nonce, body: parts.body ?? '' });
}

/** Whether a signature (hex) is the right one, compared in constant time. */
export function signatureMatches(expectedHex: string, givenHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const given = Buffer.from(givenHex, 'hex');
  return given.length === expected.length && expected.length > 0 && timingSafeEqual(expected, given);
}

/** The four signed headers of an intake call made now by the device with this serial number and secret. */
export function signIntakeRequest(
  device: { serialNumber: string; secret: string },
  request: { method: string; path: string; body: Uint8Array | string },
  now: Date = new Date(),
  nonce: string = randomBytes(16).toString('base64url'),
): Record<string, string> {
  const timestamp = String(now.getTime());
  return {
    [INTAKE_HEADERS.serial]: device.serialNumber,
    [INTAKE_HEADERS.timestamp]: timestamp,
    [INTAKE_HEADERS.nonce]: nonce,
    [INTAKE_HEADERS.signature]: intakeSignature(device.secret, { ...request, timestamp, nonce }),
  };
}

/** A multipart/form-data body: one JSON part and any number of file parts, as a terminal sends events with snapshots. */
export function buildMultipartBody(
  fields: Record<string, string>,
  files: { name: string; filename: string; contentType: string; data: Uint8Array }[],
): { body: Buffer; contentType: string } {
  const boundary = `----campus${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`),
      Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
