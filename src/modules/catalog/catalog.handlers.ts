import type { Handlers } from '../../http/handler-types.js';
import { httpErrors } from '../../http/http.errors.js';
import { getSampleCatalog, PREVIEW_MAX_EXTRACTS, previewQuestion } from './catalog.service.js';

/** The sample catalog and the preview need no services: they read no rows and write none. */
export const catalogHandlers = () =>
  ({
    getQuestionSampleCatalog: async ({ query }) => ({
      status: 200,
      body: getSampleCatalog({ league: query.league, includeSamples: query.include_samples ?? true }),
    }),
    previewQuestionDefinition: async ({ body }) => {
      // The contract states this bound in prose (a `maxProperties` would be a breaking change of the released contract).
      const extracts = Object.keys(body.issuance_state_extract ?? {}).length;
      if (extracts > PREVIEW_MAX_EXTRACTS)
        throw httpErrors.invalid([
          {
            loc: ['body', 'issuance_state_extract'],
            msg: `must NOT have more than ${PREVIEW_MAX_EXTRACTS} properties (${extracts} given)`,
            type: 'maxProperties',
          },
        ]);
      return { status: 200, body: await previewQuestion(body) };
    },
  }) satisfies Partial<Handlers>;
