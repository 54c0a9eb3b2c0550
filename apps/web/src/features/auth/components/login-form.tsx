import { Button, Field, HStack, Input, Link, Stack } from '@chakra-ui/react';
import { nextPath } from '../utils/next-path';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { PasswordInput } from '../../../components/password-input';
import { showToast } from '../utils/show-toast';
import { loginFailed, loginProblem, loginWelcome } from '../utils/auth-checks';
import { useLogin } from '../api/login';
import { PasswordRuleChecklist } from './password-rule-checklist';

/** Login with email or username (spec §2/§5). */
export function LoginForm() {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [identifierError, setIdentifierError] = useState<string | null>(null);
  const { trigger, isMutating } = useLogin();
  const navigate = useNavigate();
  const location = useLocation();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const id = identifier.trim();
    const problem = loginProblem(id, password);
    if (problem) {
      if ('toast' in problem) showToast(problem.toast);
      else setIdentifierError(problem.message);
      return;
    }
    try {
      const user = await trigger({ identifier: id, password });
      showToast(loginWelcome(user));
      navigate(nextPath(location.search) ?? '/dashboard', { replace: true });
    } catch (err) {
      showToast(loginFailed(err));
    }
  }

  return (
    <form onSubmit={onSubmit} aria-label="Login" noValidate>
      <Stack gap="4">
        <Field.Root required invalid={Boolean(identifierError)}>
          <Field.Label>
            Email or username <Field.RequiredIndicator />
          </Field.Label>
          <Input
            name="identifier"
            autoComplete="username"
            value={identifier}
            onChange={(e) => {
              setIdentifier(e.target.value);
              if (identifierError) setIdentifierError(null);
            }}
            placeholder="you@example.com or username"
          />
          {identifierError ? <Field.ErrorText>{identifierError}</Field.ErrorText> : null}
        </Field.Root>
        <Field.Root required>
          <HStack justify="space-between" w="full">
            <Field.Label>
              Password <Field.RequiredIndicator />
            </Field.Label>
            <Link asChild fontSize="sm" color="blue.600">
              <RouterLink to="/forgot-password">Forgot your password?</RouterLink>
            </Link>
          </HStack>
          <PasswordInput
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            placeholder="Your password"
            aria-describedby={password ? 'login-password-rules' : undefined}
          />
        </Field.Root>
        {password ? (
          <PasswordRuleChecklist id="login-password-rules" password={password} checkCommon={false} />
        ) : null}
        <Button type="submit" colorPalette="blue" size="lg" loading={isMutating} loadingText="Logging in...">
          Log In
        </Button>
      </Stack>
    </form>
  );
}
