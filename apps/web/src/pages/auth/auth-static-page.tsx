// The sign-in page as the build prerenders it for /auth (scripts/prerender-web.js): static markup that
// src/islands/auth-island.ts makes interactive, so a visitor who is not signed in never downloads the app.
// Both tabs' views are in the page; the one the link asked for (?tab=signup) is shown by the boot script
// (src/islands/app-frame-boot.ts) before the first paint, the other by the island when its tab is chosen.
// <template id="auth-kit"> holds the markup of the states the page does not start in, drawn by the same
// components, so the island's states look exactly like the app's.
import { Button, Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { EyeIcon, EyeOffIcon } from '../../components/icons';
import { PasswordRuleChecklist } from '../../features/auth/components/password-rule-checklist';
import { AUTH_KIT_ID } from '../../islands/auth-island-kit';
import { AUTH_META, AuthView } from './auth-page';

/** A password that passes every rule and is not a common one: the checklist's tick message. */
const GOOD_PASSWORD = 'abcdefgH1!x';
/** Every rule met but a common password: a met row and the "too common" row. */
const COMMON_PASSWORD = 'Password123!';

function KitPart({ name, children }: { name: string; children: ReactNode }) {
  return <div data-kit={name}>{children}</div>;
}

export function AuthStaticPage() {
  return (
    <>
      {AUTH_META}
      {(['login', 'signup'] as const).map((t) => (
        <div key={t} data-frame-tab-variant={t}>
          <AuthView tab={t} onTabChange={() => undefined} />
        </div>
      ))}
      <template id={AUTH_KIT_ID}>
        <KitPart name="rules-unmet">
          <PasswordRuleChecklist password="" />
        </KitPart>
        <KitPart name="rules-common">
          <PasswordRuleChecklist password={COMMON_PASSWORD} />
        </KitPart>
        <KitPart name="rules-all-met">
          <PasswordRuleChecklist password={GOOD_PASSWORD} />
        </KitPart>
        <KitPart name="eye">
          <EyeIcon />
        </KitPart>
        <KitPart name="eye-off">
          <EyeOffIcon />
        </KitPart>
        <KitPart name="error-text">
          <Field.Root invalid>
            <Field.ErrorText>error</Field.ErrorText>
          </Field.Root>
        </KitPart>
        <KitPart name="login-busy">
          <Button type="submit" colorPalette="blue" size="lg" loading loadingText="Logging in...">
            Log In
          </Button>
        </KitPart>
        <KitPart name="signup-busy">
          <Button type="submit" colorPalette="blue" size="lg" loading loadingText="Creating account...">
            Create Account
          </Button>
        </KitPart>
      </template>
    </>
  );
}
