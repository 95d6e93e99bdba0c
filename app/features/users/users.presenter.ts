/** The stored profile as GET /update/{email} answers it (docs/product.md#the-api: name and photo). */
export interface ProfileJson {
  name: string | null;
  photo: string | null;
}

/** What the Profile and Edit profile screens show. */
export interface ProfileView extends ProfileJson {
  email: string;
  lastLoginAt: string | null;
}

export const presentProfile = (view: ProfileView): ProfileJson => ({ name: view.name, photo: view.photo });

/** The product's user record (POST /users): name, email, photo, uid. */
export const presentUserRecord = (view: ProfileView & { uid: string }) => ({
  name: view.name,
  email: view.email,
  photo: view.photo,
  uid: view.uid,
});
