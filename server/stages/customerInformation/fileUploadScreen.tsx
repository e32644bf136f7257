// The upload screen of the customer-information steps (customer-information.md §5 "Files"): a card per slot
// (views/components/UploadScreen.tsx), `intent=upload` with the slot (multipart, received by server/uploads/receiveFiles.ts),
// `intent=remove` with slot and attachmentId (with JS after a modal, without JS from the ?remove=…&slot=… confirmation
// screen) and `intent=finish`, which continues once every required slot has a file. A step says only what its slots are
// and what Continue does; the file is judged and stored by server/uploads/storeFile.ts.
import { z } from 'zod';
import type { ReactElement } from 'react';
import { RemoveFileScreen } from '../../../views/components/UploadScreen.tsx';
import { stepOf, type Screen, type ScreenOutcome, type StepContext } from './stepModule.ts';
import type { UploadedFileRef } from '../../../shared/citizenship.ts';
import { filesReceived } from '../../uploads/receiveFiles.ts';
import { judgeAndStoreFile } from '../../uploads/storeFile.ts';

export type UploadResult = { ok: true; file: UploadedFileRef } | { ok: false; message: string };

/**
 * Checks and stores the posted file for the upstream task `taskId`. Answers the file's reference, or a
 * message for the page. A 401/403 of init-file-upload is thrown (the page shows session expired).
 */
export async function uploadFile(ctx: StepContext<string>, { taskId }: { taskId: string }): Promise<UploadResult> {
  const { t, deps } = ctx;
  const upload = filesReceived(ctx.req);
  if (upload.problem === 'size') return { ok: false, message: t('fileUpload.error.tooBig') };
  if (upload.problem === 'invalid') return { ok: false, message: t('fileUpload.error.failed') };
  const file = upload.files[0];
  if (!file) return { ok: false, message: t('fileUpload.error.noFile') };
  const stored = await judgeAndStoreFile({ initFileUpload: (body) => ctx.brokerage.initFileUpload(body), deps }, file, taskId, {
    step: ctx.ci.steps[ctx.ci.current],
  });
  return stored.ok ? stored : { ok: false, message: t(stored.messageKey) };
}

/** The list without the file (removing only forgets the reference; the spec has no delete call). */
export function removeFile(files: readonly UploadedFileRef[], attachmentId: string | undefined): UploadedFileRef[] {
  return files.filter((f) => f.attachmentId !== attachmentId);
}

/** One place files go: a country's proof, the residency documents. */
export interface UploadSlot {
  key: string;
  /** The upstream task the files are uploaded to; a slot without one takes no upload (back to the screen). */
  taskId?: string;
  files: readonly UploadedFileRef[];
  /** Continue waits for a file here. */
  required: boolean;
}

export interface UploadScreenErrors {
  /** The slot an upload failed for, and why. */
  slot?: string;
  upload?: string;
  /** Continue pressed before every required slot had a file. */
  page?: string;
}

export interface UploadScreenSpec<S extends string> {
  slots(ctx: StepContext<S>): UploadSlot[];
  /** Stores the uploaded file's reference, or the list without the removed one, in the step's answers. */
  setFiles(ctx: StepContext<S>, slot: string, files: UploadedFileRef[]): void;
  /** The screen's view: views/components/UploadScreen.tsx with the step's texts. */
  view(ctx: StepContext<S>, errors: UploadScreenErrors): ReactElement | Promise<ReactElement>;
  /** The message when Continue comes before every required slot has a file. */
  missing(ctx: StepContext<S>): string;
  /** Continue with every required slot filled: submit the attachments and say where to go. */
  finish(ctx: StepContext<S>, input: { enhanced?: 'yes' }): Promise<ScreenOutcome<S>>;
  available?(ctx: StepContext<S>): boolean;
}

const slotKey = z.string().min(1).max(100);
const uploadScreenInput = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('upload'), slot: slotKey }),
  z.object({ intent: z.literal('remove'), slot: slotKey, attachmentId: z.string().min(1).max(100) }),
  // Set by the page's JavaScript (views/components/ScriptMarker.tsx), for steps whose refusal opens a modal.
  z.object({ intent: z.literal('finish'), enhanced: z.literal('yes').optional().catch(undefined) }),
]);

/** The no-JS "Do you want to remove this file?" screen: GET ?remove=<attachmentId>&slot=<key> (changes nothing). */
const removeQuery = z.object({ remove: z.string().min(1).max(100), slot: slotKey });

/** The file a removal link asks about, if it is one of this screen's. */
function fileToRemove(ctx: StepContext<string>, slots: readonly UploadSlot[]): { slot: string; file: UploadedFileRef } | null {
  const query = removeQuery.safeParse(ctx.req.query);
  if (!query.success) return null;
  const file = slots.find((s) => s.key === query.data.slot)?.files.find((f) => f.attachmentId === query.data.remove);
  return file ? { slot: query.data.slot, file } : null;
}

/** The no-JS removal link of a file on an upload screen. */
export const removeHref = (ctx: StepContext<string>) => (slot: string, attachmentId: string) =>
  `${ctx.basePath}?remove=${encodeURIComponent(attachmentId)}&slot=${encodeURIComponent(slot)}`;

/** The upload screen: pick, upload, remove, and Continue once every required slot has a file. */
export function uploadScreen<S extends string>(spec: UploadScreenSpec<S>): Screen<S> {
  const { screen, goTo, again } = stepOf<S>();
  return screen({
    input: uploadScreenInput,
    view(ctx) {
      // Without JavaScript, "Do you want to remove this file?" is asked on a screen of its own (GET ?remove=…&slot=…).
      const removal = fileToRemove(ctx, spec.slots(ctx));
      if (removal)
        return <RemoveFileScreen t={ctx.t} action={ctx.action} fields={ctx.fields()} slot={removal.slot} file={removal.file} keepHref={ctx.basePath} />;
      return spec.view(ctx, {});
    },
    // A post of the screen without a known intent: the screen with what Continue still waits for.
    invalid: async (ctx) => again(await spec.view(ctx, { page: spec.missing(ctx) })),
    ...(spec.available ? { available: spec.available } : {}),
    async submit(ctx, input) {
      const slots = spec.slots(ctx);
      const slot = 'slot' in input ? slots.find((s) => s.key === input.slot) : undefined;
      switch (input.intent) {
        case 'upload': {
          if (!slot?.taskId) return goTo(ctx.screen);
          const result = await uploadFile(ctx, { taskId: slot.taskId });
          if (!result.ok) return again(await spec.view(ctx, { slot: slot.key, upload: result.message }));
          spec.setFiles(ctx, slot.key, [...slot.files, result.file]);
          return goTo(ctx.screen);
        }
        case 'remove':
          if (slot) spec.setFiles(ctx, slot.key, removeFile(slot.files, input.attachmentId));
          return goTo(ctx.screen);
        case 'finish':
          if (slots.some((s) => s.required && s.files.length === 0)) return again(await spec.view(ctx, { page: spec.missing(ctx) }));
          return spec.finish(ctx, input);
      }
    },
  });
}
