import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';

export const listenerHandlers = ({ listeners }: Services) =>
  ({
    listMatchListeners: async ({ query }) => ({
      status: 200,
      body: await listeners.grouped({ league: query.league, scheduledFrom: query.scheduled_from, scheduledTo: query.scheduled_to }),
    }),
    getMatchListenerLog: async ({ params, query }) => ({
      status: 200,
      body: await listeners.log({ listenerId: params.listener_id, after: query.after ?? 0, limit: query.limit ?? 1000 }),
    }),
    downloadMatchListenerLog: async ({ params }) => {
      const { filename, lines } = await listeners.logFile(params.listener_id);
      return { status: 200, contentType: 'text/plain', stream: lines, filename };
    },
    downloadMatchListenerEvents: async ({ params }) => {
      const { filename, recording } = await listeners.recording(params.listener_id);
      return { status: 200, body: recording, filename };
    },
  }) satisfies Partial<Handlers>;
