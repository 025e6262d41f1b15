// Fault injection (tests/faults/stray-rejection.test.ts): a promise rejected with no handler every 200 ms, as a bug in any
// module would, starting once the service has installed its handler for them (or after 15 s without one: then it ends).
const started = Date.now();
const timer = setInterval(() => {
  if (process.listenerCount('unhandledRejection') === 0 && Date.now() - started < 15_000) return;
  void Promise.reject(new Error('stray rejection injected by the test'));
}, 200);
timer.unref();
