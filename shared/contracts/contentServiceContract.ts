// Content service wire contract (identification-routing-creation §2 "Onboarding page shell"): the onboarding background image is
// managed content, looked up by content type techContent, techId ACE-Onboarding and locale sv-SE.
import { z } from 'zod';

export const contentServicePaths = { content: '/content/v1/content' } as const;

export const onboardingContentQuery = { contentType: 'techContent', techId: 'ACE-Onboarding', locale: 'sv-SE' } as const;

export const contentQuery = z.object({
  contentType: z.string().min(1).max(64),
  techId: z.string().min(1).max(64),
  locale: z.string().min(2).max(16),
});

export const contentItem = z.object({
  techId: z.string(),
  contentType: z.string(),
  locale: z.string(),
  fields: z.object({
    backgroundImage: z.object({ url: z.string().url(), title: z.string().optional() }).optional(),
  }),
});

export const contentResponse = z.object({ items: z.array(contentItem) });
export type ContentResponse = z.infer<typeof contentResponse>;
