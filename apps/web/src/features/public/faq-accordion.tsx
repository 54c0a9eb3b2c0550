import { Box, chakra } from '@chakra-ui/react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Faq } from './seo-head';

/**
 * Spec §2/§9 FAQ: one answer open at a time, clicking the open question closes it. Each question is a
 * button with aria-expanded/aria-controls over a labelled region (the WAI-ARIA accordion pattern): Tab,
 * Enter and Space work as for any button, and the arrow keys, Home and End move between questions.
 * Written by hand rather than with Chakra's Accordion: that one brings a state-machine runtime (~12 KB
 * gzipped) to every landing page, over the public pages' JavaScript budget. The prerendered pages do not
 * hydrate: there `data-faq` marks the markup that islands/public-islands.ts makes interactive the same way.
 */
export function FaqAccordion({ faqs, idPrefix = 'faq' }: { faqs: Faq[]; idPrefix?: string }) {
  const [open, setOpen] = useState<number | null>(null);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const uid = useId();

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const n = faqs.length;
    const target =
      e.key === 'ArrowDown'
        ? (i + 1) % n
        : e.key === 'ArrowUp'
          ? (i - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (target < 0) return;
    e.preventDefault();
    buttons.current[target]?.focus();
  };

  return (
    <Box data-faq="" maxW="3xl" mx="auto" bg="bg" borderWidth="1px" borderRadius="l2" overflow="hidden">
      {faqs.map((f, i) => {
        const expanded = open === i;
        const buttonId = `${idPrefix}-${uid}-q${i}`;
        const panelId = `${idPrefix}-${uid}-a${i}`;
        return (
          <Box key={f.q} borderTopWidth={i === 0 ? '0' : '1px'}>
            <h3 style={{ margin: 0 }}>
              <chakra.button
                type="button"
                id={buttonId}
                ref={(el: HTMLButtonElement | null) => {
                  buttons.current[i] = el;
                }}
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : i)}
                onKeyDown={(e: KeyboardEvent<HTMLButtonElement>) => onKeyDown(e, i)}
                display="flex"
                width="full"
                alignItems="center"
                gap="3"
                px="4"
                py="3"
                textAlign="start"
                fontWeight="medium"
                cursor="pointer"
                _hover={{ bg: 'bg.muted' }}
                _focusVisible={{ outline: '2px solid', outlineColor: 'blue.500', outlineOffset: '-2px' }}
              >
                <chakra.span flex="1">{f.q}</chakra.span>
                <chakra.svg
                  viewBox="0 0 24 24"
                  width="4"
                  height="4"
                  flexShrink={0}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  aria-hidden="true"
                  transform={expanded ? 'rotate(180deg)' : undefined}
                  transition="transform 0.2s"
                >
                  <path d="m6 9 6 6 6-6" />
                </chakra.svg>
              </chakra.button>
            </h3>
            <Box
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              hidden={!expanded}
              px="4"
              pb="4"
              color="fg.muted"
            >
              {f.a}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
