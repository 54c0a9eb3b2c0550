import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { useAuth } from '../features/auth/hooks/use-auth';
import { TeamReadOnlyBanner } from '../features/teams/components/team-read-only-banner';

/**
 * Spec §2: while the session check runs, the full-screen spinner shows; a visitor who turns out not to be
 * signed in is sent to '/', and the spinner stays until the navigation happens.
 */
export function ProtectedRoute() {
  const { status } = useAuth();
  const navigate = useNavigate();

  useEffect(() => {
    if (status === 'unauthenticated') navigate('/', { replace: true });
  }, [status, navigate]);

  if (status !== 'authenticated') return <FullScreenSpinner />;
  return (
    <>
      <TeamReadOnlyBanner />
      <Outlet />
    </>
  );
}
