// What the status page's file routes answer an island (server/stages/caseStatus/caseStatusPage.tsx, read by
// views/components/CaseStatusFiles.tsx): the task's stored files after an upload or a removal, or the reason one was refused.
// One schema for both sides. zod/mini, not zod: it tree-shakes, so the island bundle carries only these few checks.
import * as z from 'zod/mini';

export const caseStoredFileSchema = z.object({
  attachmentId: z.string(),
  fileName: z.string(),
  /** The proof-of-address kind of the file, if any. */
  kind: z.optional(z.string()),
});

export type CaseStoredFile = z.output<typeof caseStoredFileSchema>;

export const caseStatusFilesAnswerSchema = z.object({ files: z.array(caseStoredFileSchema) });
export const caseStatusFilesRefusalSchema = z.object({ error: z.string() });

/** The stored files an answer lists, or null when it is no such answer. */
export function storedFilesIn(body: unknown): CaseStoredFile[] | null {
  const parsed = caseStatusFilesAnswerSchema.safeParse(body);
  return parsed.success ? parsed.data.files : null;
}

/** The reason a refusal gives, or null when it is no such answer. */
export function refusalIn(body: unknown): string | null {
  const parsed = caseStatusFilesRefusalSchema.safeParse(body);
  return parsed.success ? parsed.data.error : null;
}
