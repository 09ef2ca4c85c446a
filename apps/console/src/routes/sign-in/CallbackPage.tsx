import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import type { ConsoleSettings } from '../../auth/settings.ts';
import { useCompleteSignIn } from '../../auth/use-sign-in.ts';
import { PageHeading } from '../../components/PageHeading.tsx';

/** Where the issuer sends the browser back with a code: exchanges it, then leaves for the page asked for. */
export const CallbackPage = ({ settings }: { settings: ConsoleSettings }) => {
  const [, navigate] = useLocation();
  const complete = useCompleteSignIn(settings);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const url = new URL(window.location.href);
    // The code leaves the address bar and the history at once, whatever the exchange gives.
    window.history.replaceState(null, '', window.location.pathname);
    complete.mutate(url, { onSuccess: (returnTo) => navigate(returnTo, { replace: true }) });
  }, [complete, navigate]);
  return (
    <main id="main" className="sign-in">
      <PageHeading title="Signing in">Signing in…</PageHeading>
      {complete.isError && (
        <div role="alert" className="state error">
          <p>Sign-in failed: {(complete.error as Error).message}</p>
          <a href="/console/">Try again</a>
        </div>
      )}
    </main>
  );
};
