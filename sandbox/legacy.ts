// The legacy single form's calls to the brokerage API (customer-information §3, §4.9, §7, §8): POST regulation, PUT
// prospect v2 and the legacy POST signatures, plus the read-out GET /sandbox/legacy. Mounted from the brokerage router
// before its step-flow signature route, which shares the path: a prospect that is not a legacy (v2) one passes through
// untouched. State in state.legacyRegulations and state.legacyProspects. What each legacy persona answers:
// docs/sandbox.md "Legacy form personas".
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { accountTypeWithCountry, type AccountTypeWithCountry } from '../shared/contracts/brokerageContract.ts';
import {
  legacyPaths,
  legacySignatureRequest,
  legacySignatureResponse,
  prospectUpdateErrorBody,
  prospectUpdateRequest,
  prospectUpdateResponse,
  regulationRequest,
  regulationResponse,
  type ProspectFieldError,
} from '../shared/contracts/legacyContract.ts';
import type { KycRouteHelpers } from './kyc.ts';
import type { LegacyProspectRecord, LegacyRegulation, Prospect, SandboxContext, Session } from './state.ts';

/** What the brokerage router lends: the same helpers as the KYC router's. */
export type LegacyRouteHelpers = KycRouteHelpers & {
  /** Why an account choice is not offered in the country, or null (sandbox/brokerage.ts). */
  accountChoiceProblem(country: Prospect['country'], codes: readonly AccountTypeWithCountry[]): string | null;
};

const PROSPECT_PLACEHOLDER = '__prospectId__';
const pattern = (build: (prospectId: string) => string) => build(PROSPECT_PLACEHOLDER).replace(PROSPECT_PLACEHOLDER, ':prospectId');
const prospectIdParam = (req: Request): string | undefined => (typeof req.params.prospectId === 'string' ? req.params.prospectId : undefined);

const prospectIdQuery = (query: unknown) => {
  const id = (query as { prospectId?: unknown }).prospectId;
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : undefined;
};

export function legacyRouter(ctx: SandboxContext, helpers: LegacyRouteHelpers): express.Router {
  const router = express.Router();
  const { state } = ctx;
  const { requireSession, ownedProspect, parseOr400, send, sendError, accountChoiceProblem } = helpers;
  const sessionOf = (res: Response) => res.locals.session as Session;

  const recordOf = (prospect: Prospect): LegacyProspectRecord => {
    let record = state.legacyProspects.get(prospect.id);
    if (!record) {
      record = { updates: [], signatures: [] };
      state.legacyProspects.set(prospect.id, record);
    }
    return record;
  };

  /** The regulation this sandbox handed out to the person under that id. */
  const handedOut = (regulationId: string, nationalId: string): LegacyRegulation | undefined =>
    [...state.legacyRegulations.values()].find((r) => r.regulationId === regulationId && r.ownerNationalId === nationalId);

  /** The refusal of a prospect update: 400 { data: { fields: [{ code, field }], message } }. */
  const refuseUpdate = (res: Response, fields: ProspectFieldError[], message = 'The prospect could not be updated') =>
    send(res, prospectUpdateErrorBody, { data: { message, fields } }, 400);

  // --- regulation ---

  // The payload names no prospect: it is kept per person and tied to the person's latest legacy prospect (an update
  // naming its id ties it to that prospect). A regulation_id in the payload updates that regulation of the person's.
  router.post(legacyPaths.regulation, requireSession, (req, res) => {
    const body = parseOr400(regulationRequest, req.body, res);
    if (!body) return;
    const { persona } = sessionOf(res);
    if (body.jurisdiction !== persona.country) return sendError(res, 400, `The customer is registered in ${persona.country}`, ['jurisdiction']);
    const earlier = body.regulation_id === null ? undefined : handedOut(body.regulation_id, persona.nationalId);
    if (body.regulation_id !== null && !earlier) return sendError(res, 400, 'Unknown regulation', ['regulation_id']);
    const latestProspect = [...state.prospects.values()].filter((p) => p.legacy && p.owner.nationalId === persona.nationalId).at(-1);
    const kind = persona.behaviour.legacyRegulation;
    const regulation: LegacyRegulation = {
      regulationId: kind === 'withoutId' ? null : (earlier?.regulationId ?? randomUUID()),
      status: kind === 'nonCompliant' ? 'non_compliant' : 'compliant',
      ownerNationalId: persona.nationalId,
      ...(latestProspect ? { prospectId: latestProspect.id } : {}),
      payload: body,
    };
    state.legacyRegulations.set(randomUUID(), regulation);
    send(res, regulationResponse, { data: { status: regulation.status, regulation_id: regulation.regulationId } });
  });

  // --- prospect update ---

  // Every refusal is one 400 listing all the refused fields: the input's own problems and the persona's.
  router.put(pattern(legacyPaths.prospect), requireSession, (req, res) => {
    const prospect = ownedProspect(prospectIdParam(req), res);
    if (!prospect) return;
    const parsed = prospectUpdateRequest.safeParse(req.body ?? {});
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(body)'))].map((field) => ({ code: 'Invalid', field }));
      return refuseUpdate(res, fields, 'Invalid request');
    }
    const body = parsed.data;
    const record = recordOf(prospect);
    record.updates.push(body);

    const fields: ProspectFieldError[] = [];
    const templates = body.account_templates ?? [];
    const accounts = templates.flatMap((t) => {
      const account = accountTypeWithCountry.safeParse(t);
      return account.success ? [account.data] : [];
    });
    if (templates.length === 0) fields.push({ code: 'Required', field: 'account_templates' });
    else if (accounts.length !== templates.length || accountChoiceProblem(prospect.country, accounts))
      fields.push({ code: 'Invalid', field: 'account_templates' });
    const regulation = body.regulation_id === undefined ? undefined : handedOut(body.regulation_id, prospect.owner.nationalId);
    if (body.regulation_id === undefined) fields.push({ code: 'Required', field: 'regulation_id' });
    else if (regulation?.status !== 'compliant') fields.push({ code: 'Invalid', field: 'regulation_id' });
    fields.push(...(prospect.owner.behaviour.legacyRefusedFields ?? []));
    if (fields.length > 0) return refuseUpdate(res, fields);

    regulation!.prospectId = prospect.id;
    record.accepted = body;
    // The step-flow signature route and the signing page read the accounts from here.
    prospect.accountTypes = [...new Set(accounts)];
    send(res, prospectUpdateResponse, { data: { prospect_id: prospect.id } });
  });

  // --- signature request (legacy variant) ---

  // Only a legacy prospect's signatures are answered here; any other request leaves for the step-flow route.
  router.post(
    pattern(legacyPaths.signatures),
    (req, _res, next) => {
      const id = prospectIdParam(req);
      if (id && state.prospects.get(id)?.legacy === true) return next();
      next('router');
    },
    requireSession,
    (req, res) => {
      const prospect = ownedProspect(prospectIdParam(req), res);
      if (!prospect) return;
      const body = parseOr400(legacySignatureRequest, req.body, res);
      if (!body) return;
      const record = recordOf(prospect);
      record.signatures.push(body);
      if (!record.accepted || !prospect.accountTypes) return sendError(res, 400, 'Update the prospect before signing', ['prospect']);
      if (prospect.owner.behaviour.legacyHighRisk) return sendError(res, 403, 'Additional information is needed');
      // The same signing session as the step flow's, so the signing page works and returns to complete_url.
      const id = randomUUID();
      state.signatures.set(id, {
        id,
        prospectId: prospect.id,
        cancelUrl: body.cancel_url,
        completeUrl: body.complete_url,
        postponeUrl: body.postpone_url,
        lang: body.lang,
        createdAt: Date.now(),
      });
      send(res, legacySignatureResponse, { data: { signature: { signatureUrl: `${ctx.publicUrl}/sandbox/signing/${id}` } } });
    },
  );

  // Test-only read-out: what the legacy calls received for the prospect (the regulations tied to it, or to its owner
  // while tied to no prospect), in arrival order.
  router.get('/sandbox/legacy', (req, res) => {
    const prospectId = prospectIdQuery(req.query);
    if (!prospectId) return void res.status(400).json({ error: 'prospectId is required' });
    const prospect = state.prospects.get(prospectId);
    if (!prospect) return void res.status(404).json({ error: 'No such prospect' });
    const record = state.legacyProspects.get(prospect.id);
    const regulations = [...state.legacyRegulations.values()].filter(
      (r) => r.prospectId === prospect.id || (r.prospectId === undefined && r.ownerNationalId === prospect.owner.nationalId),
    );
    res.json({ regulations: regulations.map((r) => r.payload), updates: record?.updates ?? [], signatures: record?.signatures ?? [] });
  });

  return router;
}
