import { Button, Field, SimpleGrid, Input, Stack } from '@chakra-ui/react';
import { AuthMessages, isValidEmail } from '@csv-mapper/domain';
import { nextPath } from '../utils/next-path';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PasswordInput } from '../../../components/password-input';
import { showToast } from '../utils/show-toast';
import { signupFailed, signupProblem, signupWelcome } from '../utils/auth-checks';
import { useRegister } from '../api/register';
import { PasswordRuleChecklist } from './password-rule-checklist';

const NAME_MAX = 100;

/** Sign Up (spec §2/§5): username, email and password required; first and last name optional. */
export function RegisterForm() {
  const [form, setForm] = useState({ username: '', email: '', firstName: '', lastName: '', password: '' });
  const [emailError, setEmailError] = useState<string | null>(null);
  const { trigger, isMutating } = useRegister();
  const navigate = useNavigate();
  const location = useLocation();

  function set<K extends keyof typeof form>(key: K, value: string) {
    setForm((f) => ({ ...f, [key]: value }));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const username = form.username.trim();
    const email = form.email.trim();
    const problem = signupProblem(username, email, form.password);
    if (problem) {
      if ('toast' in problem) showToast(problem.toast);
      else setEmailError(problem.message);
      return;
    }
    try {
      const user = await trigger({
        username,
        email,
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        password: form.password,
      });
      showToast(signupWelcome(user));
      navigate(nextPath(location.search) ?? '/dashboard', { replace: true });
    } catch (err) {
      showToast(signupFailed(err));
    }
  }

  return (
    <form onSubmit={onSubmit} aria-label="Sign Up" noValidate>
      <Stack gap="4">
        <Field.Root required>
          <Field.Label>
            Username <Field.RequiredIndicator />
          </Field.Label>
          <Input
            name="username"
            autoComplete="username"
            value={form.username}
            onChange={(e) => set('username', e.target.value)}
            placeholder="Choose a username"
          />
        </Field.Root>
        <Field.Root required invalid={Boolean(emailError)}>
          <Field.Label>
            Email <Field.RequiredIndicator />
          </Field.Label>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            onChange={(e) => {
              set('email', e.target.value);
              if (emailError) setEmailError(null);
            }}
            onBlur={() => {
              const v = form.email.trim();
              if (v && !isValidEmail(v)) setEmailError(AuthMessages.invalidEmail);
            }}
            placeholder="you@example.com"
          />
          {emailError ? <Field.ErrorText>{emailError}</Field.ErrorText> : null}
        </Field.Root>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <Field.Root>
            <Field.Label>First name</Field.Label>
            <Input
              name="firstName"
              autoComplete="given-name"
              maxLength={NAME_MAX}
              value={form.firstName}
              onChange={(e) => set('firstName', e.target.value)}
            />
          </Field.Root>
          <Field.Root>
            <Field.Label>Last name</Field.Label>
            <Input
              name="lastName"
              autoComplete="family-name"
              maxLength={NAME_MAX}
              value={form.lastName}
              onChange={(e) => set('lastName', e.target.value)}
            />
          </Field.Root>
        </SimpleGrid>
        <Field.Root required>
          <Field.Label>
            Password <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput
            name="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => set('password', e.target.value)}
            placeholder="Create a password"
            aria-describedby="register-password-rules"
          />
        </Field.Root>
        <PasswordRuleChecklist id="register-password-rules" password={form.password} />
        <Button
          type="submit"
          colorPalette="blue"
          size="lg"
          loading={isMutating}
          loadingText="Creating account..."
        >
          Create Account
        </Button>
      </Stack>
    </form>
  );
}
