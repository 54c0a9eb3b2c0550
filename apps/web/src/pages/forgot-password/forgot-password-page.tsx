import { CenteredPage } from '../../components/centered-page';
import { PageMeta } from '../../components/page-meta';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export function ForgotPasswordPage() {
  return (
    <CenteredPage>
      <PageMeta
        title="Forgot Password"
        description="Request a link to reset your CSV Mapper password."
        path="/forgot-password"
        robots="noindex, nofollow"
      />
      <ForgotPasswordForm />
    </CenteredPage>
  );
}
