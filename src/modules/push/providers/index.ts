/** The provider the configuration names. */
import type { PushConfig } from '../../../config.js';
import type { Logger } from '../../../logger.js';
import { createLogPushProvider } from './log-provider.js';
import type { PushProvider } from './provider.js';
import { createWebPushProvider } from './webpush-provider.js';

export type { PushMessage, PushProvider, PushSendResult, PushTarget } from './provider.js';

export function createPushProvider(config: PushConfig, logger: Logger): PushProvider {
  if (config.provider === 'webpush') {
    // loadConfig refuses webpush without keys; a hand-built config gets the same message.
    if (!config.vapid) throw new Error('PUSH_PROVIDER=webpush needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT');
    return createWebPushProvider({ vapid: config.vapid, allowHttpEndpoints: config.allowHttpEndpoints });
  }
  return createLogPushProvider(logger);
}
