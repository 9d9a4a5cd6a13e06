import { apiPaths } from '../../contract/api-paths';
import { http } from './http';
import { readStorage, storageKeys } from './storage';
import { endSession } from './session';

/**
 * The user's 'Logout': ends the session on the server (POST api/user/Logout, so the token stops
 * working everywhere, not just in this tab) and here at once. The page does not wait for the
 * server: a network failure or an already-ended session still signs the user out locally.
 */
export function logout(): Promise<void> {
  const token = readStorage(storageKeys.token);
  const request = token
    ? http
        .post(apiPaths.user.logout, null, {
          headers: { Authorization: `Bearer ${token}` },
          // The answer changes nothing here: no session toast or redirect for it.
          skipSessionRedirect: true,
        })
        .then(() => undefined)
        .catch(() => undefined)
    : Promise.resolve();
  endSession('logout');
  return request;
}
