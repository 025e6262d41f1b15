/**
 * The question definitions of a league, of one kind (in-game or Match): the
 * list with every filter of the API (in the query string), the kind's editor
 * (create and full replace) with a live preview beside it, clone, archive
 * and activate, delete, and CSV export and import (dry run first, then
 * apply).
 */
import type { components } from '../../../../generated/api-types.js';
import { useAsync } from '../components/common.js';
import { definitionListQuery } from '../components/catalog/definition-filters.js';
import { useLeagueParam } from '../components/catalog/league-param.js';
import { loadGroups, loadSampleCatalog } from '../components/catalog/loaders.js';
import { DefinitionEditorFrame, EditorLoader, OtherLeagueNotice, QuestionFields, useDefinitionForm } from '../components/catalog/definition-editor.js';
import { DefinitionListPage } from '../components/catalog/definition-list-page.js';
import type { DefinitionEditorProps, DefinitionKind, DefinitionRow, QuestionForm } from '../components/definition-catalog.js';
import { IN_GAME_DEFINITIONS } from '../components/in-game-definition.js';
import { MATCH_DEFINITIONS } from '../components/match-definition.js';
import { useLocation } from '../router.js';

type Group = components['schemas']['QuestionGroup'];

type Catalog = components['schemas']['SampleCatalog'];
type Stored = DefinitionRow & { league: string };
/** What the editor uses of a kind. */
type EditorKind<D extends Stored, I> = Pick<
  DefinitionKind<never, D, I>,
  'page' | 'get' | 'create' | 'replace' | 'blankInput' | 'inputOf' | 'newLabel' | 'newHeading' | 'questionLabels' | 'Fields' | 'Preview'
>;

/** The editor of a kind's definition (a new one when `definition` is null): the form and its save, in the shared frame, with the kind's fields and preview. */
function DefinitionEditor<D extends Stored, I extends QuestionForm & { description?: string | null }>({
  kind,
  league,
  definition,
  groups,
  catalog,
  flash,
  onSaved,
  onClose,
}: {
  kind: EditorKind<D, I>;
  league: string;
  definition: D | null;
  groups: Group[];
  catalog: Catalog | undefined;
  flash: string | null;
  onSaved: (d: D) => void;
  onClose: () => void;
}) {
  const editor = useDefinitionForm<I, D>(
    () => (definition ? kind.inputOf(definition) : kind.blankInput(catalog)),
    flash,
    (body) => (definition ? kind.replace(definition.id, body) : kind.create(league, body)),
    onSaved,
  );
  return (
    <DefinitionEditorFrame
      label={definition ? `Edit ${definition.name}` : kind.newLabel}
      heading={definition ? `Edit "${definition.name}"` : kind.newHeading}
      league={league}
      creating={!definition}
      editor={editor}
      onClose={onClose}
      preview={<kind.Preview league={league} form={editor.form} catalog={catalog} />}
    >
      <kind.Fields
        form={editor.form}
        set={editor.set}
        question={<QuestionFields form={editor.form} set={editor.set} labels={kind.questionLabels} />}
        definition={definition}
        groups={groups}
        catalog={catalog}
      />
    </DefinitionEditorFrame>
  );
}

/** Loads the definition `id` (none for `new`), the league's groups and its sample catalog, then opens the editor. */
function KindEditor<D extends Stored, I extends QuestionForm & { description?: string | null }>({
  kind,
  league,
  id,
  flash,
  onSaved,
  onClose,
}: DefinitionEditorProps & { kind: EditorKind<D, I> }) {
  return (
    <EditorLoader
      load={async () => {
        const [definition, groups, catalog] = await Promise.all([
          id === 'new' ? Promise.resolve(null) : kind.get(id),
          loadGroups(league),
          loadSampleCatalog(league),
        ]);
        return { definition, groups, catalog };
      }}
      deps={[league, id]}
      onClose={onClose}
      render={({ definition, groups, catalog }) =>
        definition && definition.league !== league ? (
          <OtherLeagueNotice definition={definition} page={kind.page} />
        ) : (
          <DefinitionEditor
            key={definition?.id ?? 'new'}
            kind={kind}
            league={league}
            definition={definition}
            groups={groups}
            catalog={catalog}
            flash={flash}
            onSaved={onSaved}
            onClose={onClose}
          />
        )
      }
    />
  );
}

function DefinitionsPage<Item extends DefinitionRow & { group_id: string | null }, D extends Stored, I extends QuestionForm & { description?: string | null }>({
  kind,
}: {
  kind: DefinitionKind<Item, D, I>;
}) {
  const { query } = useLocation();
  const league = useLeagueParam(query);
  const pivotal = query.get('pivotal') ?? '';
  const listQuery = definitionListQuery(query);
  const list = useAsync(async () => {
    if (!league) return { rows: [] as Item[], groups: [] as Group[] };
    const [rows, groups] = await Promise.all([
      kind.list(league, { ...listQuery, ...(pivotal ? { is_pivotal_moment: pivotal === 'true' } : {}) }),
      kind.showsGroups ? loadGroups(league) : [],
    ]);
    return { rows, groups };
  }, [league, JSON.stringify(listQuery), pivotal]);
  const groupSlug = (id: string | null) => (id ? (list.data?.groups.find((g) => g.id === id)?.slug ?? id.slice(0, 8)) : '-');
  return (
    <DefinitionListPage
      kind={kind}
      query={query}
      league={league}
      list={{ rows: list.data?.rows, error: list.error, loading: list.loading, reload: list.reload }}
      editor={(props) => <KindEditor kind={kind} {...props} />}
      columns={kind.columns(groupSlug)}
    />
  );
}

// One component per kind, so that moving from one kind's page to the other's starts afresh.
export const InGameDefinitionsPage = () => <DefinitionsPage kind={IN_GAME_DEFINITIONS} />;
export const MatchDefinitionsPage = () => <DefinitionsPage kind={MATCH_DEFINITIONS} />;
