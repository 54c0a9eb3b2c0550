import { Button, Card, Field, Input, Link, Stack, Text } from '@chakra-ui/react';
import { AuthMessages, isValidEmail } from '@csv-mapper/domain';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { ArrowLeftIcon, MailIcon } from '../../../components/icons';
import { showToast } from '../utils/show-toast';
import { errorDescription } from '../../../lib/api-client';
import { useRequestPasswordReset } from '../api/request-password-reset';

/** Spec §2/§4: the email form, then the Check Your Email card (Try Different Email returns to the form). */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { trigger, isMutating } = useRequestPasswordReset();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const value = email.trim();
    if (!value) {
      showToast({ title: 'Email required', description: 'Please enter your email address', type: 'error' });
      return;
    }
    if (!isValidEmail(value)) {
      setEmailError(AuthMessages.invalidEmail);
      return;
    }
    try {
      await trigger({ email: value });
      showToast({
        title: 'Reset email sent',
        description: 'If an account with that email exists, a password reset link has been sent.',
        type: 'success',
      });
      setSentTo(value);
    } catch (err) {
      showToast({
        title: 'Error',
        description: errorDescription(err, 'Failed to send reset email'),
        type: 'error',
      });
    }
  }

  if (sentTo) {
    return (
      <Card.Root>
        <Card.Body gap="4" textAlign="center" alignItems="center">
          <MailIcon boxSize="10" color="blue.500" />
          <Card.Title as="h1" fontSize="2xl">
            Check Your Email
          </Card.Title>
          <Text color="fg.muted">
            If an account exists for{' '}
            <Text as="span" fontWeight="semibold" color="fg" wordBreak="break-all">
              {sentTo}
            </Text>
            , we have sent it a link to reset your password.
          </Text>
          <Text color="fg.muted" fontSize="sm">
            Can&apos;t find it? Check your spam or junk folder. The link expires in 1 hour.
          </Text>
          <Stack w="full" gap="3" pt="2">
            <Button
              variant="outline"
              onClick={() => {
                setSentTo(null);
                setEmail('');
              }}
            >
              Try Different Email
            </Button>
            <Button asChild colorPalette="blue">
              <RouterLink to="/auth">Back to Login</RouterLink>
            </Button>
          </Stack>
        </Card.Body>
      </Card.Root>
    );
  }

  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h1" fontSize="2xl">
          Forgot your password?
        </Card.Title>
        <Card.Description>
          Enter the email address of your account and we will send you a reset link.
        </Card.Description>
      </Card.Header>
      <Card.Body>
        <form onSubmit={onSubmit} aria-label="Request a password reset" noValidate>
          <Stack gap="4">
            <Field.Root required invalid={Boolean(emailError)}>
              <Field.Label>
                Email <Field.RequiredIndicator />
              </Field.Label>
              <Input
                name="email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  if (emailError) setEmailError(null);
                }}
                placeholder="you@example.com"
                autoFocus
              />
              {emailError ? <Field.ErrorText>{emailError}</Field.ErrorText> : null}
            </Field.Root>
            <Button type="submit" colorPalette="blue" loading={isMutating} loadingText="Sending...">
              Send Reset Link
            </Button>
            <Link asChild fontSize="sm" color="blue.600" alignSelf="center">
              <RouterLink to="/auth">
                <ArrowLeftIcon boxSize="4" /> Back to Login
              </RouterLink>
            </Link>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
