import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** Templates of every environment named, counted a page at a time (for the maxTemplates meter). */
export const useTemplateCount = (environments: readonly string[]) =>
  useQuery({
    queryKey: ['templates', 'count', environments],
    enabled: environments.length > 0,
    queryFn: async () => {
      let total = 0;
      for (const environment of environments) {
        let nextPageToken: string | undefined;
        do {
          const page = await api.templates.list.query({
            environment,
            ...(nextPageToken ? { nextPageToken } : {}),
          });
          total += page.data.length;
          nextPageToken = page.links.nextPage
            ? (new URL(page.links.nextPage).searchParams.get('nextPageToken') ?? undefined)
            : undefined;
        } while (nextPageToken);
      }
      return total;
    },
  });
