import { describe, expect, it } from 'vitest';
import { INTAKE_HEADERS } from '../api/terminal-intake.js';
import { buildMultipartBody, intakeSignature, signatureMatches, signIntakeRequest } from './terminal-signing.js';

describe('terminal signing', () => {
  const device = { serialNumber: 'G39005', secret: 's3cret' };
  const request = { method: 'POST', path: '/api/Terminal/Intake/Heartbeat', body: '{"a":1}' };

  it('signs what the server recomputes, and nothing else', () => {
    const headers = signIntakeRequest(device, request, new Date(1_700_000_000_000), 'nonce-0123456789abcdef');
    expect(headers[INTAKE_HEADERS.serial]).toBe('G39005');
    expect(headers[INTAKE_HEADERS.timestamp]).toBe('1700000000000');
    const expected = intakeSignature('s3cret', { ...request, timestamp: '1700000000000', nonce: 'nonce-0123456789abcdef' });
    expect(signatureMatches(expected, headers[INTAKE_HEADERS.signature] ?? '')).toBe(true);
    const tampered = intakeSignature('s3cret', { ...request, body: '{"a":2}', timestamp: '1700000000000', nonce: 'nonce-0123456789abcdef' });
    expect(signatureMatches(tampered, headers[INTAKE_HEADERS.signature] ?? '')).toBe(false);
    expect(signatureMatches(expected, 'zz')).toBe(false);
  });

  it('builds a multipart body with the JSON part and each file', () => {
    const { body, contentType } = buildMultipartBody({ events: '[]' }, [{ name: 'p1', filename: 'p1.jpg', contentType: 'image/jpeg', data: new Uint8Array([0xff, 0xd8]) }]);
    const boundary = contentType.split('boundary=')[1] ?? '';
    const text = body.toString('latin1');
    expect(text.startsWith(`--${boundary}\r\n`)).toBe(true);
    expect(text).toContain('name="events"\r\n\r\n[]\r\n');
    expect(text).toContain('filename="p1.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\r\n');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });
});
