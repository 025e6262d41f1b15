/** Every error the question sponsorships module answers with, beside brand.not_found and match.not_found: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const sponsorshipErrors = {
  slotsAndRandom: errorFactory(400, 'sponsorship.slots_and_random', () => 'give either slots or random_percent, not both'),
  nothingToAssign: errorFactory(
    400,
    'sponsorship.nothing_to_assign',
    () => 'give slots or random_percent; to clear the brand\'s slots on these matches send "slots": [] with replace_existing_for_brand true',
  ),
  matchNotEditable: errorFactory(
    400,
    'sponsorship.match_not_editable',
    (matchId: string, status: string) => `match ${matchId} is ${status}: question sponsorships can be changed only while a match is scheduled or postponed`,
  ),
  /** A slot's target that does not fit its strategy or its match; `slot` names it (`slots[2]`, `slots[2] on match ...`). */
  invalidTarget: errorFactory(400, 'sponsorship.invalid_target', (slot: string, problem: string) => `${slot}: ${problem}`),
  duplicateNumber: errorFactory(
    409,
    'sponsorship.duplicate_number',
    (questionNumber: number) => `question number ${questionNumber} appears more than once in slots`,
  ),
  overCapacity: errorFactory(
    409,
    'sponsorship.over_capacity',
    (matchId: string, cap: number, staying: number, added: number) =>
      `match ${matchId} allows ${cap} sponsored questions: ${staying} slots stay and ${added} would be added`,
  ),
  notEnoughNumbers: errorFactory(
    409,
    'sponsorship.not_enough_numbers',
    (matchId: string, count: number, free: number, cap: number) =>
      `match ${matchId}: ${count} random slots need ${count} free question numbers, only ${free} of 1..${cap} are free`,
  ),
  /** `taken` names the number and the match when the database told them. */
  numberTaken: errorFactory(409, 'sponsorship.number_taken', (taken?: { questionNumber: string; matchId: string }) =>
    taken
      ? `question number ${taken.questionNumber} is already sponsored on match ${taken.matchId}`
      : 'a question number in slots is already sponsored on its match',
  ),
};
