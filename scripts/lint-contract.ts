/**
 * `npm run lint:contract`: Redocly's lint of the contract (openapi/openapi.yaml and openapi/asyncapi.yaml, by
 * redocly.yaml's rules), as `redocly lint` prints it, less one thing: the box Redocly CLI draws on every run under
 * Node.js 20 ("Node.js 20 support is ending"). Node 20 is past its end of life and not a supported line here (README:
 * "Node.js versions"); it still installs and passes `npm test`, and a banner on every run buried what the lint says.
 * Every other line passes through as it comes; the CLI's exit code is this command's. Arguments go on to `redocly lint`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const child = spawn(process.execPath, [cli, 'lint', 'openapi/openapi.yaml', 'openapi/asyncapi.yaml', ...process.argv.slice(2)], {
  cwd: path.resolve(import.meta.dirname, '..'),
  // No usage data from a lint run (the CLI otherwise sends it where it can reach its servers, after a check of up to 1 s).
  env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
  stdio: ['ignore', 'pipe', 'pipe'],
});

/** Passes lines through; holds a box (╔ ... ╚═╝) until it is whole, and drops it when it is the Node.js 20 banner. */
function filtered(out: NodeJS.WriteStream) {
  let partial = '';
  let box: string[] | null = null;
  let dropped = false;
  const line = (text: string) => {
    if (box) {
      box.push(text);
      if (text.includes('╝')) {
        const whole = box.join('');
        box = null;
        if (/Node\.js 20\b/.test(whole)) dropped = true;
        else out.write(whole);
      }
    } else if (text.includes('╔')) box = [text];
    // The blank line that followed the banner goes with it.
    else if (dropped && !text.trim()) dropped = false;
    else {
      dropped = false;
      out.write(text);
    }
  };
  return {
    write(chunk: Buffer) {
      const lines = (partial + chunk.toString('utf8')).split(/(?<=\n)/);
      partial = lines[lines.length - 1]!.endsWith('\n') ? '' : lines.pop()!;
      for (const l of lines) line(l);
    },
    end() {
      if (partial) line(partial);
      if (box) out.write(box.join(''));
    },
  };
}

const stdout = filtered(process.stdout);
const stderr = filtered(process.stderr);
child.stdout.on('data', (chunk: Buffer) => stdout.write(chunk));
child.stderr.on('data', (chunk: Buffer) => stderr.write(chunk));
child.on('close', (code, signal) => {
  stdout.end();
  stderr.end();
  process.exitCode = code ?? (signal ? 1 : 0);
});
