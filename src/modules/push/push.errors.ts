/** Every error the push module answers with, beside user.not_found: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const pushErrors = {
  /** A device registration the contract lets through but the service refuses; `field` is the part at fault. */
  invalidDevice: errorFactory(400, 'push_device.invalid', (field: string, problem: string) => `${field}: ${problem}`),
  /** A notification template of the settings that does not compile; the message (the template language's) names it. */
  templateInvalid: errorFactory(400, 'push_settings.template_invalid', (message: string) => message),
};
