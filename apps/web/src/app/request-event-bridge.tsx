import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onRequestEvent } from '../lib/request-events';
import { loginPathFor } from '../lib/public-route-guard';

/** Where the mustChangePassword event sends the user; `reason` makes /reset show why. */
export function resetPathFor(userName: string): string {
  const query = new URLSearchParams({ reason: 'mustChangePassword' });
  if (userName) query.set('userName', userName);
  return `/reset?${query.toString()}`;
}

/**
 * Turns the request client's events into navigation: a dead token goes to /login, remembering the
 * page (the client has already cleared the session), code 601 goes to the reset flow with the account's name.
 */
export function RequestEventBridge() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    const stopSessionEnded = onRequestEvent('sessionEnded', () => {
      queryClient.clear();
      // Sign-in again lands where the user was.
      navigate(loginPathFor(`${window.location.pathname}${window.location.search}`), { replace: true });
    });
    const stopMustChange = onRequestEvent('mustChangePassword', ({ userName, phoneMasked }) => {
      navigate(resetPathFor(userName), { state: { phoneMasked } });
    });
    return () => {
      stopSessionEnded();
      stopMustChange();
    };
  }, [navigate, queryClient]);

  return null;
}
