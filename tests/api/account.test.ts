/**
 * A player's account lifecycle, end to end through the contract, with mail
 * delivered over SMTP (the service's nodemailer client, SMTP_URL) to a real
 * SMTP server the tests start: "forgot password", email verification (and
 * what an unverified account may not do), the mail budgets, a copy of one's
 * data, and deleting one's account (what goes, what stays anonymised).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createMailer } from '../../src/mail/mailer.js';
import { accountErrors } from '../../src/modules/account/account.errors.js';
import { accountTokens } from '../../src/modules/auth/auth.table.js';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { playerGroupMembers } from '../../src/modules/player-groups/player-groups.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import type { Logger } from '../../src/logger.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, follow } from '../helpers/factories.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp-server.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

let smtp: TestSmtp;
let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  smtp = await startSmtp();
  const defaults = loadConfig({ APP_ENV: 'test' }).mail;
  app = await startTestApp({ config: { mail: { ...defaults, smtpUrl: smtp.url, maxPerRecipient: 3, maxPerIp: 1000 } } });
  admin = await createAdmin(app);
});

afterAll(async () => {
  await app?.services.mailer.close();
  await app?.close();
  await smtp?.close();
});

const db = () => app.services.database.db;
const me = (token: string) => app.request('GET', '/api/users/me', { token });
const RESET = 'Reset your Question-Play password';
const VERIFY = 'Confirm your email for Question-Play';
const login = (username: string, password: string) => app.request('POST', '/api/auth/login', { body: { username, password } });

describe('forgot password', () => {
  it('mails a single-use link whatever the letter case; the link sets a new password, revokes every key and verifies the email', async () => {
    const p = await registerUser(app);
    await smtp.take(p.email, VERIFY); // the registration's
    const second = (await login(p.username, p.password)).body.api_key as string;
    expect((await app.request('POST', '/api/auth/password-reset', { body: { email: p.email.toUpperCase() } })).status).toBe(202);
    const mail = await smtp.take(p.email, RESET);
    expect(mail.text).toContain(`${app.config.mail.playerAppUrl}/reset-password?token=`);
    expect(mail.token).toMatch(/^qpm_/);

    const reset = await app.request('POST', '/api/auth/password-reset/confirm', { body: { token: mail.token, password: 'a brand new password' } });
    expect(reset.status).toBe(200);
    expect(reset.body.user).toMatchObject({ id: p.id, email_verified: true });
    // Every earlier key is revoked; the new one works; the old password does not.
    expectError(await me(p.token), authErrors.unauthorized);
    expectError(await me(second), authErrors.unauthorized);
    expect((await me(reset.body.api_key)).status).toBe(200);
    expectError(await login(p.username, p.password), authErrors.invalidCredentials);
    expect((await login(p.username, 'a brand new password')).status).toBe(200);
    // Single use.
    expectError(
      await app.request('POST', '/api/auth/password-reset/confirm', { body: { token: mail.token, password: 'yet another one' } }),
      accountErrors.resetTokenInvalid,
    );
  });

  it('answers an unknown address exactly as a known one, and mails nobody', async () => {
    const p = await registerUser(app, { verified: true });
    const unknown = await app.request('POST', '/api/auth/password-reset', { body: { email: 'nobody-at-all@example.com' } });
    const known = await app.request('POST', '/api/auth/password-reset', { body: { email: p.email } });
    expect([unknown.status, unknown.text]).toEqual([known.status, known.text]);
    await smtp.take(p.email, RESET);
    await app.services.mailer.idle();
    expect(smtp.waiting('nobody-at-all@example.com')).toEqual([]);
  });

  it('refuses an expired link and an earlier one once a later one was asked for, and the link of an account deactivated since', async () => {
    const p = await registerUser(app, { verified: true });
    await app.request('POST', '/api/auth/password-reset', { body: { email: p.email } });
    const first = (await smtp.take(p.email, RESET)).token!;
    await app.request('POST', '/api/auth/password-reset', { body: { email: p.email } });
    const latest = (await smtp.take(p.email, RESET)).token!;
    const use = (token: string) => app.request('POST', '/api/auth/password-reset/confirm', { body: { token, password: 'long enough pw' } });
    expectError(await use(first), accountErrors.resetTokenInvalid);
    await db()
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, p.id));
    expectError(await use(latest), accountErrors.resetTokenInvalid);
    expectError(await use('qpm_not-a-token'), accountErrors.resetTokenInvalid);

    await app.request('POST', '/api/auth/password-reset', { body: { email: p.email } });
    const again = (await smtp.take(p.email, RESET)).token!;
    expect((await app.request('DELETE', `/api/users/${p.id}`, { token: admin.token })).status).toBe(204);
    expectError(await use(again), accountErrors.resetTokenInvalid);
  });

  it('counts mails against the recipient from one address, before looking the address up (429 with Retry-After)', async () => {
    const ask = (email: string) => app.request('POST', '/api/auth/password-reset', { body: { email } });
    for (let i = 0; i < 3; i++) expect((await ask('budget-probe@example.com')).status).toBe(202);
    const refused = await ask('BUDGET-probe@example.com');
    expectError(refused, authErrors.tooManyMails);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('email verification', () => {
  it('mails a link at registration; until it is used the account cannot create or join private groups; then it can', async () => {
    const p = await registerUser(app);
    const mail = await smtp.take(p.email, VERIFY);
    expect(mail.text).toContain('/verify-email?token=');
    expect((await me(p.token)).body.email_verified).toBe(false);
    expectError(await app.request('POST', '/api/player-groups', { token: p.token, body: { name: 'Mine' } }), accountErrors.emailUnverified);
    expectError(await app.request('POST', '/api/player-groups/join', { token: p.token, body: { invite_code: 'AAAA-AAAA-AA' } }), accountErrors.emailUnverified);

    expect((await app.request('POST', '/api/auth/email-verification/confirm', { body: { token: mail.token } })).status).toBe(204);
    expect((await me(p.token)).body.email_verified).toBe(true);
    expect((await app.request('POST', '/api/player-groups', { token: p.token, body: { name: 'Mine' } })).status).toBe(201);
    expectError(await app.request('POST', '/api/auth/email-verification', { token: p.token }), accountErrors.alreadyVerified);
    expectError(await app.request('POST', '/api/auth/email-verification/confirm', { body: { token: mail.token } }), accountErrors.verificationTokenInvalid);
  });

  it('makes a new email unverified and mails it; a link sent to the old address verifies nothing', async () => {
    const p = await registerUser(app);
    const old = await smtp.take(p.email, VERIFY);
    expect((await app.request('POST', '/api/auth/email-verification', { token: p.token })).status).toBe(202);
    const resent = await smtp.take(p.email, VERIFY);
    const changed = await app.request('PATCH', '/api/users/me', { token: p.token, body: { email: `new-${p.email}` } });
    expect(changed.body).toMatchObject({ email: `new-${p.email}`, email_verified: false });
    const fresh = await smtp.take(`new-${p.email}`, VERIFY);
    expectError(await app.request('POST', '/api/auth/email-verification/confirm', { body: { token: resent.token } }), accountErrors.verificationTokenInvalid);
    expectError(await app.request('POST', '/api/auth/email-verification/confirm', { body: { token: old.token } }), accountErrors.verificationTokenInvalid);
    expect((await app.request('POST', '/api/auth/email-verification/confirm', { body: { token: fresh.token } })).status).toBe(204);
    expect((await me(p.token)).body.email_verified).toBe(true);
    // An admin's change re-verifies too.
    const byAdmin = await app.request('PATCH', `/api/users/${p.id}`, { token: admin.token, body: { email: `admin-set-${p.email}` } });
    expect(byAdmin.body.email_verified).toBe(false);
    await smtp.take(`admin-set-${p.email}`, VERIFY);
  });
});

describe('the mailer without SMTP_URL', () => {
  const capture = () => {
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const at = (level: string) => (obj: Record<string, unknown>, msg: string) => lines.push({ level, obj, msg });
    return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } as unknown as Logger };
  };
  const config = { ...loadConfig({ APP_ENV: 'test' }).mail, smtpUrl: null };

  it('logs the mail, link included, in development, and only that it went unsent in production', async () => {
    const dev = capture();
    const mailer = createMailer({ config, appEnv: 'development', logger: dev.logger });
    mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'http://app/reset-password?token=qpm_x' });
    await mailer.idle();
    expect(dev.lines).toEqual([
      expect.objectContaining({ level: 'info', obj: expect.objectContaining({ to: 'a@example.com', text: expect.stringContaining('token=qpm_x') }) }),
    ]);
    const prod = capture();
    const quiet = createMailer({ config, appEnv: 'main', logger: prod.logger });
    quiet.send({ to: 'a@example.com', subject: 'Hi', text: 'http://app/reset-password?token=qpm_x' });
    await quiet.idle();
    expect(JSON.stringify(prod.lines)).not.toContain('qpm_x');
    expect(JSON.stringify(prod.lines)).not.toContain('a@example.com');
    expect(prod.lines[0]).toMatchObject({ level: 'warn', msg: 'mail not sent: SMTP_URL is unset' });
  });
});

describe('a copy of one’s data', () => {
  it('answers everything kept about the caller as an attachment', async () => {
    const p = await registerUser(app, { verified: true });
    const match = await createMatch(app, { status: 'live', scheduled: new Date(Date.now() - 60_000) });
    await follow(app, p.id, match.id);
    const q = await insertIssuance(app, { matchId: match.id });
    await app.request('PUT', '/api/question-answers', { token: p.token, body: { question_issuance_id: q.id, selected_answer_identifier: 'home' } });
    await app.request('POST', '/api/player-groups', { token: p.token, body: { name: 'Export club' } });
    const res = await app.request('GET', '/api/users/me/data-export', { token: p.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="?question-play-data-\d{4}-\d{2}-\d{2}\.json"?$/);
    expect(res.body.user).toMatchObject({ id: p.id, email: p.email });
    expect(res.body.answers).toEqual([expect.objectContaining({ question_issuance_id: q.id, selected_answer_identifier: 'home' })]);
    expect(res.body.follows).toEqual([expect.objectContaining({ match_id: match.id, following: true })]);
    expect(res.body.player_groups).toEqual([expect.objectContaining({ name: 'Export club', is_owner: true })]);
    expect(res.body.leaderboard_positions.user_id).toBe(p.id);
  });
});

describe('deleting one’s account', () => {
  it('needs the password, refuses admins, and then anonymises the account, keeping boards and other players consistent', async () => {
    const [p, rival, friend] = [
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
    ];
    await app.request('PATCH', '/api/users/me', { token: p.token, body: { display_name: 'Soon Gone', first_name: 'Pat', postal_address: '1 Street' } });
    const match = await createMatch(app, { status: 'live', scheduled: new Date(Date.now() - 60_000) });
    for (const u of [p, rival]) await follow(app, u.id, match.id);
    const q = await insertIssuance(app, { matchId: match.id });
    for (const [u, c] of [
      [p, 'home'],
      [rival, 'away'],
    ] as const)
      await app.request('PUT', '/api/question-answers', { token: u.token, body: { question_issuance_id: q.id, selected_answer_identifier: c } });
    await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
    await app.services.leaderboards.drain();
    const group = (await app.request('POST', '/api/player-groups', { token: p.token, body: { name: 'Handed over' } })).body;
    await app.request('POST', '/api/player-groups/join', { token: friend.token, body: { invite_code: group.invite_code } });
    expect((await app.request('GET', `/api/leaderboards/matches/${match.id}`)).body.rows.map((r: { user_id: string }) => r.user_id)).toEqual([p.id, rival.id]);

    expectError(
      await app.request('POST', '/api/users/me/deletion', { token: p.token, body: { password: 'not the password' } }),
      accountErrors.passwordMismatch,
    );
    expectError(
      await app.request('POST', '/api/users/me/deletion', { token: admin.token, body: { password: admin.password } }),
      accountErrors.adminCannotDelete,
    );
    expect((await app.request('POST', '/api/users/me/deletion', { token: p.token, body: { password: p.password } })).status).toBe(204);

    // Gone: the key, the login, the personal fields; the names and the email are free again.
    expectError(await me(p.token), authErrors.unauthorized);
    expectError(await login(p.username, p.password), authErrors.invalidCredentials);
    const row = (await app.request('GET', `/api/users/${p.id}`, { token: admin.token })).body;
    expect(row).toMatchObject({
      username: null,
      display_name: null,
      first_name: null,
      postal_address: null,
      email: `deleted-${p.id}@deleted.invalid`,
      is_active: false,
      email_verified: false,
    });
    expect(row.deleted_at).not.toBeNull();
    // What is left is history, not an account: an admin cannot bring it back.
    expectError(await app.request('PATCH', `/api/users/${p.id}`, { token: admin.token, body: { is_active: true } }), userErrors.deleted);
    const again = await app.request('POST', '/api/auth/register', { body: { username: p.username, email: p.email, password: 'long enough pw' } });
    expect(again.status).toBe(201);
    expect((await app.request('PATCH', '/api/users/me', { token: again.body.api_key, body: { display_name: 'Soon Gone' } })).status).toBe(200);

    // Boards rank the others as if the account had never played; the crowd still counts its answer.
    const board = (await app.request('GET', `/api/leaderboards/matches/${match.id}`)).body;
    expect(board.rows.map((r: { user_id: string; rank: number }) => [r.user_id, r.rank])).toEqual([[rival.id, 1]]);
    const history = (await app.request('GET', '/api/question-answers', { token: rival.token })).body;
    expect(history[0].crowd).toMatchObject({ answer_count: 2 });
    // The group passed to the member who remained.
    const members = await db().select().from(playerGroupMembers).where(eq(playerGroupMembers.groupId, group.id));
    expect(members.map((m) => m.userId)).toEqual([friend.id]);
    expect((await app.request('GET', `/api/player-groups/${group.id}`, { token: friend.token })).body).toMatchObject({ is_owner: true, member_count: 1 });
    const [stored] = await db().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, p.id));
    expect(stored!.passwordHash).toBeNull();
  });
});
