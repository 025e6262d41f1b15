// Preloaded with `node --import`: on SIGUSR2 and when the process exits, writes
// one line `loaded-packages: [...]` to stderr naming every package from
// node_modules it has loaded, by import (seen through a module resolve hook) or
// by require.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const packages = new Set();
const packageOf = (file) => {
  const rest = file.split('/node_modules/').pop();
  const parts = rest.split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
};
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => packages.add(packageOf(url)));
port1.unref();
register('./loaded-packages-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });

const require = createRequire(import.meta.url);
const report = () => {
  for (const file of Object.keys(require.cache)) if (file.includes('/node_modules/')) packages.add(packageOf(file));
  process.stderr.write(`loaded-packages: ${JSON.stringify([...packages].sort())}\n`);
};
process.on('SIGUSR2', report);
process.on('exit', report);
