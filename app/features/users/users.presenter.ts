/** The stored profile as GET /update/{email} answers it (docs/product.md#the-api: name and photo). */
export interface ProfileJson {
  name: string | null;
  photo: string | null;
}

/** A person's own words and links (docs/decisions/067). */
export interface ProfileAbout {
  bio: string | null;
  website: string | null;
  links: string[];
}

/** What the Profile and Edit profile screens show. */
export interface ProfileView extends ProfileJson, ProfileAbout {
  email: string;
  lastLoginAt: string | null;
}

/** The stored columns as the screens use them: `links` is kept as a JSON array. */
export function aboutOf(row: { bio: string | null; website: string | null; links: string | null } | undefined): ProfileAbout {
  let links: string[] = [];
  try {
    const parsed: unknown = row?.links ? JSON.parse(row.links) : [];
    if (Array.isArray(parsed)) links = parsed.filter((link): link is string => typeof link === 'string');
  } catch {
    // A hand-edited row that is not JSON shows no links rather than failing the page.
  }
  return { bio: row?.bio ?? null, website: row?.website ?? null, links };
}

export const presentProfile = (view: ProfileView): ProfileJson => ({ name: view.name, photo: view.photo });

/** The product's user record (POST /users): name, email, photo, uid. */
export const presentUserRecord = (view: ProfileView & { uid: string }) => ({
  name: view.name,
  email: view.email,
  photo: view.photo,
  uid: view.uid,
});
