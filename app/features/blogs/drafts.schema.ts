import { z } from 'zod';
import { ClearablePhotoUrlSchema, PhotoUrlSchema } from '~/features/images/photo-url.schema';
import { BLOG_LIMITS } from './blogs.constants';
import { BlogFormSchema, BlogIdSchema } from './blogs.schema';

const most = (max: number) => z.string().max(max, `Must be at most ${max.toLocaleString('en')} characters`).optional();

/**
 * A draft as the canvas saves it every few seconds (docs/decisions/070): any field may be empty or
 * left out, since the product's required fields are required when the post is published, not
 * while it is written. Lengths are held to the blog's own limits.
 */
export const DraftSchema = z.object({
  /** Set: the draft is an edit of this published post. */
  blogId: BlogIdSchema.optional(),
  title: most(BLOG_LIMITS.title),
  category: most(100),
  type: most(100),
  short_description: most(BLOG_LIMITS.short_description),
  long_description: most(BLOG_LIMITS.long_description),
  details: most(BLOG_LIMITS.details),
  availability: most(20),
  photo: ClearablePhotoUrlSchema.optional(),
  photo_focus: most(20),
  mail: most(20),
  /** The tags field's text as typed; checked as tags when the post is published. */
  tags: most(1000),
  /** The account the page was opened for: a save sent after the session changed is refused. */
  writerId: z.string().max(100).optional(),
});
export type DraftInput = z.infer<typeof DraftSchema>;

export const DraftIdSchema = z.object({ id: BlogIdSchema });

/** The latest a post may be scheduled for. */
export const SCHEDULE_MAX_DAYS = 365;

/**
 * Publishing at a chosen time: the whole form, as at publishing (every required field), and the
 * time, an ISO instant the browser made from the writer's local date and time.
 */
export const ScheduleSchema = BlogFormSchema.extend({
  photo: PhotoUrlSchema,
  publish_at: z.iso.datetime({ offset: true, message: 'Choose a date and time.' }),
});
export type ScheduleInput = z.infer<typeof ScheduleSchema>;
