/**
 * Push notifications: the stored settings beside the code defaults (every
 * gate and template editable; a template that does not compile comes back
 * as the API's 400), reset to the defaults, and the delivery attempts of a
 * user (by id or email) or of everyone. The settings form and the attempts
 * are components of components/push/.
 */
import { api, unwrap } from '../api.js';
import { Badge, ErrorBox, Loading, Page, fmtTime, useAsync } from '../components/common.js';
import { Section, shortId } from '../components/controls.js';
import { DeliveryAttempts } from '../components/push/delivery-attempts.js';
import { SettingsEditor } from '../components/push/settings-editor.js';
import { Link } from '../router.js';

export function PushPage() {
  const settings = useAsync(() => unwrap(() => api.GET('/api/push-settings')), []);
  const s = settings.data;
  return (
    <Page title="Push notifications">
      <Section
        id="settings"
        title="Settings"
        tools={
          s ? (
            <span class="muted text-small">
              {s.is_default ? <Badge tone="good">the code defaults</Badge> : <Badge tone="warn">changed from the defaults</Badge>}{' '}
              {s.updated_at ? (
                <>
                  last saved {fmtTime(s.updated_at)}
                  {s.updated_by_user_id ? (
                    <>
                      {' '}
                      by <Link href={`/admin/users?user=${s.updated_by_user_id}`}>{shortId(s.updated_by_user_id)}</Link>
                    </>
                  ) : null}
                </>
              ) : (
                'never saved'
              )}
            </span>
          ) : null
        }
      >
        <Loading when={settings.loading && !s} />
        <ErrorBox error={settings.error} />
        {s ? <SettingsEditor stored={s.stored_settings} defaults={s.defaults} onSaved={settings.reload} /> : null}
      </Section>
      <DeliveryAttempts />
    </Page>
  );
}
