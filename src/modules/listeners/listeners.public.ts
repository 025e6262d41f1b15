/**
 * The listeners module's front door: what the rest of the service may read
 * and write of its tables (scripts/eslint/front-doors.js: its repositories
 * are its own). Each statement takes the connection or the caller's
 * transaction.
 */
export {
  // The live engine's store: the queue, claims and leases, progress, recordings and logs of the listeners it runs.
  claimListener,
  enqueueListener,
  finishListener,
  holdLease,
  LeaseLostError,
  listenerRecording,
  matchesToDispatch,
  matchRecording,
  nextLogLine,
  reapStopped,
  recordEvents,
  releaseListener,
  renewLease,
  requestStop,
  saveListenerProgress,
  writeLog,
  type EnqueueValues,
  type LogLine,
  type ProgressValues,
  // Match control: a reset match loses its listeners; a closed match replays what its listeners recorded.
  deleteListenersOfMatch,
  recordedEventCount,
} from './listeners.repository.js';
