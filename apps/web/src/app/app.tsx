import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { RequestError } from '../lib/request';
import { AppRoutes } from './app-routes';
import { RequestEventBridge } from './request-event-bridge';

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again, and the request client has already shown it.
        retry: (failureCount, error) => failureCount < 1 && !(error instanceof RequestError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * The entry's part of the app: routing, queries and the request client's events. antd's provider
 * (AntdRoot) comes with the routes that draw antd (public-pages.ts, app-routes.tsx), not from here.
 */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/*
        Address changes are urgent updates, not transitions: a kept-alive list reads the address in
        an effect, and a transition held back by another update (a search answer arriving while
        the address moves) left the list on its old filters after the back button.
      */}
      <BrowserRouter useTransitions={false}>
        <RequestEventBridge />
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
