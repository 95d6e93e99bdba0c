import { fediverseReactionsText } from './fediverse-reactions';

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
  unknownRemoteAccount: 'No reply from that account has reached this site: block it by its address, or block its server.',
  badBlockTarget: 'Give an account (@name@server), its address (https://…), or a server (social.example).',
  alreadyBlocked: 'That is blocked already.',
  blocksHeading: 'Blocked on the fediverse',
  blocksIntro: 'Activities from these accounts and servers are refused; their replies here are removed and nothing is delivered to them.',
  blockTargetLabel: 'Account or server',
  blockReasonLabel: 'Reason',
  blockButton: 'Block',
  unblockButton: 'Unblock',
  blocked: 'Blocked',
  unblocked: 'Unblocked',
  noBlocks: 'Nothing is blocked.',
  /** Beside the like button: likes and boosts of the post from other servers (docs/decisions/080). */
  reactions: fediverseReactionsText,
} as const;
