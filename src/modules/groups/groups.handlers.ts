import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import { toQuestionGroupDto } from './groups.mapper.js';

export const groupHandlers = ({ groups }: Services) =>
  ({
    listQuestionGroups: async ({ query }) => {
      const { league, groups: rows } = await groups.list(query.league);
      return { status: 200, body: rows.map((row) => toQuestionGroupDto(row, league)) };
    },
    createQuestionGroup: async ({ query, body }) => {
      const { league, group } = await groups.create(query.league, body);
      return { status: 201, body: toQuestionGroupDto(group, league) };
    },
    exportQuestionGroups: async () => ({ status: 200, contentType: 'text/csv', stream: groups.export(), filename: 'question-groups.csv' }),
    getQuestionGroup: async ({ params }) => {
      const row = await groups.get(params.group_id);
      return { status: 200, body: toQuestionGroupDto(row, row.leagueSlug) };
    },
    updateQuestionGroup: async ({ params, body }) => {
      const row = await groups.update(params.group_id, body);
      return { status: 200, body: toQuestionGroupDto(row, row.leagueSlug) };
    },
    deleteQuestionGroup: async ({ params }) => {
      await groups.delete(params.group_id);
      return { status: 204 };
    },
  }) satisfies Partial<Handlers>;
