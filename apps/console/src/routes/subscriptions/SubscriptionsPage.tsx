import { Link } from 'wouter';
import { useSubscriptions } from '../../api/subscriptions.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';

/** Every subscription the signed-in user can see. */
export const SubscriptionsPage = () => {
  const subscriptions = useSubscriptions();
  return (
    <>
      <PageHeading title="Subscriptions">Subscriptions</PageHeading>
      {subscriptions.isPending ? (
        <Loading what="subscriptions" />
      ) : subscriptions.isError ? (
        <ErrorState error={subscriptions.error} what="subscriptions" />
      ) : subscriptions.data.length === 0 ? (
        <Empty>You are not a member of any subscription yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Subscriptions visible to you</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Client</th>
                <th scope="col">Type</th>
                <th scope="col">Active</th>
              </tr>
            </thead>
            <tbody>
              {subscriptions.data.map((s) => (
                <tr key={s.guid}>
                  <th scope="row">
                    <Link href={`/subscriptions/${s.guid}`}>{s.displayName}</Link>
                  </th>
                  <td>{s.clientName ?? '—'}</td>
                  <td>{s.subscriptionType}</td>
                  <td>{s.isActive ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
};
