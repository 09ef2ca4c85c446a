import { useSubscription } from '../../api/subscriptions.ts';
import { useTemplateCount } from '../../api/template-count.ts';
import { Meter } from '../../components/Meter.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { bytes, count } from '../../format.ts';

type Subscription = NonNullable<ReturnType<typeof useSubscription>['data']>;

const Quotas = ({ subscription }: { subscription: Subscription }) => {
  const templates = useTemplateCount(subscription.environments.map((e) => e.guid));
  const tenants = subscription.tenantInformation;
  return (
    <section aria-labelledby="quotas">
      <h2 id="quotas">Quotas</h2>
      <div className="meters">
        <Meter
          label="Renders this month"
          used={subscription.usedRenders ?? 0}
          total={subscription.maxRenders}
          format={count}
        />
        <Meter
          label="Storage"
          used={subscription.storageUsed}
          total={subscription.maxStorage}
          format={bytes}
        />
        {templates.isSuccess ? (
          <Meter label="Templates" used={templates.data} total={subscription.maxTemplates} format={count} />
        ) : templates.isError ? (
          <ErrorState error={templates.error} what="the template count" />
        ) : (
          <Loading what="the template count" />
        )}
        <Meter
          label="Designer seats"
          used={subscription.templateDesignerSeatsUsed ?? 0}
          total={subscription.templateDesignerSeatsTotal}
          format={count}
        />
        <Meter
          label="Sandbox environments"
          used={tenants.sandboxEnvironmentsUsed}
          total={tenants.sandboxEnvironmentsTotal}
          format={count}
        />
        <Meter
          label="Production environments"
          used={tenants.productionEnvironmentsUsed}
          total={tenants.productionEnvironmentsTotal}
          format={count}
        />
      </div>
      <p className="muted">
        Watermarked renders this month: {count(subscription.usedWatermarkedRenders)}. Average renders over{' '}
        {subscription.averageRendersPeriodDays} days: {count(subscription.averageRenders)}.
      </p>
    </section>
  );
};

const modulesOf = (s: Subscription) => [
  { name: 'Publisher', on: s.isPublisherEnabled },
  { name: 'Studio', on: s.isStudioEnabled },
  { name: 'Experience', on: s.isExperienceEnabled ?? false },
  { name: 'Partner extensions', on: s.experienceExtensions?.isPartnerEnabled ?? false },
];

/** One subscription: status, quotas as meters, modules and licenses. */
export const SubscriptionPage = ({ subscriptionId }: { subscriptionId: string }) => {
  const subscription = useSubscription(subscriptionId);
  if (subscription.isPending) return <Loading what="the subscription" />;
  if (subscription.isError) return <ErrorState error={subscription.error} what="this subscription" />;
  const s = subscription.data;
  return (
    <>
      <PageHeading title={s.displayName ?? 'Subscription'}>
        {s.displayName ?? s.name ?? 'Subscription'}
      </PageHeading>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge ${s.status === 'Active' ? 'ok' : 'off'}`}>{s.status}</span>
            {s.overdueInvoices && <span className="badge warn">overdue invoices</span>}
          </dd>
        </div>
        <div>
          <dt>Type and tier</dt>
          <dd>
            {s.subscriptionType}, {s.subscriptionTier}
          </dd>
        </div>
        <div>
          <dt>Period</dt>
          <dd>
            {s.startDate ?? '—'} to {s.endDate ?? 'open-ended'}
          </dd>
        </div>
        <div>
          <dt>Client</dt>
          <dd>{s.clientName ?? '—'}</dd>
        </div>
      </dl>
      <Quotas subscription={s} />
      <section aria-labelledby="modules">
        <h2 id="modules">Modules</h2>
        <ul className="modules">
          {modulesOf(s).map((m) => (
            <li key={m.name}>
              <span className={`badge ${m.on ? 'ok' : 'off'}`}>{m.on ? 'on' : 'off'}</span> {m.name}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="licenses">
        <h2 id="licenses">Licenses</h2>
        {!s.licenses || s.licenses.length === 0 ? (
          <Empty>No licenses.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">License</th>
                  <th scope="col">Type</th>
                  <th scope="col">Cores used</th>
                  <th scope="col">Cores total</th>
                </tr>
              </thead>
              <tbody>
                {s.licenses.map((l) => (
                  <tr key={l.id}>
                    <th scope="row">{l.id}</th>
                    <td>{l.licenseType ?? '—'}</td>
                    <td className="num">{count(l.coresUsed)}</td>
                    <td className="num">
                      {l.coresTotal === null || l.coresTotal === undefined
                        ? 'unlimited'
                        : count(l.coresTotal)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
};
