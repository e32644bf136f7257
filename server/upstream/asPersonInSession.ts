// The brokerage as the person on the web (shared/asPerson.ts): the tokens live in the person's session, a
// renewed access token is kept there for the request's later calls and the next requests (the session is
// saved with the answer). Routing after identification and the customer-information page call through it;
// the workers bind the same rule to a run's sealed credentials (workers/runCredentials.ts).
import type { Logger } from 'pino';
import { asPerson, type AsPerson } from '../../shared/asPerson.ts';
import type { BrokerageClient } from './brokerageClient.ts';

/** The tokens of the person's session (server/journey.ts Journey). */
export interface SessionTokens {
  jwt?: string;
  refreshToken?: string;
}

/** One request's calls as the person: they share one refresh, and the request's deadline (server/infra/deadline.ts). */
export function asPersonInSession(brokerage: Pick<BrokerageClient, 'refreshToken'>, session: SessionTokens, logger: Logger): AsPerson {
  return asPerson(
    { refreshToken: (token) => brokerage.refreshToken(token), log: logger },
    {
      read: () => ({ accessToken: session.jwt, refreshToken: session.refreshToken }),
      keep: (jwt) => {
        session.jwt = jwt;
      },
    },
  );
}
