import { Link, useLocation } from 'wouter';
import { useSubscription } from '../api/subscriptions.ts';
import { useUsers } from '../api/users.ts';
import { setSession, useSession } from '../auth/use-session.ts';

const NavLink = ({ href, children }: { href: string; children: React.ReactNode }) => {
  const [location] = useLocation();
  const current = location === href;
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
};

/** The pages of one subscription; Users only for those the API lets list them (owners and admins). */
const SubscriptionNav = ({ subscriptionId }: { subscriptionId: string }) => {
  const subscription = useSubscription(subscriptionId);
  const users = useUsers(subscriptionId);
  const base = `/subscriptions/${subscriptionId}`;
  return (
    <nav aria-label={`Subscription ${subscription.data?.displayName ?? ''}`.trim()} className="subnav">
      <span className="subnav-name">{subscription.data?.displayName ?? 'Subscription'}</span>
      <ul>
        <li>
          <NavLink href={base}>Overview</NavLink>
        </li>
        <li>
          <NavLink href={`${base}/renders`}>Render usage</NavLink>
        </li>
        <li>
          <NavLink href={`${base}/environments`}>Environments</NavLink>
        </li>
        {users.isSuccess && (
          <li>
            <NavLink href={`${base}/users`}>Users</NavLink>
          </li>
        )}
        {/* The trail is for the same roles as the users (owners and admins). */}
        {users.isSuccess && (
          <li>
            <NavLink href={`${base}/audit`}>Audit</NavLink>
          </li>
        )}
        <li>
          <NavLink href={`${base}/idp-domains`}>Identity providers</NavLink>
        </li>
      </ul>
    </nav>
  );
};

export const Layout = ({ children }: { children: React.ReactNode }) => {
  const session = useSession();
  const [location] = useLocation();
  const subscriptionId = /^\/subscriptions\/([^/]+)/.exec(location)?.[1];
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <nav aria-label="Main">
          <Link href="/" className="brand">
            Platform console
          </Link>
          <NavLink href="/">Subscriptions</NavLink>
        </nav>
        <div className="who">
          <span>
            Signed in as <strong>{session?.userId}</strong>
          </span>
          <button type="button" onClick={() => setSession(undefined)}>
            Sign out
          </button>
        </div>
      </header>
      {subscriptionId && <SubscriptionNav subscriptionId={decodeURIComponent(subscriptionId)} />}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
};
