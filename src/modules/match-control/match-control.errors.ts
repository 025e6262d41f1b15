/**
 * Every error match control (clones of recorded matches and their replay
 * listeners) answers with, beside the matches module's own (match.not_found,
 * match.not_test): its status, its stable code (X-Error-Code) and its message.
 */
import { errorFactory } from '../../errors.js';

export const matchControlErrors = {
  unavailableInMain: errorFactory(
    403,
    'match.unavailable_in_main',
    (what: string) => `${what} is unavailable in the main (production) environment (APP_ENV=main); use a staging or development deployment`,
  ),
  notClosed: errorFactory(409, 'match.not_closed', (status: string) => `only a closed match can be cloned; this one is ${status}`),
  /** Nothing recorded to replay: a match to clone no listener consumed, or a test match that is no clone. */
  nothingToReplay: errorFactory(409, 'match.nothing_to_replay', (what: 'not recorded' | 'not a clone') =>
    what === 'not recorded'
      ? 'this match has no recorded events to replay (no listener consumed its feed)'
      : 'this test match was not cloned from a recorded match, so there is nothing to replay',
  ),
  alreadyPlayed: errorFactory(
    409,
    'match.already_played',
    () => 'this test match has already been played through; restart it (start-listener with restart: true) or clone the original match again',
  ),
  /** A replay listener is already active at another speed than the one asked for. */
  listenerActive: errorFactory(
    409,
    'match.listener_active',
    (status: string, activeSpeed: number | null, asked: number) =>
      `a listener (${status}) already replays this match at x${activeSpeed}; stop it first (stop-listener), or restart the replay at x${asked} (start-listener with restart: true)`,
  ),
};
