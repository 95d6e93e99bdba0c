import { useNavigation } from 'react-router';

/**
 * A thin bar along the top while the next page loads or a form is sent, so that on a slow
 * connection the reader sees that something is happening. It waits a moment before showing, so quick
 * navigations do not flash it.
 */
export function NavProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className="nav-progress" role="progressbar" aria-label="Loading the page" data-testid="nav-progress" />;
}
