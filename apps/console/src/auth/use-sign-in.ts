import { useMutation } from '@tanstack/react-query';
import { completeSignIn, startSignIn } from './oidc.ts';
import type { ConsoleSettings } from './settings.ts';
import { setSession } from './use-session.ts';

/** Leaves for the issuer's sign-in page. */
export const useStartSignIn = (settings: ConsoleSettings) =>
  useMutation({ mutationFn: (returnTo: string) => startSignIn(settings, returnTo) });

/** On the callback page: the code for a session; answers where to go back to. */
export const useCompleteSignIn = (settings: ConsoleSettings) =>
  useMutation({
    mutationFn: async (callbackUrl: URL) => {
      const { session, returnTo } = await completeSignIn(settings, callbackUrl);
      setSession(session);
      return returnTo;
    },
  });
