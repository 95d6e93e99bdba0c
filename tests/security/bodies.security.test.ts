// docs/decisions/026: a page form's body is held to a size before anything parses it. An audit's probe
// was a 150 MB urlencoded POST to /login, read in full (server RSS 207 → 595 MB).
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';

const MB = 1024 * 1024;
const AUDIT_BODY = 150 * MB;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ MAX_UPLOAD_MB: '1' });
});
afterAll(async () => server?.stop());

const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;

interface Sent {
  status: number;
  body: string;
  /** How much of the body went out before the server answered or closed the connection. */
  sentMb: number;
}

/**
 * Streams up to `total` bytes of `type` to `path` over a raw socket in 64 KB chunks, stopping as
 * soon as the server answers or closes; with `declare`, the length is announced up front like a
 * browser's form post, else the body is chunked.
 */
function post(path: string, type: string, total: number, { declare = true, accept = 'text/html' } = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let sent = 0;
    let answer = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      if (!status) return reject(new Error(`no answer after ${sent} bytes`));
      const head = answer.indexOf('\r\n\r\n');
      let body = answer.slice(head + 4);
      if (/transfer-encoding: chunked/i.test(answer.slice(0, head))) body = body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '');
      resolve({ status, body, sentMb: sent / MB });
    };
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      answer += d;
      if (answer.includes('\r\n\r\n') && (/\r\n0\r\n\r\n$/.test(answer) || /content-length: (\d+)/i.test(answer))) {
        const length = Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? Number.NaN);
        if (Number.isNaN(length) || Buffer.byteLength(answer.slice(answer.indexOf('\r\n\r\n') + 4)) >= length) finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', () => {});
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${server.url}\r\nAccept: ${accept}\r\nContent-Type: ${type}\r\n` +
        (declare ? `Content-Length: ${total}\r\n` : 'Transfer-Encoding: chunked\r\n') +
        '\r\n',
    );
    const full = Buffer.alloc(64 * 1024, 'a');
    const frame = (chunk: Buffer) => (declare ? chunk : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    const pump = () => {
      while (!done && sent < total) {
        // Exactly `total` bytes: on a connection kept open, more would be read as the next request.
        const chunk = full.subarray(0, Math.min(full.length, total - sent));
        sent += chunk.length;
        if (!socket.write(frame(chunk))) return void socket.once('drain', pump);
      }
      if (!done && !declare) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

describe('page form bodies', () => {
  it('refuses the audit\'s 150 MB form post with 413 before reading it, declared or streamed', async () => {
    const before = rssMb();
    const declared = await post('/login', 'application/x-www-form-urlencoded', AUDIT_BODY);
    const streamed = await post('/login', 'application/x-www-form-urlencoded', AUDIT_BODY, { declare: false });
    const data = await post('/login.data', 'application/x-www-form-urlencoded', 200 * 1024, { accept: '*/*' });
    const multipart = await post('/update-profile', 'multipart/form-data; boundary=x', 5 * MB);
    const grew = rssMb() - before;

    for (const answer of [declared, streamed, multipart]) {
      expect(answer.status).toBe(413);
      expect(answer.body).toContain('The form is too large to send');
    }
    expect(declared.body).toContain('Failed to Log in');
    expect(multipart.body).toContain('Failed to update profile');
    expect(data.status).toBe(413);
    expect(JSON.parse(data.body)).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('Failed to Log in') });
    // The server stops reading at the limit: far less than the 150 MB goes out, and memory stays put.
    expect(declared.sentMb).toBeLessThan(16);
    expect(streamed.sentMb).toBeLessThan(16);
    expect(grew).toBeLessThan(40);

    // A form of ordinary size is not touched by the limit.
    const normal = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ email: 'nobody@example.com', password: 'Wrong1234' }),
      redirect: 'manual',
    });
    expect(normal.status).not.toBe(413);

    console.log(
      `bodies: 150 MB form to /login → 413 after ${declared.sentMb.toFixed(1)} MB sent (declared) / ${streamed.sentMb.toFixed(1)} MB (streamed); ` +
        `multipart over the upload limit → 413; server RSS ${grew >= 0 ? '+' : ''}${grew.toFixed(0)} MB`,
    );
  });
});
