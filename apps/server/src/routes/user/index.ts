/** The caller's own account (personalInformation): one plugin per concern. */
import type { FastifyPluginAsync } from 'fastify';
import { passwordRoutes } from './passwords.js';
import { profileRoutes } from './profile.js';
import { sessionRoutes } from './sessions.js';
import { twoFactorRoutes } from './two-factor.js';

export const userRoutes: FastifyPluginAsync = async (app) => {
  await app.register(profileRoutes);
  await app.register(passwordRoutes);
  await app.register(twoFactorRoutes);
  await app.register(sessionRoutes);
};
