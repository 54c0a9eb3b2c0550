import { useNavigate } from 'react-router';
import { showToast } from '../utils/show-toast';
import { errorDescription } from '../../../lib/api-client';
import { useLogout } from '../api/logout';

/** Log Out as the header and the mobile menu offer it: toast, forget the cached user, go to '/'. */
export function useLogOutAction() {
  const navigate = useNavigate();
  const { trigger, isMutating } = useLogout();

  async function logOut() {
    try {
      await trigger();
      showToast({ title: 'Logged out successfully', description: 'See you next time!', type: 'success' });
      navigate('/', { replace: true });
    } catch (err) {
      showToast({
        title: 'Logout failed',
        description: errorDescription(err, 'Failed to log out'),
        type: 'error',
      });
    }
  }

  return { logOut, isLoggingOut: isMutating };
}
