import { useEffect, useState } from 'react';
import { useConnectorScript } from '../../../api/connector-script.ts';
import { ErrorState, Loading } from '../../../components/States.tsx';
import { Activity } from './Activity.tsx';
import { DataTry } from './DataTry.tsx';
import { FailureNote } from './FailureNote.tsx';
import { FetchLog } from './FetchLog.tsx';
import { MediaTry } from './MediaTry.tsx';
import { type ConfigOption, OptionFields } from './OptionFields.tsx';
import type { DataCapabilities, MediaCapabilities } from './studio-calls.ts';
import { type Source, useSandbox } from './use-sandbox.ts';

type Props = { environment: string; connectorId: string; connectorName: string; type: string };

/** The panel's body, mounted only while it is open: the sandbox lives exactly that long. */
const Running = ({
  environment,
  connectorId,
  type,
  source,
}: Omit<Props, 'connectorName'> & { source: Source }) => {
  const { call, calls } = useSandbox(environment, connectorId, source);
  const kind = type === 'data' ? 'data' : 'media';
  const [setup, setSetup] = useState<{
    capabilities: MediaCapabilities & DataCapabilities;
    options: ConfigOption[];
  }>();
  const [failure, setFailure] = useState<unknown>();
  const [context, setContext] = useState<Record<string, unknown>>({});
  // What Studio learns of a connector before it calls it: its capabilities and configuration options.
  useEffect(() => {
    let gone = false;
    (async () => {
      const capabilities = await call('getCapabilities', []);
      const options = await call('getConfigurationOptions', []);
      if (gone) return;
      setSetup({
        capabilities: (capabilities.kind === 'json' ? capabilities.value : {}) as MediaCapabilities &
          DataCapabilities,
        options:
          options.kind === 'json' && Array.isArray(options.value) ? (options.value as ConfigOption[]) : [],
      });
    })().catch((error: unknown) => {
      if (!gone) setFailure(error);
    });
    return () => {
      gone = true;
    };
  }, [call]);
  return (
    <>
      <p className="muted">
        Runs version {source.version} in this browser in the platform runtime, calling it as GraFx Studio's
        editor does; each fetch goes through the proxy with your browser-usage authorization.
      </p>
      {failure !== undefined && <FailureNote failure={failure} kind={kind} />}
      {setup && (
        <>
          <OptionFields options={setup.options} onApply={setContext} />
          {kind === 'data' ? (
            <DataTry call={call} capabilities={setup.capabilities} context={context} />
          ) : (
            <MediaTry call={call} capabilities={setup.capabilities} context={context} />
          )}
        </>
      )}
      <FetchLog calls={calls} />
    </>
  );
};

const Body = ({ environment, connectorId, type }: Omit<Props, 'connectorName'>) => {
  const script = useConnectorScript(environment, connectorId, true);
  if (script.isPending) return <Loading what="the connector" />;
  if (script.isError) return <ErrorState error={script.error} what="the connector's script" />;
  return (
    <>
      <Running environment={environment} connectorId={connectorId} type={type} source={script.data} />
      <Activity environment={environment} connectorId={connectorId} />
    </>
  );
};

/** "Try it" on a connector card: run the connector here, see what comes back, and its recorded activity. */
export const TryIt = (props: Props) => {
  const [open, setOpen] = useState(false);
  return (
    <details className="try-it" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Try it <span className="visually-hidden">{props.connectorName}</span>
      </summary>
      {open && (
        <section aria-label={`Try ${props.connectorName}`}>
          <Body environment={props.environment} connectorId={props.connectorId} type={props.type} />
        </section>
      )}
    </details>
  );
};
