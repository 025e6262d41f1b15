/** Every error the question groups module answers with, beside league.not_found and league.unsupported: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory, quote } from '../../errors.js';

export const groupErrors = {
  notFound: errorFactory(404, 'question_group.not_found', () => 'question group not found'),
  invalidSlug: errorFactory(
    400,
    'group.invalid_slug',
    (slug: string) => `slug must be 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter or digit; got ${quote(slug)}`,
  ),
  invalidName: errorFactory(400, 'group.invalid_name', () => 'name must not be blank'),
  slugTaken: errorFactory(
    409,
    'group.slug_taken',
    (leagueSlug: string, slug: string) => `league '${leagueSlug}' already has a question group with slug ${quote(slug)}`,
  ),
  slugImmutable: errorFactory(400, 'group.slug_immutable', (current: string) => `slug cannot change (it is '${current}'); create a new group instead`),
  /** Definitions still point at the group; `count` when known (null: a reference committed meanwhile). */
  inUse: errorFactory(409, 'group.in_use', (slug: string, count: number | null) => {
    const what = count === null ? 'question definitions' : `${count} question definition${count === 1 ? '' : 's'}`;
    return `question group '${slug}' is used by ${what}; move them to another group (or none) before deleting it`;
  }),
};
