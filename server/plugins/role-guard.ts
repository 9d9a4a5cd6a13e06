import fp from 'fastify-plugin';
import { serverMessages } from '../../contract/messages';
import { HttpError } from '../lib/http-error';

/** 403 when the route lists roles and the caller's role is not among them. */
export const roleGuardPlugin = fp(
  (app, _opts, done) => {
    app.addHook('onRequest', async (request) => {
      const roles = request.routeOptions.config.roles;
      if (!roles || !request.auth) return;
      if (!roles.includes(request.auth.roleId)) throw new HttpError(403, serverMessages.forbidden);
    });
    done();
  },
  { name: 'role-guard', dependencies: ['authentication'] },
);
