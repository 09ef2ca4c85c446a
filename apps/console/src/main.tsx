import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { problemOf, worthRetrying } from './api/problem.ts';
import { readSettings } from './auth/settings.ts';
import { setSession } from './auth/use-session.ts';
import './styles.css';

const queries = new QueryClient({
  // A 401 means the token expired or was refused: back to sign-in.
  queryCache: new QueryCache({
    onError: (error) => {
      if (problemOf(error).status === 401) setSession(undefined);
    },
  }),
  // networkMode 'always': offline, a call fails and says so, where react-query's default pauses it without a word
  // (a save button stayed disabled, a page said "Loading…", for as long as the browser was offline).
  defaultOptions: {
    queries: { retry: worthRetrying, staleTime: 30_000, refetchOnWindowFocus: false, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queries}>
        <App settings={readSettings()} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
