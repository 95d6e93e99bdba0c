// The bench's ceiling: a bare node:http server answering every request with one recorded answer
// (status, headers and body bytes, as the app sent them), in a process of its own like the app's.
// It used to run inside the bench's process, sharing one event loop with the load generator, and
// answered about half of what it answers alone, so every "of ceiling" figure read twice too high.
// Usage: node ceiling.js ANSWER.json — prints the port it listens on, then serves until killed.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answer = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const body = Buffer.from(answer.body, 'base64');
const headers = { ...answer.headers, 'content-length': body.length };
const server = createServer((req, res) => {
  res.writeHead(answer.status, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
