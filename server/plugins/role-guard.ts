import fp from 'fastify-plugin';
import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';

/**
 * 403 when the route lists roles and the caller's role is not among them; 401 when it lists roles
 * and nobody is signed in (fails closed: a route with roles is never reached anonymously, whatever
 * access it declares).
 */
export const roleGuardPlugin = fp(
  (app, _opts, done) => {
    app.addHook('onRequest', async (request) => {
      const roles = request.is404 ? undefined : request.routeOptions.config.roles;
      if (!roles) return;
      if (!request.auth) throw new HttpError(401, serverMessages.tokenMissing);
      if (!roles.includes(request.auth.roleId)) throw new HttpError(403, serverMessages.forbidden);
    });
    done();
  },
  { name: 'role-guard', dependencies: ['authentication'] },
);
