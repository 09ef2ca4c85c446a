import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Route, Router, Switch, useLocation } from 'wouter';
import type { ConsoleSettings } from './auth/settings.ts';
import { useSession } from './auth/use-session.ts';
import { Layout } from './components/Layout.tsx';
import { PageHeading } from './components/PageHeading.tsx';
import { AuditPage } from './routes/audit/AuditPage.tsx';
import { ConnectorsPage } from './routes/connectors/ConnectorsPage.tsx';
import { EnvironmentsPage } from './routes/environments/EnvironmentsPage.tsx';
import { IdpDomainsPage } from './routes/idp-domains/IdpDomainsPage.tsx';
import { RendersPage } from './routes/renders/RendersPage.tsx';
import { CallbackPage } from './routes/sign-in/CallbackPage.tsx';
import { SignInPage } from './routes/sign-in/SignInPage.tsx';
import { SubscriptionPage } from './routes/subscriptions/SubscriptionPage.tsx';
import { SubscriptionsPage } from './routes/subscriptions/SubscriptionsPage.tsx';
import { UsersPage } from './routes/users/UsersPage.tsx';

const NotFound = () => (
  <>
    <PageHeading title="Not found">Nothing here</PageHeading>
    <p>This address is not a page of the console.</p>
  </>
);

const Pages = () => (
  <Layout>
    <Switch>
      <Route path="/">{() => <SubscriptionsPage />}</Route>
      <Route path="/subscriptions/:subscriptionId">
        {({ subscriptionId }) => <SubscriptionPage key={subscriptionId} subscriptionId={subscriptionId} />}
      </Route>
      <Route path="/subscriptions/:subscriptionId/renders">
        {({ subscriptionId }) => <RendersPage key={subscriptionId} subscriptionId={subscriptionId} />}
      </Route>
      <Route path="/subscriptions/:subscriptionId/environments">
        {({ subscriptionId }) => <EnvironmentsPage key={subscriptionId} subscriptionId={subscriptionId} />}
      </Route>
      <Route path="/subscriptions/:subscriptionId/environments/:environment/connectors">
        {({ environment }) => <ConnectorsPage key={environment} environment={environment} />}
      </Route>
      <Route path="/subscriptions/:subscriptionId/users">
        {({ subscriptionId }) => <UsersPage key={subscriptionId} subscriptionId={subscriptionId} />}
      </Route>
      <Route path="/subscriptions/:subscriptionId/audit">
        {({ subscriptionId }) => <AuditPage key={subscriptionId} subscriptionId={subscriptionId} />}
      </Route>
      <Route path="/subscriptions/:subscriptionId/idp-domains">
        {({ subscriptionId }) => <IdpDomainsPage key={subscriptionId} subscriptionId={subscriptionId} />}
      </Route>
      <Route>{() => <NotFound />}</Route>
    </Switch>
  </Layout>
);

const Signed = ({ settings }: { settings: ConsoleSettings }) => {
  const session = useSession();
  const [location] = useLocation();
  const queries = useQueryClient();
  // Sign-out (or an expired token) forgets everything the previous session loaded.
  useEffect(() => {
    if (!session) queries.clear();
  }, [session, queries]);
  if (location === '/callback') return <CallbackPage settings={settings} />;
  if (!session) return <SignInPage settings={settings} returnTo={location} />;
  return <Pages />;
};

export const App = ({ settings }: { settings: ConsoleSettings | undefined }) =>
  settings ? (
    <Router base="/console">
      <Signed settings={settings} />
    </Router>
  ) : (
    <main id="main" className="sign-in">
      <h1>Platform console</h1>
      <p role="alert">This page was not served by platform-server: it has no issuer to sign in with.</p>
    </main>
  );
