import type { Handlers } from '../../http/handler-types.js';
import { getSampleCatalog, previewQuestion } from './catalog.service.js';

/** The sample catalog and the preview need no services: they read no rows and write none. */
export const catalogHandlers = () =>
  ({
    getQuestionSampleCatalog: async ({ query }) => ({
      status: 200,
      body: getSampleCatalog({ league: query.league, includeSamples: query.include_samples ?? true }),
    }),
    previewQuestionDefinition: async ({ body }) => ({ status: 200, body: await previewQuestion(body) }),
  }) satisfies Partial<Handlers>;
