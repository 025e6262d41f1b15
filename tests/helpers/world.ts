/**
 * One of everything the contract's operations name by id (a brand, matches,
 * definitions of both kinds, a group, a listener, an open question, a
 * settled answer with feedback, a device), so that requests built from the
 * contract alone (its examples, or generated from its schemas) name things
 * that exist and reach the operations' own rules rather than a 404.
 */
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import type { TestApp, TestUser } from './test-app.js';
import { createAdmin, registerUser } from './test-app.js';
import { generateMailToken } from '../../src/modules/auth/credentials.js';
import { accountTokens } from '../../src/modules/auth/auth.table.js';
import { createInGameDefinition, createInLeague, createMatchDefinition } from './definitions.js';
import { feedEvent, insertIssuance, insertListener, insertListenerEvents } from './engine-rows.js';
import { createMatch, follow, leagueBySlug } from './factories.js';

/** The smallest PNG (1x1, transparent): a logo the service takes. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export interface World {
  admin: TestUser;
  /** A player who follows `matchId` and has an open question on it, a settled answer with feedback, and a device. */
  player: TestUser;
  /** Another player: the user operations by id work on (patched, deactivated) without touching the two above. */
  victim: TestUser;
  leagueSlug: string;
  leagueId: string;
  brandId: string;
  /** Scheduled, in the future, of league wc: editable, followable. */
  matchId: string;
  /** Closed, with a recorded feed: what can be cloned. */
  closedMatchId: string;
  /** A test match (a clone): what can be started and deleted. */
  testMatchId: string;
  definitionId: string;
  matchDefinitionId: string;
  groupId: string;
  listenerId: string;
  issuanceId: string;
  answerId: string;
  feedbackId: string;
  deviceId: string;
  /** A private group the player owns, with the victim as a member. */
  playerGroupId: string;
  inviteCode: string;
  /** Mailed links of a player of their own (not the two above): a password reset and an email verification. */
  resetToken: string;
  verifyToken: string;
}

export async function buildWorld(app: TestApp, admin?: TestUser): Promise<World> {
  const theAdmin = admin ?? (await createAdmin(app));
  const player = await registerUser(app, { verified: true });
  const victim = await registerUser(app, { verified: true });
  const league = await leagueBySlug(app, 'wc');
  const form = new FormData();
  form.set('name', `World brand ${Date.now().toString(36)}`);
  form.set('primary_color', '#ff5500');
  const brand = await app.request('POST', '/api/brands', { token: theAdmin.token, form });
  if (brand.status !== 201) throw new Error(`world: brand ${brand.status} ${brand.text}`);
  const match = await createMatch(app);
  const closed = await createMatch(app, { status: 'closed', scheduled: new Date(Date.now() - 86_400_000) });
  const testMatch = await createMatch(app, { isTest: true, createdByUserId: theAdmin.id });
  await follow(app, player.id, match.id);
  const definition = await createInGameDefinition(app, theAdmin, 'wc');
  const matchDefinition = await createMatchDefinition(app, theAdmin, 'wc');
  const group = await createInLeague(app, theAdmin, '/api/question-groups', 'wc', { slug: `world-${Date.now().toString(36)}`, name: 'World group' });
  const listener = await insertListener(app, { matchId: closed.id });
  await insertListenerEvents(app, listener, [feedEvent({ seq: 1, type: 'match_status', data: { status: 'live' } }), feedEvent({ seq: 2 })]);
  const open = await insertIssuance(app, { matchId: match.id, definitionId: definition.id, closesAt: new Date(Date.now() + 86_400_000) });
  const settled = await insertIssuance(app, { matchId: match.id, definitionId: definition.id, status: 'resolved' });
  const [answer] = await app.services.database.db
    .insert(questionAnswers)
    .values({
      userId: player.id,
      questionIssuanceId: settled.id,
      matchId: match.id,
      selectedAnswerIdentifier: 'home',
      outcome: 'correct',
      scoredAt: new Date(),
    })
    .returning();
  const feedback = await app.request('POST', '/api/user-feedback', {
    token: player.token,
    body: { subject_type: 'in_game_answer', subject_id: answer!.id, topic: 'wrong_result' },
  });
  if (feedback.status !== 201) throw new Error(`world: feedback ${feedback.status} ${feedback.text}`);
  const deviceId = 'world-device';
  const device = await app.request('POST', '/api/users/me/devices', {
    token: player.token,
    body: { device_id: deviceId, platform: 'android', token: 'world-token' },
  });
  if (device.status !== 201) throw new Error(`world: device ${device.status} ${device.text}`);
  const playerGroup = await app.request('POST', '/api/player-groups', { token: player.token, body: { name: 'World friends' } });
  if (playerGroup.status !== 201) throw new Error(`world: player group ${playerGroup.status} ${playerGroup.text}`);
  const joined = await app.request('POST', '/api/player-groups/join', { token: victim.token, body: { invite_code: playerGroup.body.invite_code } });
  if (joined.status !== 200) throw new Error(`world: join ${joined.status} ${joined.text}`);
  const mailed = await registerUser(app);
  const [resetLink, verifyLink] = [generateMailToken(), generateMailToken()];
  const inADay = new Date(Date.now() + 86_400_000);
  await app.services.database.db.insert(accountTokens).values([
    { userId: mailed.id, purpose: 'password_reset', tokenDigest: resetLink.digest, email: mailed.email, expiresAt: inADay },
    { userId: mailed.id, purpose: 'email_verification', tokenDigest: verifyLink.digest, email: mailed.email, expiresAt: inADay },
  ]);
  return {
    resetToken: resetLink.token,
    verifyToken: verifyLink.token,
    admin: theAdmin,
    player,
    victim,
    leagueSlug: 'wc',
    leagueId: league.id,
    brandId: brand.body.id,
    matchId: match.id,
    closedMatchId: closed.id,
    testMatchId: testMatch.id,
    definitionId: definition.id,
    matchDefinitionId: matchDefinition.id,
    groupId: group.id,
    listenerId: listener.id,
    issuanceId: open.id,
    answerId: answer!.id,
    feedbackId: feedback.body.id,
    deviceId,
    playerGroupId: playerGroup.body.id,
    inviteCode: playerGroup.body.invite_code,
  };
}

/** The id a path parameter of `method template` names in the world. */
export function pathId(world: World, method: string, template: string, name: string): string {
  switch (name) {
    case 'brand_id':
      return world.brandId;
    case 'match_id':
      if (template.endsWith('/clone')) return world.closedMatchId;
      if (template.endsWith('/start-listener') || (method.toUpperCase() === 'DELETE' && template === '/api/matches/{match_id}')) return world.testMatchId;
      return world.matchId;
    case 'definition_id':
      return template.startsWith('/api/match-question-definitions') ? world.matchDefinitionId : world.definitionId;
    case 'group_id':
      return world.groupId;
    case 'league_id':
      return world.leagueSlug;
    case 'listener_id':
      return world.listenerId;
    case 'user_id':
      return world.victim.id;
    case 'device_id':
      return world.deviceId;
    case 'id':
      return world.feedbackId;
    case 'player_group_id':
      return world.playerGroupId;
    default:
      throw new Error(`world: no id for path parameter ${name} of ${template}`);
  }
}

/**
 * The world's id for a body or query field that names a thing by id (by the
 * field's name), or undefined when the field names nothing the world has.
 */
export function fieldId(world: World, template: string, name: string): string | string[] | undefined {
  const matchKind = template.startsWith('/api/match-question-definitions');
  switch (name) {
    case 'match_id':
      return world.matchId;
    case 'match_ids':
      return [world.matchId];
    case 'group_id':
      return world.groupId;
    case 'sponsor_brand_id':
      return world.brandId;
    case 'question_issuance_id':
      return world.issuanceId;
    case 'subject_id':
      return world.answerId;
    case 'user_id':
      return world.victim.id;
    case 'definition_id':
      return matchKind ? world.matchDefinitionId : world.definitionId;
    case 'question_definition_allowlist':
      return [world.definitionId];
    case 'match_question_definition_allowlist':
      return [world.matchDefinitionId];
    case 'league':
      return world.leagueSlug;
    case 'invite_code':
      return world.inviteCode;
    case 'token':
      return template === '/api/auth/password-reset/confirm'
        ? world.resetToken
        : template === '/api/auth/email-verification/confirm'
          ? world.verifyToken
          : undefined;
    default:
      return undefined;
  }
}

/** `value` with every field that names a thing by id (at any depth) naming the world's. */
export function withWorldIds(world: World, template: string, value: unknown, name?: string): unknown {
  if (name !== undefined) {
    const id = fieldId(world, template, name);
    if (id !== undefined && (typeof value === 'string' || Array.isArray(value))) return id;
  }
  if (Array.isArray(value)) return value.map((v) => withWorldIds(world, template, v));
  if (value && typeof value === 'object') {
    const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withWorldIds(world, template, v, k)]));
    // A sponsorship slot on a definition names one of the world's.
    if ((out as { strategy?: unknown }).strategy === 'definition') (out as { target?: unknown }).target = world.definitionId;
    return out;
  }
  return value;
}
