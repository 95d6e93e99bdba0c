import { z } from 'zod';
import { MESSAGES } from '~/lib/texts/messages';
import { EMAIL_MAX_LENGTH } from '~/lib/core/validation';
import { ClearablePhotoUrlSchema } from '~/features/images/photo-url.schema';

/** docs/product.md#validation: at least 8 characters with a digit, a lowercase and an uppercase letter. */
export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for passphrases, short enough that hashing stays cheap (better-auth's limit too). */
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;
/** Two spellings of one address: emails compare without case or surrounding spaces. */
export const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
export { PHOTO_MAX_LENGTH } from '~/features/images/photo-url.schema';

const PASSWORD_RULE = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).+$/;

export const PasswordSchema = z
  .string({ message: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordHint)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .regex(PASSWORD_RULE, MESSAGES.passwordHint);

export const EmailSchema = z
  .string({ message: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX_LENGTH, MESSAGES.emailHint)
  .pipe(z.email(MESSAGES.emailHint))
  .transform((email) => email.toLowerCase());

const NameSchema = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`);


/** The checkbox arrives as 'on' from a form and as true from JSON. */
const AcceptedSchema = z
  .union([z.literal('on'), z.literal('true'), z.literal(true)], { message: MESSAGES.acceptTerms })
  .transform(() => true as const);

export const SignUpSchema = z.object({
  email: EmailSchema,
  name: NameSchema,
  password: PasswordSchema,
  terms: AcceptedSchema,
});
export type SignUpInput = z.infer<typeof SignUpSchema>;

/** Sign-in checks only presence: the rule applies when a password is chosen, not when it is tried. */
export const LogInSchema = z.object({
  email: EmailSchema,
  password: z.string({ message: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH, 'Password is too long'),
});
export type LogInInput = z.infer<typeof LogInSchema>;

export const ForgotPasswordSchema = z.object({ email: EmailSchema });
export type ForgotPasswordInput = z.infer<typeof ForgotPasswordSchema>;

export const ResetPasswordSchema = z.object({
  token: z.string().trim().min(1, 'This reset link is invalid. Please ask for a new one.').max(256),
  password: PasswordSchema,
});
export type ResetPasswordInput = z.infer<typeof ResetPasswordSchema>;

export const BIO_MAX_LENGTH = 500;
export const WEBSITE_MAX_LENGTH = 200;
export const LINKS_MAX = 5;

/** An address a reader may follow: http or https only, so no `javascript:` ever lands in an href. */
const WebAddressSchema = (label: string) =>
  z
    .string()
    .trim()
    .max(WEBSITE_MAX_LENGTH, `${label} must be at most ${WEBSITE_MAX_LENGTH} characters`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
      } catch {
        return false;
      }
    }, `${label} must be a web address starting with https://`);

/** Empty clears it (null); absent leaves it as it is (undefined). */
const clearable = <T extends z.ZodType<string>>(schema: T) => z.union([z.literal('').transform(() => null), schema]).nullish();

/** The links field arrives as one address a line from the form, or as an array from JSON. */
const LinksSchema = z
  .union([z.array(z.string()), z.string().transform((text) => text.split(/\r?\n/))])
  .transform((lines) => lines.map((line) => line.trim()).filter(Boolean))
  .pipe(z.array(WebAddressSchema('Each link')).max(LINKS_MAX, `At most ${LINKS_MAX} links`));

/** A person's own words and links on their author page (docs/decisions/067). */
export const ProfileAboutSchema = z.object({
  bio: clearable(z.string().trim().max(BIO_MAX_LENGTH, `Bio must be at most ${BIO_MAX_LENGTH} characters`)),
  website: clearable(WebAddressSchema('Website')),
  links: LinksSchema.optional(),
});

/** Account settings: a new password needs the current one; the new one meets the product's rule. */
export const ChangePasswordSchema = z.object({
  currentPassword: LogInSchema.shape.password,
  newPassword: PasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordSchema>;

/** Account settings: a new email, confirmed by the current password. */
export const ChangeEmailSchema = z.object({
  newEmail: EmailSchema,
  password: LogInSchema.shape.password,
});
export type ChangeEmailInput = z.infer<typeof ChangeEmailSchema>;

/** Account settings: deleting the account takes the password and a ticked confirmation. */
export const DeleteAccountSchema = z.object({
  password: LogInSchema.shape.password,
  confirm: z.literal('on', { message: MESSAGES.confirmDeleteRequired }),
});

/** The account page's remove button of one passkey (docs/decisions/075). */
export const RemovePasskeySchema = z.object({ passkeyId: z.string().min(1).max(200) });

/** PATCH /update/{email} and the Edit profile form: `name`, and `photo` only when it changes; bio, website and links on top. */
export const UpdateProfileSchema = z
  .object({
    name: z.string().trim().max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`).optional(),
    Name: z.string().trim().max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`).optional(),
    photo: ClearablePhotoUrlSchema.nullish(),
    ...ProfileAboutSchema.shape,
  })
  .transform(({ name, Name, photo, bio, website, links }) => ({ name: name ?? Name, photo, bio, website, links }));
/** What changes; a field left out stays as it is. */
export type UpdateProfileInput = Partial<z.infer<typeof UpdateProfileSchema>>;

/** POST /users (docs/product.md#the-api): the user record saved on social sign-up. */
export const SaveUserSchema = z
  .object({
    email: EmailSchema,
    name: z.string().trim().max(NAME_MAX_LENGTH).optional(),
    Name: z.string().trim().max(NAME_MAX_LENGTH).optional(),
    photo: ClearablePhotoUrlSchema.nullish(),
    uid: z.string().trim().max(128).optional(),
  })
  .transform(({ name, Name, ...rest }) => ({ ...rest, name: name ?? Name }));
export type SaveUserInput = z.infer<typeof SaveUserSchema>;

/** POST /jwt {email} and POST /users/jwt {email, name, photo}: only the email matters. */
export const TokenRequestSchema = z.object({ email: EmailSchema });

export { fieldErrors } from '~/lib/core/validation';
export { imageFailure } from '~/features/images/image-errors';

/** The writer's choice of public view counts (docs/decisions/069): a checkbox, sent as `on` when ticked. */
export const ShowViewsSchema = z.object({ showViews: z.literal('on', 'Tick the box or leave it empty.').optional() });
