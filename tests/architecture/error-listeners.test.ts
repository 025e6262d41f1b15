/**
 * The error-listener rule (scripts/eslint/error-listeners.js, run by `npm run
 * lint` in `npm test`): every socket, stream, server, worker and child
 * process the service creates has a lasting 'error' listener, because an
 * 'error' nobody listens to ends the process (issue 24: one frame on a
 * refused stream socket did). These cases prove it refuses what it must and
 * lets through what it may, and that the lint applies it to the sources.
 */
import path from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { errorListeners } from '../../scripts/eslint/error-listeners.js';
import { projectRoot } from '../../src/paths.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' } });

tester.run('error-listeners', errorListeners, {
  valid: [
    "const ws = new WebSocket(url); ws.on('error', () => {});",
    "new WebSocket(url).on('error', log);",
    "const ws = new WebSocket(url).on('open', ready).on('error', log);",
    "let ws; ws = new WebSocket(url); ws.addListener('error', log);",
    "const wss = new WebSocketServer({ noServer: true }); wss.prependListener('error', log);",
    "wss.handleUpgrade(req, socket, head, (ws) => { ws.on('error', log); ws.close(4401); });",
    "server.on('upgrade', (req, socket, head) => { socket.on('error', () => {}); socket.destroy(); });",
    "const onUpgrade = (req, socket) => { socket.on('error', () => {}); }; server.on('upgrade', onUpgrade);",
    "function onConnection(socket) { socket.on('error', log); } server.on('connection', onConnection);",
    "const source = Readable.from(rows); source.on('error', reject); source.pipe(res);",
    'pipeline(Readable.from(rows), res, done);',
    "const source = text ? Readable.from([text]) : Readable.from(rows); source.on('error', reject);",
    "const transport = url ? nodemailer.createTransport(url) : null; transport?.on('error', log);",
    "const server = app.listen(port); server.on('error', log);",
    "const server = http.createServer(app); server.once('error', reject); server.on('error', log);",
    // A statement that starts listening creates nothing: the server was created (and checked) where it was made.
    'server.listen(port, host, () => resolve());',
    "const w = new Worker(code, { eval: true }); w.once('error', reject); w.on('error', discard);",
    "const child = spawn(cmd, args); child.on('error', fail);",
    "const redis = new Redis(url, options); redis.on('error', log);",
    // Not an emitter the rule follows.
    'const client = new PushFeedClient({ url });',
  ],
  invalid: [
    // What crashed the service: a refused socket closed in the handshake's callback, no listener.
    {
      code: 'wss.handleUpgrade(req, socket, head, (ws) => ws.close(4429, reason));',
      errors: [{ messageId: 'parameter' }],
    },
    { code: "const ws = new WebSocket(url); ws.on('message', onMessage);", errors: [{ messageId: 'missing' }] },
    { code: "const redis = new Redis(url); redis.on('message', onMessage);", errors: [{ messageId: 'missing' }] },
    { code: "const wss = new WebSocketServer({ noServer: true }); wss.on('connection', (ws) => ws.on('error', log));", errors: [{ messageId: 'missing' }] },
    { code: "wss.on('connection', (ws) => { ws.send('hello'); });", errors: [{ messageId: 'parameter' }] },
    // once() is gone after the first error: the usual start-up pattern leaves a listening server without one.
    { code: "const server = http.createServer(app); server.once('error', reject);", errors: [{ messageId: 'missing' }] },
    { code: 'const server = app.listen(port);', errors: [{ messageId: 'missing' }] },
    { code: "server.on('upgrade', (req, socket, head) => { socket.end('HTTP/1.1 404'); });", errors: [{ messageId: 'parameter' }] },
    { code: "const onUpgrade = (req, socket) => { socket.destroy(); }; server.on('upgrade', onUpgrade);", errors: [{ messageId: 'parameter' }] },
    { code: "const child = spawn(cmd); child.stdout.on('error', log);", errors: [{ messageId: 'missing' }] },
    { code: "const s = net.connect(port); s.on('data', read);", errors: [{ messageId: 'missing' }] },
    { code: 'const file = fs.createReadStream(p); file.pipe(res);', errors: [{ messageId: 'missing' }] },
    { code: 'const t = nodemailer.createTransport(url);', errors: [{ messageId: 'missing' }] },
    { code: 'const w = new Worker(code);', errors: [{ messageId: 'missing' }] },
    // Values the rule cannot follow: kept in a field, returned, or created and dropped.
    { code: 'class C { open() { this.ws = new WebSocket(url); } }', errors: [{ messageId: 'untracked' }] },
    { code: 'function open() { return new WebSocket(url); }', errors: [{ messageId: 'untracked' }] },
    { code: "fork('worker.js');", errors: [{ messageId: 'untracked' }] },
  ],
});

describe('the lint', () => {
  const eslint = new ESLint({ cwd: projectRoot });
  const problems = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
    return result!.messages.filter((m) => m.ruleId === 'errors/error-listeners').map((m) => m.message);
  };

  it('applies the rule to the service and the long-running scripts, not to tests or benchmarks', async () => {
    const code = "import { WebSocket } from 'ws';\nexport const ws = new WebSocket('ws://x');\n";
    expect(await problems('src/live/x.ts', code)).toHaveLength(1);
    expect(await problems('scripts/mock-stream.ts', code)).toHaveLength(1);
    expect(await problems('tests/live/x.test.ts', code)).toEqual([]);
    expect(await problems('scripts/bench-ws.ts', code)).toEqual([]);
  });
});
