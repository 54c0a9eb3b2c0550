import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CenteredPage } from '../../components/centered-page';
import { FullScreenSpinner } from '../../components/full-screen-spinner';
import { PageMeta } from '../../components/page-meta';
import { showToast } from '../../components/toaster';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const warned = useRef(false);

  useEffect(() => {
    if (token || warned.current) return;
    warned.current = true;
    showToast({
      title: 'Invalid reset link',
      description: 'This password reset link is invalid or missing a token.',
      type: 'error',
    });
    navigate('/auth', { replace: true });
  }, [token, navigate]);

  if (!token) return <FullScreenSpinner />;

  return (
    <CenteredPage>
      <PageMeta
        title="Reset Password"
        description="Choose a new password for your CSV Mapper account."
        path="/reset-password"
        robots="noindex, nofollow"
      />
      <ResetPasswordForm token={token} />
    </CenteredPage>
  );
}
