import type { Handlers } from '../../http/handler-types.js';
import { caller } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toAttemptDto, toDeviceDto, toPushSettingsDto } from './push.mapper.js';

export const pushHandlers = ({ push }: Services) =>
  ({
    registerCurrentUserDevice: async (req) => {
      const { row, created } = await push.registerDevice(caller(req).user.id, req.body);
      return created ? { status: 201, body: toDeviceDto(row) } : { status: 200, body: toDeviceDto(row) };
    },
    deleteCurrentUserDevice: async (req) => {
      await push.deleteDevice(caller(req).user.id, req.params.device_id);
      return { status: 204 };
    },
    getPushSettings: async () => ({ status: 200, body: toPushSettingsDto(await push.getSettings()) }),
    updatePushSettings: async (req) => ({ status: 200, body: toPushSettingsDto(await push.updateSettings(caller(req).user.id, req.body)) }),
    resetPushSettings: async () => {
      await push.resetSettings();
      return { status: 200, body: toPushSettingsDto(undefined) };
    },
    listPushDeliveryAttempts: async ({ query }) => ({
      status: 200,
      body: (await push.listAttempts({ userId: query.user_id, email: query.email, limit: query.limit ?? 50 })).map(toAttemptDto),
    }),
  }) satisfies Partial<Handlers>;
