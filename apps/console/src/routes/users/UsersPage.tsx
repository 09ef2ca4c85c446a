import { useSubscription } from '../../api/subscriptions.ts';
import { useUserRoles, useUsers } from '../../api/users.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { lastSeen } from '../../format.ts';

/** The subscription's users with their roles per subscription and environment (owners and admins only). */
export const UsersPage = ({ subscriptionId }: { subscriptionId: string }) => {
  const users = useUsers(subscriptionId);
  const subscription = useSubscription(subscriptionId);
  const roles = useUserRoles(
    subscriptionId,
    (users.data ?? []).map((u) => u.id),
  );
  const environmentName = (guid: string) =>
    subscription.data?.environments.find((e) => e.guid.toLowerCase() === guid.toLowerCase())?.name ?? guid;
  return (
    <>
      <PageHeading title="Users">Users</PageHeading>
      {users.isPending ? (
        <Loading what="users" />
      ) : users.isError ? (
        <ErrorState error={users.error} what="the users of this subscription" />
      ) : users.data.length === 0 ? (
        <Empty>This subscription has no users.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Users and their roles</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Status</th>
                <th scope="col">Last seen</th>
                <th scope="col">Subscription roles</th>
                <th scope="col">Environment roles</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((user, i) => {
                const detail = roles[i];
                const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
                return (
                  <tr key={user.id}>
                    <th scope="row">
                      {name}
                      <div className="muted">{user.email}</div>
                    </th>
                    <td>{user.status ?? '—'}</td>
                    <td>{lastSeen(user.lastSeen)}</td>
                    <td>
                      {detail?.isPending
                        ? '…'
                        : detail?.isError
                          ? 'could not load'
                          : detail?.data?.subscriptionRoles?.join(', ') || 'none'}
                    </td>
                    <td>
                      {detail?.data?.environmentRoles &&
                      Object.keys(detail.data.environmentRoles).length > 0 ? (
                        <ul className="plain">
                          {Object.entries(detail.data.environmentRoles).map(([guid, list]) => (
                            <li key={guid}>
                              {environmentName(guid)}: {list.join(', ')}
                            </li>
                          ))}
                        </ul>
                      ) : detail?.isPending ? (
                        '…'
                      ) : (
                        'none'
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
};
