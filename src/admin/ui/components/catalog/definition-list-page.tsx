/**
 * The list page of a definition kind: with `?edit=` the kind's editor, else
 * the filters, CSV export and import, clone, archive and activate, and delete
 * with "archive instead" after a 409.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api.js';
import { setQuery } from '../../router.js';
import { ErrorBox, Loading, Notice, Page, Table, fmtTime, useAction, type Column } from '../common.js';
import { ConfirmButton } from '../controls.js';
import type { DefinitionEditorProps, DefinitionKind, DefinitionRow } from '../definition-catalog.js';
import { ClonePrompt } from './clone-prompt.js';
import { ExportButton } from './csv-export.js';
import { CsvImport } from './csv-import.js';
import { DefinitionFilters } from './definition-filters.js';

const at = (id: string) => ({ params: { path: { definition_id: id } } });

/**
 * A definition list page: with `?edit=` the kind's editor, else the filters,
 * the CSV import panel, the clone prompt, the notices and the table (Name,
 * the kind's `columns`, Updated, and the row actions).
 */
export function DefinitionListPage<D extends DefinitionRow>({
  kind,
  query,
  league,
  list,
  columns,
  editor,
}: {
  kind: Pick<DefinitionKind<D, never, never>, 'base' | 'title' | 'csvFilename' | 'importNoun' | 'archivedLabel' | 'pivotalFilter' | 'empty' | 'isArchived'>;
  query: URLSearchParams;
  league: string;
  list: { rows: D[] | undefined; error: unknown; loading: boolean; reload: () => void };
  columns: Column<D>[];
  editor: (props: DefinitionEditorProps) => ComponentChildren;
}) {
  const edit = query.get('edit');
  const { base, isArchived } = kind;
  const [importing, setImporting] = useState(false);
  const [cloning, setCloning] = useState<D | null>(null);
  const [notice, setNotice] = useState<{ text: string; id?: string } | null>(null);
  /** The definition just created here and its note: shown only while that one is open (not on the next one opened). */
  const [created, setCreated] = useState<{ id: string; note: string } | null>(null);
  useEffect(() => {
    if (created && edit !== created.id) setCreated(null);
  }, [edit]);
  const [refused, setRefused] = useState<D | null>(null);
  const row = useAction(async (op: 'archive' | 'activate' | 'delete', d: D) => {
    setNotice(null);
    setRefused(null);
    if (op === 'archive') await unwrap(() => api.POST(`${base}/{definition_id}/archive`, at(d.id)));
    else if (op === 'activate') await unwrap(() => api.POST(`${base}/{definition_id}/activate`, at(d.id)));
    else {
      try {
        await unwrap(() => api.DELETE(`${base}/{definition_id}`, at(d.id)));
      } catch (err) {
        // 409: still referenced; the detail advises archiving, offered next to it.
        if (err instanceof ApiError && err.status === 409) setRefused(d);
        throw err;
      }
      setNotice({ text: `Deleted "${d.name}".` });
    }
    list.reload();
  });
  const clone = useAction(async (d: D, name: string | undefined) => {
    setNotice(null);
    const copy = await unwrap(() => api.POST(`${base}/{definition_id}/clone`, { ...at(d.id), ...(name !== undefined ? { body: { name } } : {}) }));
    setCloning(null);
    setNotice({ text: `Cloned as "${copy.name}".`, id: copy.id });
    list.reload();
  });

  if (edit && league) {
    return (
      <Page title={kind.title}>
        {editor({
          league,
          id: edit,
          flash: created?.id === edit ? created.note : null,
          onSaved: (d) => {
            list.reload();
            if (edit === 'new') {
              setCreated({ id: d.id, note: `Created "${d.name}".` });
              setQuery({ edit: d.id });
            }
          },
          onClose: () => setQuery({ edit: undefined }),
        })}
      </Page>
    );
  }

  return (
    <Page
      title={kind.title}
      actions={
        <>
          <button type="button" onClick={() => setQuery({ edit: 'new' })} disabled={!league}>
            New definition
          </button>
          <ExportButton url={`${base}/export`} filename={kind.csvFilename} />
          <button type="button" class="secondary" onClick={() => setImporting(!importing)} aria-expanded={importing}>
            Import CSV
          </button>
        </>
      }
    >
      <DefinitionFilters query={query} league={league} archivedLabel={kind.archivedLabel} pivotal={kind.pivotalFilter} />
      {importing ? <CsvImport url={`${base}/import`} noun={kind.importNoun} onApplied={list.reload} onClose={() => setImporting(false)} /> : null}
      {cloning ? (
        <ClonePrompt original={cloning.name} busy={clone.busy} onClone={(name) => void clone.act(cloning, name)} onCancel={() => setCloning(null)} />
      ) : null}
      <ErrorBox error={clone.error} />
      {notice ? (
        <Notice>
          {notice.text}{' '}
          {notice.id ? (
            <button type="button" class="link" onClick={() => setQuery({ edit: notice.id })}>
              Edit it
            </button>
          ) : null}
        </Notice>
      ) : null}
      <ErrorBox error={list.error ?? row.error} />
      {refused && !isArchived(refused) && row.error && !list.error ? (
        <div class="form-actions">
          <button type="button" class="secondary" disabled={row.busy} onClick={() => void row.act('archive', refused)}>
            Archive "{refused.name}" instead
          </button>
        </div>
      ) : null}
      <Loading when={list.loading && !list.rows} />
      <Table<D>
        rows={list.rows ?? []}
        rowKey={(d) => d.id}
        empty={kind.empty}
        columns={[
          {
            label: 'Name',
            cell: (d) => (
              <div class="def-name">
                <button type="button" class="link" onClick={() => setQuery({ edit: d.id })}>
                  {d.name}
                </button>
                {d.description ? <small>{d.description}</small> : null}
              </div>
            ),
          },
          ...columns,
          { label: 'Updated', cell: (d) => fmtTime(d.updated_at) },
          {
            label: '',
            class: 'row-actions-cell',
            cell: (d) => (
              <div class="row-actions">
                <button type="button" class="small" onClick={() => setQuery({ edit: d.id })}>
                  Edit
                </button>
                <button type="button" class="secondary small" onClick={() => setCloning(d)}>
                  Clone
                </button>
                {isArchived(d) ? (
                  <button type="button" class="secondary small" disabled={row.busy} onClick={() => void row.act('activate', d)}>
                    Activate
                  </button>
                ) : (
                  <button type="button" class="secondary small" disabled={row.busy} onClick={() => void row.act('archive', d)}>
                    Archive
                  </button>
                )}
                <ConfirmButton small label="Delete" question={`Delete "${d.name}"?`} busy={row.busy} onConfirm={() => void row.act('delete', d)} />
              </div>
            ),
          },
        ]}
      />
    </Page>
  );
}
