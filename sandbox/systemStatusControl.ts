// GET onboarding status (identification-routing-creation §3 {creationPaused, feedbackBanner}) and its test control.
// Public (our reading: the start page shows it before anyone identified): without a token it answers what POST
// /sandbox/system-status set. With a token, as the creation worker calls it, the token must be valid (401 otherwise) and
// the persona's own creationPaused is added. `failing` answers 503, for `failingForMs` when given (an outage that ends by
// itself), else until changed.
import express from 'express';
import { z } from 'zod';
import { brokeragePaths, systemStatusResponse } from '../shared/contracts/brokerageContract.ts';
import { authenticate, sendBrokerageError } from './brokerage.ts';
import type { SandboxContext, SystemStatusControl } from './state.ts';

const ALL_CLEAR: SystemStatusControl = { creationPaused: false, feedbackBanner: null, failing: false };

/** POST /sandbox/system-status: the whole status from now on (fields left out are all clear). */
const controlBody = z
  .object({
    creationPaused: z.boolean().default(false),
    feedbackBanner: z.string().min(1).max(100).nullable().default(null),
    failing: z.boolean().default(false),
    failingForMs: z.number().int().min(1).max(600_000).optional(),
  })
  .strict();

const isFailing = (control: SystemStatusControl, now: number) => control.failing && (control.failingUntil === undefined || now < control.failingUntil);

export function systemStatusRouter(ctx: SandboxContext): express.Router {
  const router = express.Router();
  const { state } = ctx;

  router.get(brokeragePaths.systemStatus, (req, res) => {
    const control = state.systemStatus.get('current') ?? ALL_CLEAR;
    if (isFailing(control, Date.now())) return sendBrokerageError(res, 503, 'The system status is unavailable');
    let personaPaused = false;
    if (req.get('authorization') !== undefined) {
      const session = authenticate(state, req, res);
      if (!session) return;
      personaPaused = session.persona.behaviour.creationPaused ?? false;
    }
    res.json(systemStatusResponse.parse({ creationPaused: control.creationPaused || personaPaused, feedbackBanner: control.feedbackBanner }));
  });

  router.post('/sandbox/system-status', (req, res) => {
    const body = controlBody.safeParse(req.body ?? {});
    if (!body.success)
      return void res
        .status(400)
        .json({ error: 'creationPaused (boolean), feedbackBanner (a string of 1–100 characters, or null), failing (boolean), failingForMs (1–600000)' });
    const { failingForMs, ...control } = body.data;
    state.systemStatus.set('current', failingForMs === undefined ? control : { ...control, failingUntil: Date.now() + failingForMs });
    res.json(body.data);
  });

  return router;
}
