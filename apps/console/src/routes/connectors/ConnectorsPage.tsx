import { lazy, Suspense } from 'react';
import { useConnectorAuth } from '../../api/connector-auth.ts';
import { useConnectors, useSetConnectorEnabled } from '../../api/connectors.ts';
import { problemOf } from '../../api/problem.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import type { AuthTypeName } from './auth-fields.ts';
import { UsageAuth } from './UsageAuth.tsx';

// The runtime (QuickJS in WebAssembly) loads with the first Try-it panel, not with the console.
const TryIt = lazy(() => import('./try-it/TryIt.tsx').then((m) => ({ default: m.TryIt })));

type Connector = NonNullable<ReturnType<typeof useConnectors>['data']>['data'][number];

const ConnectorCard = ({ environment, connector }: { environment: string; connector: Connector }) => {
  const auth = useConnectorAuth(environment, connector.id);
  const toggle = useSetConnectorEnabled(environment);
  return (
    <article className="card" aria-labelledby={`connector-${connector.id}`} data-connector={connector.id}>
      <header className="card-head">
        <h2 id={`connector-${connector.id}`}>{connector.name}</h2>
        <span className={`badge ${connector.enabled ? 'ok' : 'off'}`}>
          {connector.enabled ? 'enabled' : 'disabled'}
        </span>
        <button
          type="button"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ connectorId: connector.id, enabled: !connector.enabled })}
        >
          {connector.enabled ? 'Disable' : 'Enable'} <span className="visually-hidden">{connector.name}</span>
        </button>
      </header>
      <p className="muted">
        {connector.type} connector, version {connector.version}
        {connector.description ? `: ${connector.description}` : ''}
      </p>
      {toggle.isError && (
        <p role="alert" className="state error">
          {problemOf(toggle.error).message}
        </p>
      )}
      {auth.isPending ? (
        <Loading what="authorizations" />
      ) : auth.isError ? (
        <ErrorState error={auth.error} what="this connector's authorizations" />
      ) : (
        <div className="usages">
          {(['server', 'browser'] as const).map((usage) => (
            <UsageAuth
              key={usage}
              environment={environment}
              connectorId={connector.id}
              connectorName={connector.name}
              usage={usage}
              supported={connector.supportedAuthentication[usage] as AuthTypeName[]}
              current={auth.data.find((a) => a.usage === usage)}
            />
          ))}
        </div>
      )}
      <Suspense fallback={<Loading what="Try it" />}>
        <TryIt
          environment={environment}
          connectorId={connector.id}
          connectorName={connector.name}
          type={connector.type}
        />
      </Suspense>
    </article>
  );
};

/** The connectors of one environment: enable or disable, and each usage's authorization. */
export const ConnectorsPage = ({ environment }: { environment: string }) => {
  const connectors = useConnectors(environment);
  return (
    <>
      <PageHeading title={`Connectors of ${environment}`}>Connectors of {environment}</PageHeading>
      {connectors.isPending ? (
        <Loading what="connectors" />
      ) : connectors.isError ? (
        <ErrorState error={connectors.error} what="this environment's connectors" />
      ) : connectors.data.data.length === 0 ? (
        <Empty>No connectors are published in this environment (connector-cli publish adds one).</Empty>
      ) : (
        connectors.data.data.map((connector) => (
          <ConnectorCard key={connector.id} environment={environment} connector={connector} />
        ))
      )}
    </>
  );
};
