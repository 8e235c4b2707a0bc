import { MESSAGES } from '../../common/messages.ts';
import type { RegisterInput } from '../../common/schemas.ts';

/**
 * The notice after registering, for the role chosen (issue 22): the spec's wording is the author's, who may
 * upload manuscripts at once; a researcher uploads nothing, so theirs leaves that sentence out. Server only
 * (the register page's action and the API): no page's script carries it.
 */
export function registrationNotice(role: RegisterInput['role']): string {
  return role === 'author'
    ? MESSAGES.registrationNotice
    : 'Registration successful. Access to published articles requires approval by the editorial board. You will be notified once your account is approved.';
}
