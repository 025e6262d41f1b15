import type { Handlers } from '../../http/handler-types.js';
import { caller } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toFeedbackDto } from './feedback.mapper.js';

export const feedbackHandlers = ({ feedback }: Services) =>
  ({
    getUserFeedbackForm: async () => ({ status: 200, body: feedback.form() }),
    createUserFeedback: async (req) => ({ status: 201, body: toFeedbackDto(await feedback.create(caller(req).user, req.body)) }),
    listUserFeedback: async (req) => {
      const { rows, total } = await feedback.list(caller(req).user, req.query);
      return { status: 200, body: { feedback: rows.map(toFeedbackDto), feedback_count: total } };
    },
    getUserFeedback: async (req) => ({ status: 200, body: toFeedbackDto(await feedback.get(caller(req).user, req.params.id)) }),
  }) satisfies Partial<Handlers>;
