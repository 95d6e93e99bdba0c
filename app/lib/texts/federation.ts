/** Federation: handles, followers from other servers (docs/decisions/068). */
export const FEDERATION_TEXTS = {
  followerNotFound: 'That follower is not following you.',
  followersHeading: 'Followers on other servers',
  noRemoteFollowers: 'Nobody follows you from another server yet.',
  removeFollower: 'Remove',
  followerRemoved: 'Follower removed',
  handleLabel: 'Fediverse handle',
  copyHandle: 'Copy',
  handleCopied: 'Copied',
  followFromServer: 'Follow from your server',
  followFromServerGo: 'Go',
} as const;
