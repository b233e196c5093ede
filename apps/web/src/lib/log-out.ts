import { accountApi } from './api/account';
import { clearSession } from './session';

/**
 * Ends the session: the server forgets the token, the browser forgets everything of SEED-SPEC
 * section 4. A failed server call does not keep the user logged in locally.
 */
export async function logOut(): Promise<void> {
  try {
    await accountApi.logout();
  } catch {
    // Already logged (request client); the token will expire server-side on its own.
  } finally {
    clearSession();
  }
}
