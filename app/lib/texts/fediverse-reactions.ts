/**
 * Beside the like button of every blog page: likes and boosts of the post from other servers
 * (docs/decisions/080). A module of its own, so the blog page's first script does not carry the
 * rest of the fediverse's texts (docs/decisions/077).
 */
export const fediverseReactionsText = (likes: number, boosts: number) => {
  const parts = [likes > 0 ? `${likes} ${likes === 1 ? 'like' : 'likes'}` : null, boosts > 0 ? `${boosts} ${boosts === 1 ? 'boost' : 'boosts'}` : null].filter(Boolean);
  return `${parts.join(' and ')} from the fediverse`;
};
