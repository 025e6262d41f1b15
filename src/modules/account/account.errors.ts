/** Every error of a player's own account lifecycle (mailed links, verification, deletion): its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const accountErrors = {
  /** One answer for an unknown, used or expired reset link and one whose account is no longer active. */
  resetTokenInvalid: errorFactory(400, 'account.reset_token_invalid', () => 'this reset link is invalid, used or expired; ask for a new one'),
  /** One answer for an unknown, used or expired verification link and one for an address the account no longer has. */
  verificationTokenInvalid: errorFactory(
    400,
    'account.verification_token_invalid',
    () => 'this verification link is invalid, used or expired; ask for a new one',
  ),
  alreadyVerified: errorFactory(409, 'account.email_already_verified', () => 'your email is already verified'),
  /** What an unverified account may not do (private groups). */
  emailUnverified: errorFactory(403, 'account.email_unverified', () => 'verify your email first (POST /api/auth/email-verification mails you a new link)'),
  passwordMismatch: errorFactory(403, 'account.password_mismatch', () => "this is not the account's password; the account is not deleted"),
  adminCannotDelete: errorFactory(
    409,
    'account.admin_cannot_delete',
    () => 'an admin account cannot delete itself; ask another admin to remove your admin flag first',
  ),
};
