import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import { MATCH } from '../definitions/match.kind.js';
import type { MatchQuestionDefinitionRow } from '../definitions/match-definitions.table.js';

const toMatchQuestionDefinitionDto = MATCH.toDto;
const dto = (row: MatchQuestionDefinitionRow & { leagueSlug: string }) => toMatchQuestionDefinitionDto(row, row.leagueSlug);

export const matchDefinitionHandlers = ({ matchDefinitions }: Services) =>
  ({
    listMatchQuestionDefinitions: async ({ query }) => {
      const { league, rows } = await matchDefinitions.list(query);
      return { status: 200, body: rows.map((row) => toMatchQuestionDefinitionDto(row, league)) };
    },
    createMatchQuestionDefinition: async ({ query, body }) => ({ status: 201, body: dto(await matchDefinitions.create(query.league, body)) }),
    getMatchQuestionDefinition: async ({ params }) => ({ status: 200, body: dto(await matchDefinitions.get(params.definition_id)) }),
    replaceMatchQuestionDefinition: async ({ params, body }) => ({ status: 200, body: dto(await matchDefinitions.replace(params.definition_id, body)) }),
    deleteMatchQuestionDefinition: async ({ params }) => {
      await matchDefinitions.delete(params.definition_id);
      return { status: 204 };
    },
    cloneMatchQuestionDefinition: async ({ params, body }) => ({ status: 201, body: dto(await matchDefinitions.clone(params.definition_id, body?.name)) }),
    archiveMatchQuestionDefinition: async ({ params }) => ({ status: 200, body: dto(await matchDefinitions.archive(params.definition_id)) }),
    activateMatchQuestionDefinition: async ({ params }) => ({ status: 200, body: dto(await matchDefinitions.activate(params.definition_id)) }),
    exportMatchQuestionDefinitions: async () => ({ status: 200, contentType: 'text/csv', stream: matchDefinitions.export(), filename: 'match-question-definitions.csv' }),
    importMatchQuestionDefinitions: async ({ query, files }) => ({
      status: 200,
      body: await matchDefinitions.importCsv({ file: files.find((f) => f.field === 'file'), dryRun: query.dry_run ?? true }),
    }),
  }) satisfies Partial<Handlers>;
