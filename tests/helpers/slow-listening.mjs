// Fault injection (tests/http/operations.test.ts): the service's HTTP server accepts connections at once, but its
// 'listening' event reaches the process 500 ms later, so the rest of the start (the live bus, the engine) runs while
// requests are already served. A readiness that said 200 in that window would be found out.
import http from 'node:http';

const emit = http.Server.prototype.emit;
const delayed = new WeakSet();
http.Server.prototype.emit = function (event, ...args) {
  if (event === 'listening' && !delayed.has(this)) {
    delayed.add(this);
    setTimeout(() => emit.call(this, event, ...args), 500);
    return true;
  }
  return emit.call(this, event, ...args);
};
