import { Button, Card, Field, Stack, Text } from '@chakra-ui/react';
import { passwordErrors } from '@csv-mapper/domain';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { CircleCheckIcon } from '../../../components/icons';
import { PasswordInput } from '../../../components/password-input';
import { showToast } from '../utils/show-toast';
import { errorDescription } from '../../../lib/api-client';
import { useResetPassword } from '../api/reset-password';
import { PasswordRuleChecklist } from './password-rule-checklist';

const MISMATCH = "Passwords don't match";

/** Spec §2/§5: new password + confirmation; submit disabled while pending, empty, mismatched or failing rules. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const { trigger, isMutating } = useResetPassword();

  const ruleErrors = passwordErrors(password);
  const mismatch = confirm.length > 0 && password !== confirm;
  const disabled = isMutating || !password || !confirm || ruleErrors.length > 0 || password !== confirm;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!token) {
      showToast({ title: 'Invalid token', description: 'Reset token is missing', type: 'error' });
      return;
    }
    if (!password || !confirm) {
      showToast({
        title: 'Missing fields',
        description: 'Please fill in both password fields',
        type: 'error',
      });
      return;
    }
    if (password !== confirm) {
      showToast({ title: MISMATCH, description: 'Please enter the same password twice.', type: 'error' });
      return;
    }
    if (ruleErrors.length > 0) {
      showToast({ title: 'Invalid password', description: ruleErrors[0], type: 'error' });
      return;
    }
    try {
      await trigger({ token, password });
      setDone(true);
    } catch (err) {
      showToast({
        title: 'Reset failed',
        description: errorDescription(err, 'Failed to reset password. The link may have expired.'),
        type: 'error',
      });
    }
  }

  if (done) {
    return (
      <Card.Root>
        <Card.Body gap="4" textAlign="center" alignItems="center">
          <CircleCheckIcon boxSize="10" color="green.500" />
          <Card.Title as="h1" fontSize="2xl">
            Password Reset Complete
          </Card.Title>
          <Text color="fg.muted">Your password has been changed. Log in with your new password.</Text>
          <Button asChild colorPalette="blue" w="full">
            <RouterLink to="/auth">Go to Login</RouterLink>
          </Button>
        </Card.Body>
      </Card.Root>
    );
  }

  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h1" fontSize="2xl">
          Choose a new password
        </Card.Title>
        <Card.Description>
          After this, every signed-in session of your account is logged out.
        </Card.Description>
      </Card.Header>
      <Card.Body>
        <form onSubmit={onSubmit} aria-label="Reset password" noValidate>
          <Stack gap="4">
            <Field.Root required>
              <Field.Label>
                New password <Field.RequiredIndicator />
              </Field.Label>
              <PasswordInput
                name="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-describedby="reset-password-rules"
                autoFocus
              />
            </Field.Root>
            <PasswordRuleChecklist id="reset-password-rules" password={password} />
            <Field.Root required invalid={mismatch}>
              <Field.Label>
                Confirm password <Field.RequiredIndicator />
              </Field.Label>
              <PasswordInput
                name="confirmPassword"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
              {mismatch ? <Field.ErrorText>{MISMATCH}</Field.ErrorText> : null}
            </Field.Root>
            <Button
              type="submit"
              colorPalette="blue"
              disabled={disabled}
              loading={isMutating}
              loadingText="Resetting..."
            >
              Reset Password
            </Button>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
