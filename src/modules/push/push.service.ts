/**
 * Push notifications: players' devices, the admin settings (gates and
 * templates), the delivery-attempt lookup, and the engine subscriber that
 * delivers (push.delivery.ts) through the configured provider.
 */
import { createPublicKey } from 'node:crypto';
import type { components } from '../../../generated/api-types.js';
import type { PushConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { userErrors } from '../users/users.errors.js';
import { pushErrors } from './push.errors.js';
import type { Logger } from '../../logger.js';
import { createPushProvider } from './providers/index.js';
import type { PushProvider } from './providers/provider.js';
import { endpointProblem } from './providers/webpush-provider.js';
import { createPushSubscriber, type PushSubscriber } from './push.delivery.js';
import {
  deleteDevice,
  deleteSettingsRow,
  findSettingsRow,
  findUserId,
  listAttempts,
  lockSettingsRow,
  pruneDevices,
  saveSettingsRow,
  upsertDevice,
  type NewPushDevice,
  type PushSettingsRow,
} from './push.repository.js';
import { compileSettingsTemplates, deepMerge, normalizeSettings, PUSH_SETTINGS_DEFAULTS, TemplateError, type PushSettingsPatch } from './push.settings.js';
import type { PushDeliveryAttemptRow, PushDeviceRow } from './push.table.js';

type Schemas = components['schemas'];

/** Devices kept per user: registering one more removes the least recently refreshed. */
export const MAX_DEVICES_PER_USER = 10;

const badDevice = pushErrors.invalidDevice;

/** A P-256 public key as browsers give it: base64url of the 65-byte uncompressed point, on the curve. */
function validP256PublicKey(b64: string): boolean {
  const raw = Buffer.from(b64, 'base64url');
  if (raw.length !== 65 || raw[0] !== 0x04 || !/^[A-Za-z0-9_-]+=*$/.test(b64)) return false;
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/** The columns a registration stores, checked for what its platform needs (400 naming the field). */
function deviceColumns(userId: string, input: Schemas['DeviceRegistration'], allowHttpEndpoints: boolean): NewPushDevice {
  const common = { userId, deviceId: input.device_id, platform: input.platform, appVersion: input.app_version ?? null };
  if (input.platform === 'web') {
    const s = input.subscription;
    if (!s) throw badDevice('subscription', 'a web device needs its Web Push subscription');
    const problem = endpointProblem(s.endpoint, allowHttpEndpoints);
    if (problem)
      throw badDevice(
        'subscription.endpoint',
        'scheme' in problem ? 'must be an https URL of a push service' : `must be a push service on the public internet; ${problem.host}`,
      );
    if (!validP256PublicKey(s.keys.p256dh)) throw badDevice('subscription.keys.p256dh', 'must be a P-256 public key (65 bytes, uncompressed, base64url)');
    const auth = Buffer.from(s.keys.auth, 'base64url');
    if (auth.length !== 16 || !/^[A-Za-z0-9_-]+=*$/.test(s.keys.auth))
      throw badDevice('subscription.keys.auth', 'must be the 16-byte authentication secret, base64url');
    return {
      ...common,
      token: null,
      subscription: { endpoint: s.endpoint, expiration_time: s.expiration_time ?? null, keys: { p256dh: s.keys.p256dh, auth: s.keys.auth } },
    };
  }
  const token = input.token?.trim();
  if (!token) throw badDevice('token', `an ${input.platform} device needs its provider registration token`);
  return { ...common, token, subscription: null };
}

export type PushService = ReturnType<typeof createPushService>;

export function createPushService({ db, config, logger, provider }: { db: Db; config: PushConfig; logger: Logger; provider?: PushProvider }) {
  const pushProvider = provider ?? createPushProvider(config, logger);
  /** Wired into the engine: detached, so a slow push service never holds a listener. */
  const subscriber: PushSubscriber = createPushSubscriber({ db, provider: pushProvider, logger, detached: true });

  return {
    provider: pushProvider,
    subscriber,

    /** Registers (created) or refreshes the caller's device; keeps the newest MAX_DEVICES_PER_USER. */
    async registerDevice(userId: string, input: Schemas['DeviceRegistration']): Promise<{ row: PushDeviceRow; created: boolean }> {
      const values = deviceColumns(userId, input, config.allowHttpEndpoints);
      const result = await upsertDevice({ db, values });
      if (result.created) await pruneDevices({ db, userId, keep: MAX_DEVICES_PER_USER });
      return result;
    },

    /** Idempotent; only the caller's device of that id. */
    async deleteDevice(userId: string, deviceId: string): Promise<void> {
      await deleteDevice({ db, userId, deviceId });
    },

    getSettings: (): Promise<PushSettingsRow | undefined> => findSettingsRow({ db }),

    /** Deep-merges the patch into the settings in force, compiles every template (400 naming it), stores the row. */
    async updateSettings(actorId: string, patch: PushSettingsPatch): Promise<PushSettingsRow> {
      return db.transaction(async (tx) => {
        const row = await lockSettingsRow({ tx, initial: structuredClone(PUSH_SETTINGS_DEFAULTS) as unknown as Record<string, unknown> });
        const merged = normalizeSettings(deepMerge(normalizeSettings(row.settings), patch));
        try {
          compileSettingsTemplates(merged);
        } catch (err) {
          if (err instanceof TemplateError) throw pushErrors.templateInvalid(err.message);
          throw err;
        }
        return saveSettingsRow({ db: tx, settings: merged as unknown as Record<string, unknown>, updatedByUserId: actorId });
      });
    },

    /** Back to the code defaults: the row goes. */
    async resetSettings(): Promise<void> {
      await deleteSettingsRow({ db });
    },

    /** Newest first; by user id or email, or both naming one user (404 when no user matches). */
    async listAttempts(filter: { userId?: string | undefined; email?: string | undefined; limit: number }): Promise<PushDeliveryAttemptRow[]> {
      let userId: string | undefined;
      if (filter.userId !== undefined || filter.email !== undefined) {
        userId = await findUserId({ db, id: filter.userId, email: filter.email });
        if (!userId) throw userErrors.notFound();
      }
      return listAttempts({ db, userId, limit: filter.limit });
    },
  };
}
