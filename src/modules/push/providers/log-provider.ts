/** The default provider: writes each notification to the log and records it delivered, without network. */
import type { Logger } from '../../../logger.js';
import type { PushProvider } from './provider.js';

export function createLogPushProvider(logger: Logger): PushProvider {
  return {
    name: 'log',
    async send(device, message) {
      logger.info(
        {
          push: {
            user: device.userId,
            device: device.deviceId,
            platform: device.platform,
            event: message.event,
            question_issuance_id: message.questionIssuanceId,
          },
          title: message.title,
        },
        'push notification (log provider)',
      );
      return { ok: true };
    },
  };
}
