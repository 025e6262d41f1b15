import { isoTimestamps } from '../shared/dto-fields.js';
import type { components } from '../../../generated/api-types.js';
import type { PushSettingsRow } from './push.repository.js';
import { normalizeSettings, PUSH_SETTINGS_DEFAULTS, settingsEqual } from './push.settings.js';
import type { PushDeliveryAttemptRow, PushDeviceRow } from './push.table.js';

type Schemas = components['schemas'];

/** A device as its owner sees it (no token or subscription keys in responses). */
export function toDeviceDto(row: PushDeviceRow): Schemas['Device'] {
  return {
    device_id: row.deviceId,
    platform: row.platform as Schemas['Device']['platform'],
    app_version: row.appVersion,
    ...isoTimestamps(row),
  };
}

/** The settings in force (the stored row read through the defaults, or the defaults when there is none). */
export function toPushSettingsDto(row: PushSettingsRow | undefined): Schemas['PushSettings'] {
  const stored = normalizeSettings(row?.settings);
  return {
    stored_settings: stored,
    defaults: structuredClone(PUSH_SETTINGS_DEFAULTS),
    is_default: settingsEqual(stored, PUSH_SETTINGS_DEFAULTS),
    updated_at: row ? row.updatedAt.toISOString() : null,
    updated_by_user_id: row ? row.updatedByUserId : null,
  };
}

export function toAttemptDto(row: PushDeliveryAttemptRow): Schemas['PushDeliveryAttempt'] {
  return {
    id: row.id,
    user_id: row.userId,
    device_id: row.deviceId,
    platform: row.platform,
    provider: row.provider,
    event: row.event as Schemas['PushDeliveryAttempt']['event'],
    question_issuance_id: row.questionIssuanceId,
    status: row.status,
    status_code: row.statusCode,
    error: row.error,
    title: row.title,
    body: row.body,
    created_at: row.createdAt.toISOString(),
  };
}
