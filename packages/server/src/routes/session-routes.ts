import { z } from 'zod';
import { ok, type ServerRoute } from '../server-route';

/** What `GET /v1/session` returns: who the token is and which companies it sees. */
export const sessionSchema = z.object({
  tokenId: z.string(),
  role: z.enum(['operator', 'admin', 'agent']),
  actor: z.object({ kind: z.enum(['operator', 'company', 'agent']) }).loose(),
  companies: z.array(z.string()),
  allCompanies: z.boolean(),
});

/** `GET /v1/session`: the token's own view, the first call the inspector makes after sign-in. */
export const sessionRoutes: ServerRoute[] = [
  {
    method: 'get',
    path: '/v1/session',
    tag: 'session',
    operationId: 'session.get',
    summary: 'Who the token acts as, and which companies it sees (an operator of every company sees the companies named by issued tokens).',
    success: { status: 200, description: 'The session.', schema: sessionSchema },
    async handle({ token, context, knownCompanies }) {
      const allCompanies = token.role === 'operator' && token.companyIds === undefined;
      const companies = token.role === 'operator' ? (token.companyIds ?? (await knownCompanies())) : [token.companyId];
      const { actor } = context;
      const shown = actor.kind === 'operator' ? { kind: actor.kind, operatorId: actor.operatorId } : actor;
      return ok({ tokenId: token.id, role: token.role, actor: shown, companies: [...new Set(companies)].sort(), allCompanies });
    },
  },
];
