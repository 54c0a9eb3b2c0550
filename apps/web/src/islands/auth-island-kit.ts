// The password rules list of the sign-in island (auth-island.ts), drawn from the markup the build rendered
// into <template id="auth-kit"> (pages/auth/auth-static-page.tsx): the same list and items that
// features/auth's PasswordRuleChecklist renders, in each state, so the island's list looks the same.
import { isCommonPassword, passwordRules } from '@csv-mapper/domain';

/** The <template> holding the kit; auth-static-page.tsx renders it under this id. */
export const AUTH_KIT_ID = 'auth-kit';

export interface Kit {
  root: ParentNode;
}

/** The first element of the kit's `[data-kit=name]` part. */
function part(kit: Kit, name: string): Element | null {
  return kit.root.querySelector(`[data-kit="${name}"]`)?.firstElementChild ?? null;
}

/**
 * A rule's row: a met or unmet row of the kit with this rule's message (its hidden "(met)" text kept). The
 * kit's 'rules-unmet' list starts with an unmet rule, its 'rules-common' list with a met one.
 */
function ruleItem(kit: Kit, ok: boolean, message: string): Element | null {
  const list = part(kit, ok ? 'rules-common' : 'rules-unmet');
  const item = list?.querySelector('li')?.cloneNode(true) as Element | undefined;
  const text = item?.querySelector('span')?.firstChild;
  if (!item || !text) return null;
  text.textContent = message;
  return item;
}

/**
 * Renders the checklist for `password` into `current` (the list or the tick message now on the page, or
 * null) and returns the element to show, `current` itself when it could be updated in place (its
 * aria-live region stays the same element, so screen readers announce the change). A new element is not
 * yet in the document: the caller puts it where `current` was, or where the form shows it.
 */
export function renderRules(
  kit: Kit | null,
  current: HTMLElement | null,
  password: string,
  { checkCommon, id }: { checkCommon: boolean; id: string },
): HTMLElement | null {
  if (!kit) return current;
  const rules = passwordRules(password);
  const common = checkCommon && password.length > 0 && isCommonPassword(password);
  const allMet = rules.every((r) => r.ok) && !common;
  if (allMet) {
    if (current && current.tagName !== 'UL') return current;
    const met = part(kit, 'rules-all-met')?.cloneNode(true) as HTMLElement | undefined;
    if (!met) return current;
    met.id = id;
    if (current) current.replaceWith(met);
    return met;
  }
  let list = current;
  if (!list || list.tagName !== 'UL') {
    const fresh = part(kit, 'rules-unmet')?.cloneNode(false) as HTMLElement | undefined;
    if (!fresh) return current;
    fresh.id = id;
    if (current) current.replaceWith(fresh);
    list = fresh;
  }
  const items = rules.map((r) => ruleItem(kit, r.ok, r.message)).filter((i) => i !== null);
  if (common) {
    const commonItem = part(kit, 'rules-common')?.querySelector('li:last-child')?.cloneNode(true);
    if (commonItem) items.push(commonItem as Element);
  }
  list.replaceChildren(...items);
  return list;
}
