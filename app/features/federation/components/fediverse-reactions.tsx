import { fediverseReactionsText } from '~/lib/texts/fediverse-reactions';

/**
 * A post's likes and boosts from other servers, beside (never inside) its like button: the local
 * count stays the one a reader's own like moves (docs/decisions/080). Nothing when there are none.
 */
export function FediverseReactions({ counts }: { counts: { likes: number; boosts: number } | null }) {
  if (!counts || counts.likes + counts.boosts === 0) return null;
  return (
    <p className="text-sm opacity-85" data-testid="fediverse-reactions">
      {fediverseReactionsText(counts.likes, counts.boosts)}
    </p>
  );
}
