/**
 * Brands: search, create and edit (multipart: name, colors, logo with a
 * preview, clear logo), delete; and a brand's question sponsorships: its
 * current slots, and assigning slots (or a random percent) to matches picked
 * from a UTC day. The editor and the sponsorship panel are components of
 * components/brands/.
 */
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { BrandForm } from '../components/brands/brand-form.js';
import { SponsorshipPanel } from '../components/brands/sponsorship-panel.js';
import { EditToggle, useInlineEditor } from '../components/catalog/inline-editor.js';
import { ErrorBox, Field, Loading, Notice, Page, Table, TextInput, fmtTime, useAction, useAsync } from '../components/common.js';
import { ConfirmButton } from '../components/controls.js';
import { setQuery, useLocation } from '../router.js';

type Brand = components['schemas']['Brand'];

export function BrandsPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const sponsor = query.get('sponsorships') ?? '';
  const editor = useInlineEditor();
  const brands = useAsync(() => unwrap(() => api.GET('/api/brands', { params: { query: q ? { q } : {} } })), [q]);
  const remove = useAction(async (b: Brand) => {
    editor.setNotice(null);
    await unwrap(() => api.DELETE('/api/brands/{brand_id}', { params: { path: { brand_id: b.id } } }));
    editor.closeIf(b.id);
    if (sponsor === b.id) setQuery({ sponsorships: undefined });
    editor.setNotice(`Deleted brand "${b.name}".`);
    brands.reload();
  });
  const current = editor.openOf(brands.data);
  const sponsoring = (brands.data ?? []).find((b) => b.id === sponsor);
  return (
    <Page
      title="Brands"
      actions={
        <button type="button" onClick={editor.openNew}>
          New brand
        </button>
      }
    >
      <div class="filters">
        <Field label="Search (name, color, logo file or id)">
          <TextInput type="search" value={q} onValue={(v) => setQuery({ q: v })} />
        </Field>
      </div>
      {current !== undefined ? (
        <BrandForm
          key={editor.editing}
          brand={current}
          flash={editor.flash}
          onSaved={(b) => {
            brands.reload();
            editor.saved(b.id);
          }}
          onClose={editor.close}
        />
      ) : null}
      {sponsoring ? <SponsorshipPanel key={sponsoring.id} brand={sponsoring} onClose={() => setQuery({ sponsorships: undefined })} /> : null}
      {sponsor && brands.data && !sponsoring && !q ? <ErrorBox error={new Error(`brand ${sponsor} not found`)} /> : null}
      {editor.notice ? <Notice>{editor.notice}</Notice> : null}
      <ErrorBox error={brands.error ?? remove.error} />
      <Loading when={brands.loading && !brands.data} />
      <Table<Brand>
        rows={brands.data ?? []}
        rowKey={(b) => b.id}
        empty={q ? 'No brand matches this search.' : 'No brands yet.'}
        columns={[
          {
            label: '',
            cell: (b) => (
              <span class="swatches" aria-hidden="true">
                <span style={{ background: b.primary_color }} />
                {b.secondary_color ? <span style={{ background: b.secondary_color }} /> : null}
              </span>
            ),
          },
          { label: 'Name', cell: (b) => b.name },
          { label: 'Colors', cell: (b) => <code>{[b.primary_color, b.secondary_color].filter(Boolean).join(' / ')}</code> },
          {
            label: 'Logo',
            cell: (b) =>
              b.logo_url ? <img class="logo-thumb" src={b.logo_url} alt={`${b.name} logo`} title={b.logo_filename ?? ''} /> : <span class="muted">none</span>,
          },
          { label: 'Updated', cell: (b) => fmtTime(b.updated_at) },
          {
            label: '',
            class: 'row-actions-cell',
            cell: (b) => (
              <div class="row-actions">
                <EditToggle editor={editor} id={b.id} />
                <button type="button" class="secondary small" onClick={() => setQuery({ sponsorships: sponsor === b.id ? undefined : b.id })}>
                  Sponsorships
                </button>
                <ConfirmButton small label="Delete" question={`Delete brand "${b.name}"?`} busy={remove.busy} onConfirm={() => void remove.act(b)} />
              </div>
            ),
          },
        ]}
      />
    </Page>
  );
}
