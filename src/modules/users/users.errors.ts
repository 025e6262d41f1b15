/** Every error the users module answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const userErrors = {
  notFound: errorFactory(404, 'user.not_found', () => 'user not found'),
  /** Usernames and emails are unique without regard to case (register, profile, admin updates). */
  usernameTaken: errorFactory(409, 'user.username_taken', () => 'this username is already taken'),
  emailTaken: errorFactory(409, 'user.email_taken', () => 'this email is already registered'),
  /** Names players are shown by are unique without regard to case: another player's username or display name (see user_names). */
  displayNameTaken: errorFactory(409, 'user.display_name_taken', () => 'another player is already shown by this name; choose another display_name'),
  /** A display name the service refuses; `problem` says which rule it breaks. */
  displayNameInvalid: errorFactory(400, 'user.display_name_invalid', (problem: string) => `display_name ${problem}`),
  /** A player may not change a display name an admin has set (and locked). */
  displayNameLocked: errorFactory(409, 'user.display_name_locked', () => 'an admin has set your display name; it cannot be changed'),
  /** A player deleted the account: what is left is anonymised history, not an account to change. */
  deleted: errorFactory(409, 'user.deleted', () => 'this account was deleted by its player; it cannot be changed or reactivated'),
  /** An admin may not lock themself out: `refused` is what they tried. */
  selfLockout: errorFactory(409, 'user.self_lockout', (refused: 'admin flag or deactivation' | 'deactivation') =>
    refused === 'deactivation'
      ? 'you cannot deactivate yourself; ask another admin'
      : 'you cannot remove your own admin flag or deactivate yourself; ask another admin',
  ),
};
