import type { Handlers } from '../../http/handler-types.js';
import { caller } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toHistoryItem, toOpenQuestion, toQuestionAnswerDto } from './answers.mapper.js';

export const answerHandlers = ({ answers, users }: Services) =>
  ({
    upsertQuestionAnswer: async (req) => {
      const { answer, created } = await answers.answer({
        user: caller(req).user,
        issuanceId: req.body.question_issuance_id,
        choice: req.body.selected_answer_identifier,
      });
      return created ? { status: 201, body: toQuestionAnswerDto(answer) } : { status: 200, body: toQuestionAnswerDto(answer) };
    },
    listOpenQuestions: async (req) => {
      const now = new Date();
      return { status: 200, body: (await answers.open(caller(req).user)).map((row) => toOpenQuestion(row, now)) };
    },
    listQuestionAnswers: async (req) => ({
      status: 200,
      body: (await answers.history({ userId: caller(req).user.id, limit: req.query.limit, offset: req.query.offset, matchId: req.query.match_id })).map(
        toHistoryItem,
      ),
    }),
    getCurrentUserPoints: async (req) => ({ status: 200, body: await answers.points(caller(req).user) }),
    getUserPoints: async ({ params }) => ({ status: 200, body: await answers.points(await users.get(params.user_id)) }),
    listUserQuestionAnswers: async ({ params, query }) => {
      const user = await users.get(params.user_id);
      return {
        status: 200,
        body: (await answers.history({ userId: user.id, limit: query.limit, offset: query.offset, matchId: query.match_id })).map(toHistoryItem),
      };
    },
  }) satisfies Partial<Handlers>;
