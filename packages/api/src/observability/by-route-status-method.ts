/**
 * A value per route template, status and method, made once by `make` and found again by a lookup for each in turn:
 * each is a string the process already holds (a template, a method of Node's parser) or a number, so no key is built
 * and hashed per request. Past `maxRoutes` route templates the table starts again.
 */
export const byRouteStatusMethod = <T>(
  make: (route: string, status: number, method: string) => T,
  maxRoutes = Number.POSITIVE_INFINITY,
): ((route: string, status: number, method: string) => T) => {
  const routes = new Map<string, Map<number, Map<string, T>>>();
  return (route, status, method) => {
    let byStatus = routes.get(route);
    if (!byStatus) {
      if (routes.size >= maxRoutes) routes.clear();
      byStatus = new Map();
      routes.set(route, byStatus);
    }
    let byMethod = byStatus.get(status);
    if (!byMethod) {
      byMethod = new Map();
      byStatus.set(status, byMethod);
    }
    let value = byMethod.get(method);
    if (value === undefined) {
      value = make(route, status, method);
      byMethod.set(method, value);
    }
    return value;
  };
};
