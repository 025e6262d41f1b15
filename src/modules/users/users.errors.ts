/** Every error the users module answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const userErrors = {
  notFound: errorFactory(404, 'user.not_found', () => 'user not found'),
  /** Usernames and emails are unique without regard to case (register, profile, admin updates). */
  usernameTaken: errorFactory(409, 'user.username_taken', () => 'this username is already taken'),
  emailTaken: errorFactory(409, 'user.email_taken', () => 'this email is already registered'),
  /** A display name the rules refuse: `rule` says which, `length` the trimmed length for the length rule. */
  displayNameInvalid: errorFactory(400, 'user.display_name_invalid', (rule: 'invisible' | 'length' | 'email' | 'profane', limits?: { min: number; max: number; length: number }) => {
    switch (rule) {
      case 'invisible':
        return 'display_name must not contain control or invisible formatting characters';
      case 'length':
        return `display_name must be ${limits!.min} to ${limits!.max} characters once spaces are trimmed (it has ${limits!.length})`;
      case 'email':
        return 'display_name must not look like an email address';
      case 'profane':
        return 'display_name contains a word that is not allowed';
    }
  }),
  /** A player cannot change a display name an admin set. */
  displayNameLocked: errorFactory(409, 'user.display_name_locked', () => 'an admin has set your display name; it cannot be changed'),
  /** An admin may not lock themself out: `refused` is what they tried. */
  selfLockout: errorFactory(409, 'user.self_lockout', (refused: 'admin flag or deactivation' | 'deactivation') =>
    refused === 'deactivation'
      ? 'you cannot deactivate yourself; ask another admin'
      : 'you cannot remove your own admin flag or deactivate yourself; ask another admin',
  ),
};
