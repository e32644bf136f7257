// The creation screen's view (identification-routing-creation §2 "Customer creation screens"): what the
// server renders into the page and sends as each server-sent `creation` event, and what the
// creationStatus island accepts. One schema for both sides: the server's builder (creationView in
// server/stages/customerCreation/creationPage.tsx) returns this type, the island parses every event with it.
// zod/mini, not zod: it tree-shakes, so the island bundle carries only the few checks used here.
import * as z from 'zod/mini';
import { creationOutcomes } from './creationOutcome.ts';

export const creationTones = ['pending', 'success', 'warning', 'error'] as const;

export const creationViewSchema = z.object({
  outcome: z.enum(creationOutcomes),
  title: z.string(),
  body: z.string(),
  tone: z.enum(creationTones),
  spinner: z.boolean(),
  /** The one button: a link (Continue, Log in) or a form post (Try again). Absent reads as none. */
  action: z._default(z.nullable(z.object({ kind: z.enum(['link', 'post']), url: z.string(), label: z.string() })), null),
  /**
   * A link beside the text: the error screen's "proceed with the application via the external form"
   * (identification-routing-creation §8) links to that form. Absent reads as none.
   */
  formLink: z.optional(z.object({ url: z.string(), label: z.string() })),
  /**
   * The done screen's "Start using the app" (identification-routing-creation §2 "Customer creation screens"): a link to the
   * app's universal link beside Continue; never in the app's own webview. Absent reads as none.
   */
  appLink: z.optional(z.object({ url: z.string(), label: z.string() })),
  /** Where the browser goes on its own after a short pause. Absent reads as nowhere. */
  redirectTo: z._default(z.nullable(z.string()), null),
});

export type CreationView = z.output<typeof creationViewSchema>;

/** The view in an event's data (JSON), or null for anything else: an event that does not match is ignored. */
export function parseCreationView(data: string): CreationView | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = creationViewSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
