/** The mails of the account lifecycle: a link to the player app carrying a single-use token. */
import type { Mail } from '../../mail/mailer.js';

const link = (base: string, page: string, token: string) => `${base}/${page}?token=${encodeURIComponent(token)}`;

export function passwordResetMail({ to, appUrl, token, minutes }: { to: string; appUrl: string; token: string; minutes: number }): Mail {
  return {
    to,
    subject: 'Reset your Question-Play password',
    text: [
      'Someone (we hope you) asked to reset the password of your Question-Play account.',
      '',
      `Choose a new password here (the link works once, for ${minutes} minutes):`,
      link(appUrl, 'reset-password', token),
      '',
      'If it was not you, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

export function verificationMail({ to, appUrl, token, hours }: { to: string; appUrl: string; token: string; hours: number }): Mail {
  return {
    to,
    subject: 'Confirm your email for Question-Play',
    text: [
      'Confirm that this is your email address for Question-Play',
      `(the link works once, for ${hours} hours):`,
      link(appUrl, 'verify-email', token),
      '',
      'If you did not sign up or change your email, ignore this mail.',
    ].join('\n'),
  };
}
