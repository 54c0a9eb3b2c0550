import { AppHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { PageMeta } from '../../components/page-meta';
import { useProfile } from '../../features/account/api/get-profile';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { usePaymentReturn } from '../../features/billing/hooks/use-payment-return';
import { MapperWizard } from '../../features/mapper/components/mapper-wizard';

/** /csv-mapper: the four-step mapping wizard (spec §2/§4). */
export function CsvMapperPage() {
  const { user } = useAuth();
  const { data: profile } = useProfile({ enabled: Boolean(user) });
  usePaymentReturn();
  return (
    <AppPage
      header={
        <AppHeader
          back={{ to: '/dashboard', label: 'Back to Dashboard' }}
          menuItems={[
            { label: 'Dashboard', to: '/dashboard' },
            { label: 'Start New Mapping', to: '/csv-mapper' },
            { label: 'Saved Mappings', to: '/saved-mappings' },
            { label: 'Profile', to: '/profile' },
          ]}
        />
      }
    >
      <PageMeta
        title="Map Your CSV Data"
        description="Upload a template and a data file, map the columns and download the result."
        path="/csv-mapper"
        robots="noindex, nofollow"
      />
      <MapperWizard
        plan={profile?.plan ?? 'free'}
        planLimits={profile?.planLimits ?? null}
        savedMappingsCount={profile?.usage.savedMappings ?? 0}
        signedIn={Boolean(user)}
      />
    </AppPage>
  );
}
