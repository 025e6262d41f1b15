/** Demo data for `npm start` on an empty database: brands to look at, and who sponsors what. Idempotent. */
import { insertBrandsIfAbsent } from '../modules/brands/brands.public.js';
import type { Services } from '../services.js';

const DEMO_BRANDS = [
  { name: 'Acme Sports Drinks', primaryColor: '#ff5500', secondaryColor: '#002244' },
  { name: 'Northwind Airlines', primaryColor: '#0b6e4f', secondaryColor: '#f2f2f2' },
  { name: 'Globex Bank', primaryColor: '#1d3557', secondaryColor: '#e63946' },
];

export async function seedDemoData(services: Services): Promise<void> {
  const { db } = services.database;
  // A brand of that name already exists: kept.
  await insertBrandsIfAbsent({ db, values: DEMO_BRANDS });
}

/** Who sponsors the live demo matches: the whole match, and question slots (the 1st and 3rd questions). */
export const DEMO_SPONSORS = { match: 'Acme Sports Drinks', questions: 'Northwind Airlines', questionNumbers: [1, 3] } as const;

/**
 * Makes a demo match sponsored, as an operator would through the API: a
 * whole-match sponsor and question slots of another brand, so players see
 * both sponsor fields filled. Skipped (logged) when the demo brands are gone.
 */
export async function sponsorDemoMatch(services: Services, matchId: string): Promise<void> {
  const byName = new Map((await services.brands.list()).map((b) => [b.name, b.id]));
  const matchSponsor = byName.get(DEMO_SPONSORS.match);
  const questionSponsor = byName.get(DEMO_SPONSORS.questions);
  if (!matchSponsor || !questionSponsor) {
    services.logger.info('demo: the demo brands were removed; the live match runs without sponsors');
    return;
  }
  await services.matches.update(matchId, { sponsor_brand_id: matchSponsor }, null);
  await services.sponsorships.assign({
    brandId: questionSponsor,
    input: {
      match_ids: [matchId],
      replace_existing_for_brand: true,
      slots: DEMO_SPONSORS.questionNumbers.map((n) => ({ strategy: 'question_number', target: n, best_effort: true })),
    },
  });
}
