import type { ConsoleSettings } from '../../auth/settings.ts';
import { useStartSignIn } from '../../auth/use-sign-in.ts';
import { PageHeading } from '../../components/PageHeading.tsx';

/** Shown without a session: one button to the configured OpenID issuer. */
export const SignInPage = ({ settings, returnTo }: { settings: ConsoleSettings; returnTo: string }) => {
  const signIn = useStartSignIn(settings);
  return (
    <main id="main" className="sign-in">
      <PageHeading title="Sign in">Platform console</PageHeading>
      <p>Subscriptions, render usage, environments, users and connectors of the platform.</p>
      <button
        type="button"
        className="primary"
        disabled={signIn.isPending}
        onClick={() => signIn.mutate(returnTo)}
      >
        Sign in
      </button>
      <p className="muted">You sign in at {new URL(settings.issuer).host} (OpenID Connect).</p>
      {signIn.isError && (
        <p role="alert" className="state error">
          The issuer could not be reached: {(signIn.error as Error).message}
        </p>
      )}
    </main>
  );
};
