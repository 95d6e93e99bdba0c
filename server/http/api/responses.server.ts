import { z } from 'zod';

/**
 * The answers several operations share, as strict zod schemas: server/http/api/openapi.server.test.ts
 * checks real bodies against them, so the document cannot promise what the code does not send.
 */
const text = z.string();
const id = z.string().describe('A blog, comment or wishlist id (UUID)');

export const MessageResponse = z.object({ message: text, code: text.optional(), field: text.optional(), requestId: text.optional() });
const wishlistBase = {
  _id: id,
  blogId: id,
  title: text,
  photo: text.nullable(),
  photo_position: text.nullable().describe("The blog's photo focus as a CSS `object-position`, while this item's copy of the photo is still the blog's; null otherwise"),
  email: text,
  category: text,
  description: text,
};
export const WishlistItemResponse = z.union([
  z.strictObject({ ...wishlistBase, createdAt: text }),
  z.strictObject({ ...wishlistBase, likeCount: z.number().int() }),
]);
export const LikedItemResponse = z.strictObject({ blogId: id, likes: z.number().int(), likedBy: z.array(text) });
export const ProfileResponse = z.strictObject({ name: text.nullable(), photo: text.nullable() });
export const ProfileUpdateResponse = ProfileResponse.extend({ modifiedCount: z.number().int() });
export const UserRecordResponse = z.strictObject({ name: text.nullable(), email: text, photo: text.nullable(), uid: text, insertedId: text.nullable() });
export const TokenResponse = z.strictObject({ token: text.describe('Send as `Authorization: Bearer …`; ends with the session') });
export const ImageResponse = z.strictObject({ success: z.literal(true), data: z.strictObject({ url: text }) });
export const InsertedResponse = z.strictObject({ insertedId: id });
export const ModifiedResponse = z.strictObject({ modifiedCount: z.number().int() });
export const DeletedResponse = z.strictObject({ deletedCount: z.number().int() });
export const SubscribedResponse = z.strictObject({ message: text });

export const denied = { 401: { description: 'Not signed in', schema: MessageResponse }, 403: { description: 'Not yours, or (for a change) the account is suspended', schema: MessageResponse } };
export const bad = { 400: { description: 'Invalid input; `message` names the field', schema: MessageResponse } };
export const missing = { 404: { description: 'No such blog, or a Hidden blog of someone else', schema: MessageResponse } };
