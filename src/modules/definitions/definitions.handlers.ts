import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import { IN_GAME } from './in-game.kind.js';

const { toDto: toQuestionDefinitionDto, list: { toItem: toQuestionDefinitionSummary } } = IN_GAME;

const dto = (row: Parameters<typeof toQuestionDefinitionDto>[0] & { leagueSlug: string }) => toQuestionDefinitionDto(row, row.leagueSlug);

export const definitionHandlers = ({ definitions }: Services) =>
  ({
    listQuestionDefinitions: async ({ query }) => {
      const { league, rows } = await definitions.list(query);
      return { status: 200, body: rows.map((row) => toQuestionDefinitionSummary(row, league)) };
    },
    createQuestionDefinition: async ({ query, body }) => ({ status: 201, body: dto(await definitions.create(query.league, body)) }),
    getQuestionDefinition: async ({ params }) => ({ status: 200, body: dto(await definitions.get(params.definition_id)) }),
    replaceQuestionDefinition: async ({ params, body }) => ({ status: 200, body: dto(await definitions.replace(params.definition_id, body)) }),
    deleteQuestionDefinition: async ({ params }) => {
      await definitions.delete(params.definition_id);
      return { status: 204 };
    },
    cloneQuestionDefinition: async ({ params, body }) => ({ status: 201, body: dto(await definitions.clone(params.definition_id, body?.name)) }),
    archiveQuestionDefinition: async ({ params }) => ({ status: 200, body: dto(await definitions.archive(params.definition_id)) }),
    activateQuestionDefinition: async ({ params }) => ({ status: 200, body: dto(await definitions.activate(params.definition_id)) }),
    exportQuestionDefinitions: async () => ({ status: 200, contentType: 'text/csv', stream: definitions.export(), filename: 'question-definitions.csv' }),
    importQuestionDefinitions: async ({ query, files }) => ({
      status: 200,
      body: await definitions.importCsv({ file: files.find((f) => f.field === 'file'), dryRun: query.dry_run ?? true }),
    }),
  }) satisfies Partial<Handlers>;
