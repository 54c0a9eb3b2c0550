import { Button, HStack, Stack } from '@chakra-ui/react';
import type { Dispatch, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { MappingMatch, PreviewResponse } from '@csv-mapper/contracts';
import type { MapperAction, MapperFile, MapperState } from '../hooks/use-mapper-state';
import type { SourceInUse } from '../hooks/use-recognised-sources';
import { MappingBoard } from './mapping-board';
import { MappingPreview } from './mapping-preview';
import { MappingProgressCard } from './mapping-progress-card';
import { RecognisedSources } from './recognised-sources';
import { RulesEditor } from './rules-editor';
import { SourceInUseNote } from './source-in-use-note';

export interface MappingStepProps {
  state: Pick<MapperState, 'mappings' | 'suggested' | 'templateRules'>;
  template: MapperFile;
  data: MapperFile;
  dispatch: Dispatch<MapperAction>;
  /** The server's reason per suggested template column. */
  reasons: Record<string, string>;
  /** Saved mappings this data file fits, and the one in use. */
  matches: MappingMatch[];
  onUseMatch: (m: MappingMatch) => void;
  inUse: SourceInUse | null;
  /** A built-in template brings its own rules: no rules editor. */
  builtIn: boolean;
  /** The extra data files of a bulk upload (the page's panel), or null. */
  bulkPanel: ReactNode;
  preview: { preview: PreviewResponse | null; loading: boolean; error: string | null };
  /** Save Mapping: null when signed out or nothing is mapped; 'upgrade' at the plan's saved-mappings cap. */
  save: 'save' | 'upgrade' | null;
  onSave: () => void;
  onGenerate: () => void;
}

/** Step 3: map the columns, with rules, a live preview and the actions under them. */
export function MappingStep({ state, template, data, dispatch, ...props }: MappingStepProps) {
  const { mappings, suggested, templateRules } = state;
  const allMapped = template.headers.length > 0 && mappings.length === template.headers.length;
  return (
    <Stack gap="6">
      <RecognisedSources matches={props.matches} onUse={props.onUseMatch} />
      <SourceInUseNote source={props.inUse} />
      <MappingProgressCard mapped={mappings.length} total={template.headers.length} />
      {props.bulkPanel}
      <MappingBoard
        templateHeaders={template.headers}
        dataHeaders={data.headers}
        sampleRows={data.data}
        columnValues={(data as { columnValues?: Record<string, string[]> }).columnValues}
        mappings={mappings}
        suggested={suggested}
        reasons={props.reasons}
        onLeaveEmpty={(t) => dispatch({ type: 'leaveEmpty', templateColumn: t })}
        onMap={(d, t) => dispatch({ type: 'map', dataColumn: d, templateColumn: t })}
        onUnmap={(t) => dispatch({ type: 'unmap', templateColumn: t })}
        onTransform={(t, tr) => dispatch({ type: 'setTransform', templateColumn: t, transform: tr })}
        onAcceptSuggestions={() => dispatch({ type: 'acceptSuggestions' })}
        onClearSuggestions={() => dispatch({ type: 'clearSuggestions' })}
      />
      {props.builtIn ? null : (
        <RulesEditor
          templateHeaders={template.headers}
          rules={templateRules}
          onChange={(c, r) => dispatch({ type: 'setRules', templateColumn: c, rules: r })}
        />
      )}
      <MappingPreview {...props.preview} />
      <HStack
        justify="space-between"
        gap="3"
        flexWrap="wrap"
        position="sticky"
        bottom="0"
        bg="bg.subtle"
        py="3"
      >
        <Button variant="outline" onClick={() => dispatch({ type: 'goTo', step: 2 })}>
          Back
        </Button>
        <HStack gap="3" flexWrap="wrap">
          {props.save === 'upgrade' ? (
            <Button asChild variant="outline" colorPalette="orange">
              <RouterLink to="/profile">Upgrade to Save More</RouterLink>
            </Button>
          ) : props.save === 'save' ? (
            <Button variant="outline" onClick={props.onSave}>
              Save Mapping
            </Button>
          ) : null}
          <Button colorPalette="blue" disabled={!allMapped} onClick={props.onGenerate}>
            Generate CSV
          </Button>
        </HStack>
      </HStack>
    </Stack>
  );
}
